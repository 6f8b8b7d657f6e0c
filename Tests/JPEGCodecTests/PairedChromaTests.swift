import XCTest
import TestSupport
@testable import JPEGCodec

/// Chroma stretched 2:1 across and converted in one pass (``PairedChromaUpsampler`` with
/// ``PairedYCbCrConverter``) against the careful route: the row upsampler's kernels, then the
/// scalar colour conversion, at every width (vector body and scalar tail) and for both filters.
final class PairedChromaTests: XCTestCase {
    private enum Filter { case h2v1, h2v2 }

    /// RGB of one output row of `outputWidth` pixels both ways: (paired, careful).
    private func bothWays(_ filter: Filter, luma: [UInt8], cb: ([UInt8], [UInt8]), cr: ([UInt8], [UInt8]),
                          outputWidth: Int) -> ([UInt8], [UInt8]) {
        let width = cb.0.count
        // Careful: upsampled rows (2·width samples, of which outputWidth are used), then the twin.
        func upsampled(_ near: [UInt8], _ far: [UInt8]) -> [UInt8] {
            var row = [UInt8](repeating: 0, count: 2 * width)
            var sums = [UInt16](repeating: 0, count: width)
            near.withUnsafeBufferPointer { n in
                far.withUnsafeBufferPointer { f in
                    row.withUnsafeMutableBufferPointer { o in
                        sums.withUnsafeMutableBufferPointer { s in
                            switch filter {
                            case .h2v1: RowUpsampler.h2v1Fancy(n.baseAddress!, width: width, into: o.baseAddress!)
                            case .h2v2: RowUpsampler.h2v2Fancy(near: n.baseAddress!, far: f.baseAddress!, width: width,
                                                               sums: s.baseAddress!, into: o.baseAddress!)
                            }
                        }
                    }
                }
            }
            return row
        }
        let cbRow = upsampled(cb.0, cb.1), crRow = upsampled(cr.0, cr.1)
        var careful = [UInt8](repeating: 0xAA, count: 3 * outputWidth + 1)
        luma.withUnsafeBufferPointer { y in
            cbRow.withUnsafeBufferPointer { b in
                crRow.withUnsafeBufferPointer { r in
                    careful.withUnsafeMutableBufferPointer { o in
                        RowColorConverter.yCbCrToRGB(y.baseAddress!, b.baseAddress!, r.baseAddress!, into: o.baseAddress!, width: outputWidth)
                    }
                }
            }
        }
        // Paired: column values, then one pass.
        let count = PairedChromaUpsampler.valueCount(width: width)
        var cbValues = [UInt16](repeating: 0, count: count), crValues = [UInt16](repeating: 0, count: count)
        var tail = [UInt8](repeating: 0, count: 32)
        func fill(_ rows: ([UInt8], [UInt8]), _ values: inout [UInt16]) {
            rows.0.withUnsafeBufferPointer { n in
                rows.1.withUnsafeBufferPointer { f in
                    values.withUnsafeMutableBufferPointer { v in
                        switch filter {
                        case .h2v1: PairedChromaUpsampler.fillSamples(n.baseAddress!, width: width, into: v.baseAddress!)
                        case .h2v2: PairedChromaUpsampler.fillColumnSums(near: n.baseAddress!, far: f.baseAddress!, width: width,
                                                                         into: v.baseAddress!)
                        }
                    }
                }
            }
        }
        fill(cb, &cbValues)
        fill(cr, &crValues)
        var paired = [UInt8](repeating: 0xAA, count: 3 * outputWidth + 1)
        luma.withUnsafeBufferPointer { y in
            cbValues.withUnsafeBufferPointer { b in
                crValues.withUnsafeBufferPointer { r in
                    tail.withUnsafeMutableBufferPointer { t in
                        paired.withUnsafeMutableBufferPointer { o in
                            switch filter {
                            case .h2v1: PairedYCbCrConverter.convertH2V1(y.baseAddress!, cbValues: b.baseAddress!, crValues: r.baseAddress!,
                                                                         tail: t.baseAddress!, into: o.baseAddress!, width: outputWidth)
                            case .h2v2: PairedYCbCrConverter.convertH2V2(y.baseAddress!, cbValues: b.baseAddress!, crValues: r.baseAddress!,
                                                                         tail: t.baseAddress!, into: o.baseAddress!, width: outputWidth)
                            }
                        }
                    }
                }
            }
        }
        return (paired, careful)
    }

    func testPairedRowsEqualUpsamplingThenConvertingAtEveryWidth() {
        var rng = SeededGenerator(seed: 21)
        func row(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) } }
        var rowsCompared = 0
        for filter in [Filter.h2v1, .h2v2] {
            // The fancy filters need a chroma width above 2; output widths 2w − 1 (odd images) and 2w.
            for width in 3...50 {
                for outputWidth in [2 * width - 1, 2 * width] {
                    let luma = row(outputWidth)
                    let (paired, careful) = bothWays(filter, luma: luma, cb: (row(width), row(width)), cr: (row(width), row(width)),
                                                     outputWidth: outputWidth)
                    XCTAssertEqual(paired, careful, "\(filter) width \(width) → \(outputWidth)")
                    XCTAssertEqual(paired.last, 0xAA, "\(filter) width \(width): wrote past the row")
                    rowsCompared += 1
                }
            }
        }
        XCTAssertEqual(rowsCompared, 2 * 48 * 2)
    }

    func testPairedRowsAtExtremeValues() {
        // Saturating chroma and luma: every clamp of R, G and B at both ends.
        for (y, b, r): (UInt8, UInt8, UInt8) in [(0, 0, 0), (255, 255, 255), (0, 255, 0), (255, 0, 255), (128, 0, 255), (20, 255, 0)] {
            for filter in [Filter.h2v1, .h2v2] {
                let width = 37
                let (paired, careful) = bothWays(filter, luma: [UInt8](repeating: y, count: 2 * width),
                                                 cb: ([UInt8](repeating: b, count: width), [UInt8](repeating: 255 - b, count: width)),
                                                 cr: ([UInt8](repeating: r, count: width), [UInt8](repeating: r, count: width)),
                                                 outputWidth: 2 * width)
                XCTAssertEqual(paired, careful, "\(filter) Y \(y) Cb \(b) Cr \(r)")
            }
        }
    }
}
