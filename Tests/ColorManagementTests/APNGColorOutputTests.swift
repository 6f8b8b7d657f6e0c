@testable import ColorManagement
import Deflate
import ImageCore
import PNGCodec
import TestSupport
import XCTest

/// APNG frames go through the same conversion to sRGB as the default image.
final class APNGColorOutputTests: XCTestCase {
    /// `png` with `chunk` (type + data, CRC added) inserted right after IHDR.
    private func inserting(_ type: String, _ data: [UInt8], into png: [UInt8]) -> [UInt8] {
        let ihdrEnd = 8 + 4 + 4 + 13 + 4
        let body = Array(type.utf8) + data
        let length = UInt32(data.count), crc = CRC32.checksum(body)
        let chunk = withUnsafeBytes(of: length.bigEndian, Array.init) + body + withUnsafeBytes(of: crc.bigEndian, Array.init)
        return Array(png[..<ihdrEnd]) + chunk + Array(png[ihdrEnd...])
    }

    /// The iCCP chunk's data (name, method, compressed profile) of a colour fixture.
    private func iccpData(of png: [UInt8]) throws -> [UInt8] {
        var offset = 8
        while offset + 8 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if Array(png[offset + 4..<offset + 8]) == Array("iCCP".utf8) { return Array(png[offset + 8..<offset + 8 + length]) }
            offset += 12 + length
        }
        throw XCTSkip("no iCCP chunk")
    }

    func testEveryFrameIsConvertedWithTheFilesProfile() throws {
        let animation = try Fixtures.bytes("apng/dispose_blend_rgba8.png")
        let p3 = try iccpData(of: try Fixtures.bytes("color/chart-displayp3.png"))
        let bytes = inserting("iCCP", p3, into: animation)

        func frames(_ options: DecodingOptions) throws -> (PNGDecoder, [AnimationFrame]) {
            let decoder = PNGDecoder(options: options)
            _ = try decoder.decode(bytes)
            var frames: [AnimationFrame] = []
            while let frame = try decoder.nextFrame() { frames.append(frame) }
            return (decoder, frames)
        }
        let (original, plain) = try frames(DecodingOptions())
        let (_, converted) = try frames(DecodingOptions(colorSpace: .sRGB))
        let profile = try XCTUnwrap(original.header?.iccProfile)
        XCTAssertGreaterThan(plain.count, 2)
        XCTAssertEqual(converted.count, plain.count)
        var changed = 0
        for (before, after) in zip(plain, converted) {
            var stage = SRGBOutputStage(colorSpace: .sRGB)
            XCTAssertEqual(after.image, stage.convert(before.image, iccProfile: profile), "frame \(before.index)")
            XCTAssertEqual(after.regionImage, stage.convert(before.regionImage, iccProfile: profile), "frame \(before.index)")
            XCTAssertEqual(after.duration, before.duration)
            if after.image != before.image { changed += 1 }
        }
        XCTAssertEqual(changed, plain.count, "a Display P3 profile changes every frame's colours")
    }
}
