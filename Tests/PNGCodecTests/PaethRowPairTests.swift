import ImageCore
@testable import PNGCodec
import TestSupport
import XCTest

/// ``PaethRowPair`` (two Paeth rows in one vector chain) against its one-row twins, directly and
/// through the decoder fed in pieces that split the pairs in every way.
final class PaethRowPairTests: XCTestCase {
    private typealias B = TestPNGBuilder

    private enum Kind: CaseIterable { case rgba, rgb, rgbToRGBA }

    /// Both rows through the one-row kernel, the second over the first.
    private func twin(_ kind: Kind, _ f0: [UInt8], _ f1: [UInt8], prior: [UInt8], columns: Int) -> [UInt8] {
        let outBytes = kind == .rgb ? 3 * columns : 4 * columns
        var out0 = [UInt8](repeating: 0, count: outBytes), out1 = out0
        func one(_ filtered: [UInt8], _ above: [UInt8], _ output: inout [UInt8]) {
            filtered.withUnsafeBufferPointer { f in
                above.withUnsafeBufferPointer { b in
                    output.withUnsafeMutableBufferPointer { o in
                        guard let f = f.baseAddress, let b = b.baseAddress, let o = o.baseAddress else { return }
                        switch kind {
                        case .rgba: RowUnfilter.apply(.paeth, filtered: f, prior: b, output: o, count: 4 * columns, stride: 4)
                        case .rgb: RowUnfilter.apply(.paeth, filtered: f, prior: b, output: o, count: 3 * columns, stride: 3)
                        case .rgbToRGBA: RGBToRGBAUnfilter.apply(.paeth, filtered: f, prior: b, output: o, columns: columns)
                        }
                    }
                }
            }
        }
        one(f0, prior, &out0)
        one(f1, out0, &out1)
        return out0 + out1
    }

    /// The pair kernel on buffers laid out as in the decoder: the filtered rows back to back with
    /// their filter bytes and nothing after them; the prior row and the two outputs as three
    /// canvas rows in a row, followed by 16 guard bytes that must stay as they were.
    private func pair(_ kind: Kind, _ f0: [UInt8], _ f1: [UInt8], prior: [UInt8], columns: Int) -> (pixels: [UInt8], guardIntact: Bool) {
        let inBytes = f0.count, outBytes = prior.count
        let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * (inBytes + 1))
        defer { filtered.deallocate() }
        filtered[0] = 4
        (filtered + 1).initialize(from: f0, count: inBytes)
        filtered[inBytes + 1] = 4
        (filtered + inBytes + 2).initialize(from: f1, count: inBytes)
        let canvas = UnsafeMutablePointer<UInt8>.allocate(capacity: 3 * outBytes + 16)
        defer { canvas.deallocate() }
        canvas.initialize(from: prior, count: outBytes)
        (canvas + outBytes).initialize(repeating: 0xA5, count: 2 * outBytes + 16)
        let first = UnsafePointer(filtered + 1), second = UnsafePointer(filtered + inBytes + 2)
        let out0 = canvas + outBytes, out1 = canvas + 2 * outBytes
        let layout: PaethRowPair.Layout = kind == .rgba ? .fourBytes : kind == .rgb ? .threeBytes : .rgbToRGBA
        PaethRowPair.apply(layout, filtered0: first, filtered1: second, prior: canvas, output0: out0, output1: out1, columns: columns)
        let pixels = Array(UnsafeBufferPointer(start: out0, count: 2 * outBytes))
        let guardBytes = Array(UnsafeBufferPointer(start: canvas + 3 * outBytes, count: 16))
        return (pixels, guardBytes.allSatisfy { $0 == 0xA5 })
    }

    func testThePairMatchesTheOneRowKernelsAtEveryWidthAndStaysInsideItsRows() {
        var rng = SeededGenerator(seed: 0x9A17)
        var compared = 0
        for kind in Kind.allCases {
            let inStride = kind == .rgba ? 4 : 3, outStride = kind == .rgb ? 3 : 4
            for columns in Array(1...9) + [16, 17, 64] {
                // Random bytes, and bytes 0...2 over rows near each other (Paeth's ties).
                for range: ClosedRange<UInt8> in [0...255, 0...2] {
                    let f0 = (0..<(inStride * columns)).map { _ in UInt8.random(in: range, using: &rng) }
                    let f1 = (0..<(inStride * columns)).map { _ in UInt8.random(in: range, using: &rng) }
                    let base = UInt8.random(in: 0...255, using: &rng)
                    let prior = (0..<(outStride * columns)).map { _ in
                        range.upperBound == 2 ? base &+ UInt8.random(in: 0...2, using: &rng) : UInt8.random(in: 0...255, using: &rng)
                    }
                    let expected = twin(kind, f0, f1, prior: prior, columns: columns)
                    let (pixels, guardIntact) = pair(kind, f0, f1, prior: prior, columns: columns)
                    XCTAssertEqual(pixels, expected, "\(kind), \(columns) columns, bytes \(range)")
                    XCTAssertTrue(guardIntact, "\(kind), \(columns) columns: wrote past the second row")
                    compared += 1
                }
            }
        }
        XCTAssertEqual(compared, 3 * 12 * 2)
    }

    /// Through the decoder: runs of 1 to 5 Paeth rows between other filters (so pairs start on
    /// odd and even rows and a run's last row goes alone), decoded whole against PNG 9.2, and fed
    /// in pieces that split rows and pairs in every way against the whole decode.
    func testPaethRunsDecodeTheSameInAnyPiecesAsTheSpecSays() throws {
        var rng = SeededGenerator(seed: 0x9A18)
        // (bit depth, colour type, bytes per pixel, decoded as)
        let kinds: [(Int, Int, Int, PixelFormat?)] = [(8, 6, 4, nil), (16, 4, 4, nil), (8, 2, 3, nil), (8, 2, 3, .rgba8)]
        for (depth, colorType, stride, format) in kinds {
            let width = 13, height = 23
            let rowBytes = width * stride
            // Runs of 1, 2, 3, 4 and 5 Paeth rows between Sub rows, and a Paeth first row.
            let types: [UInt8] = [4, 1, 4, 4, 1, 4, 4, 4, 2, 4, 4, 4, 4, 3, 4, 4, 4, 4, 4, 1, 4, 4, 4]
            var filtered: [[UInt8]] = []
            for _ in 0..<height { filtered.append((0..<rowBytes).map { _ in UInt8.random(in: 0...255, using: &rng) }) }
            let stream = zip(types, filtered).flatMap { [$0] + $1 }
            let file = B.file([B.ihdr(width: width, height: height, bitDepth: depth, colorType: colorType), B.idat(stream), B.iend])
            let options = DecodingOptions(preferredFormat: format)
            let whole = try PNGDecoder(options: options).decode(file)
            let spec = SpecUnfilter.reconstruct(filtered, types: types, stride: stride)
            if format == .rgba8 {
                var rgba: [UInt8] = []
                for pixel in Swift.stride(from: 0, to: spec.count, by: 3) { rgba += spec[pixel..<(pixel + 3)] + [255] }
                XCTAssertEqual(whole.pixels, rgba, "\(depth)-bit colour type \(colorType) as rgba8")
            } else {
                XCTAssertEqual(whole.pixels, spec, "\(depth)-bit colour type \(colorType)")
            }
            for piece in [1, 7, rowBytes, rowBytes + 1, rowBytes + 2, 2 * rowBytes + 1, 2 * rowBytes + 2, 2 * rowBytes + 3, 1000] {
                let decoder = PNGDecoder(options: options)
                var offset = 0
                while offset < file.count {
                    let end = min(offset + piece, file.count)
                    _ = try file[offset..<end].withUnsafeBytes { try decoder.feed($0) }
                    offset = end
                }
                XCTAssertEqual(try decoder.finish().pixels, whole.pixels, "colour type \(colorType), pieces of \(piece)")
            }
        }
    }
}
