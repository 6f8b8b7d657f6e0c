import Foundation
import ImageCore
@testable import JPEGCodec
import TestSupport
import XCTest

/// A marker segment is parsed only once all of it is buffered, so fed in small pieces its bytes
/// wait in the decoder's held-bytes buffer (up to 4 KiB at a time) without running the parser;
/// inside a segment a 0xFF is data, not a marker. The file: the 10-block baseline photo with a
/// 30 KB ICC profile (APP2), a 65 533-byte comment and a 20 000-byte APP13, all full of 0xFF
/// bytes, put after SOI: the picture is the photo's (djpeg's reference), the profile the one put in.
final class JPEGSegmentHeldBytesTests: XCTestCase {
    private struct Reference: Decodable {
        let width: Int
        let height: Int
        let sha256: String
    }

    /// A segment: 0xFF, `marker`, the length (payload + 2), the payload.
    private func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// Payload bytes with 0xFF runs and 0xFF 0x00 / 0xFF 0xD9 pairs, which are data here.
    private func payload(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { index in
            switch index % 97 {
            case 0, 1, 2: return 0xFF
            case 3: return 0xD9
            default: return UInt8.random(in: 0...255, using: &random)
            }
        }
    }

    private func file() throws -> (bytes: [UInt8], profile: [UInt8], segments: [Range<Int>]) {
        let photo = try Fixtures.bytes("jpeg-extra/bytefed/harvesters_10block_baseline.jpg")
        let profile = try Fixtures.bytes("color/profiles/WideRGB-v4-mAB.icc")
        let inserted = [
            segment(0xE2, Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile),
            segment(0xFE, payload(65_533, seed: 1)),
            segment(0xED, payload(20_000, seed: 2)),
        ]
        var segments: [Range<Int>] = []
        var offset = 2
        for bytes in inserted {
            segments.append(offset..<(offset + bytes.count))
            offset += bytes.count
        }
        return (Array(photo[0..<2]) + inserted.flatMap { $0 } + photo[2...], profile, segments)
    }

    func testLongSegmentsFedAByteAtATimeRunTheParserOncePer4KiB() throws {
        let references = try JSONDecoder().decode([String: Reference].self,
                                                  from: Data(contentsOf: Fixtures.url("jpeg-extra/bytefed/references.json")).droppingMadeWith())
        let reference = try XCTUnwrap(references["harvesters_10block_baseline.jpg"])
        let (bytes, profile, segments) = try file()
        let whole = JPEGDecoder()
        try whole.feed(bytes[...])
        let wholeImage = try whole.finish()
        let segmentBytes = segments.map(\.count).reduce(0, +)

        let decoder = JPEGDecoder()
        let ends = Set(segments.map(\.upperBound))
        var runsInSegments = 0
        for (index, byte) in bytes.enumerated() {
            let before = decoder.parserRuns
            let status = try decoder.feed([byte][...])
            if segments.contains(where: { $0.contains(index) }) { runsInSegments += decoder.parserRuns - before }
            if ends.contains(index + 1) {
                // The byte that ends a segment gets it parsed, as a fresh decoder fed the prefix does.
                let fresh = JPEGDecoder()
                XCTAssertEqual(status, try fresh.feed(bytes[...index]), "after \(index + 1) bytes")
                XCTAssertEqual(decoder.inputBytesExamined, fresh.inputBytesExamined, "after \(index + 1) bytes")
            }
        }
        let image = try decoder.finish()
        XCTAssertEqual([image.width, image.height], [reference.width, reference.height])
        XCTAssertEqual(Digest.sha256(image.pixels), reference.sha256)
        XCTAssertEqual(image.iccProfile, profile)
        XCTAssertEqual(image, wholeImage)
        // (The scan's held bytes may be looked at once more than fed whole: a bound, as elsewhere.)
        XCTAssertGreaterThanOrEqual(decoder.inputBytesExamined, bytes.count - 2)
        XCTAssertLessThanOrEqual(decoder.inputBytesExamined, 2 * bytes.count)
        // Once per 4 KiB of each segment, plus its marker and length bytes.
        XCTAssertLessThanOrEqual(runsInSegments, segmentBytes / 4096 + 4 * segments.count)
        XCTAssertGreaterThanOrEqual(runsInSegments, segmentBytes / 4096)
    }

    func testFilesCutInsideASegmentFailAsWhenFedWhole() throws {
        let (bytes, _, segments) = try file()
        for segment in segments {
            for cut in [segment.lowerBound + 1, segment.lowerBound + 3, segment.lowerBound + 4_100, segment.upperBound - 1] {
                let prefix = bytes[..<cut]
                let whole = JPEGDecoder()
                try whole.feed(prefix)
                let byByte = JPEGDecoder()
                for index in prefix.indices { try byByte.feed(prefix[index...index]) }
                for decoder in [whole, byByte] {
                    XCTAssertThrowsError(try decoder.finish(), "cut at \(cut)") { error in
                        XCTAssertEqual((error as? ImageDecodingError)?.kind, .truncated, "cut at \(cut)")
                        XCTAssertEqual((error as? ImageDecodingError)?.offset, cut, "cut at \(cut)")
                    }
                }
                XCTAssertEqual(byByte.inputBytesExamined, whole.inputBytesExamined, "cut at \(cut)")
            }
        }
    }
}

private extension Data {
    /// The references file without its "made_with" entry (a string, not a reference).
    func droppingMadeWith() throws -> Data {
        guard var object = try JSONSerialization.jsonObject(with: self) as? [String: Any] else { return self }
        object["made_with"] = nil
        return try JSONSerialization.data(withJSONObject: object)
    }
}
