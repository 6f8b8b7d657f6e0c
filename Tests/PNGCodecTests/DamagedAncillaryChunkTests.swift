import Deflate
import Foundation
import ImageCore
@testable import PNGCodec
import TestSupport
import XCTest

/// Damage in ancillary chunks is a warning and the chunk is dropped, as libpng does by default;
/// in critical chunks it stays an error. References: TestImages/png-damaged/make_fixtures.py
/// (libpng through imagecodecs).
final class DamagedAncillaryChunkTests: XCTestCase {
    private struct Reference: Decodable {
        var libpng: String
        var rgba8_sha256: String?
        /// Pixels libpng made fully transparent (tRNS keys wider than the bit depth match on their low bits).
        var transparent_pixels: Int?
    }

    private func references() throws -> [String: Reference] {
        try JSONDecoder().decode([String: Reference].self, from: Data(contentsOf: Fixtures.url("png-damaged/references.json")))
    }

    /// Offset of the CRC of the first chunk of `type` whose CRC does not match.
    private func badCRCOffset(_ bytes: [UInt8], type: String) -> Int? {
        var at = 8
        while at + 12 <= bytes.count {
            let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            let name = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            let crcAt = at + 8 + length
            guard crcAt + 4 <= bytes.count else { return nil }
            let stored = UInt32(bytes[crcAt]) << 24 | UInt32(bytes[crcAt + 1]) << 16 | UInt32(bytes[crcAt + 2]) << 8 | UInt32(bytes[crcAt + 3])
            if name == type, CRC32.checksum(Array(bytes[(at + 4)..<crcAt])) != stored { return crcAt }
            at = crcAt + 4
        }
        return nil
    }

    func testEveryFileDecodesOrFailsAsLibpngDoes() throws {
        let all = try references()
        XCTAssertEqual(all.count, 17)
        for (name, reference) in all.sorted(by: { $0.key < $1.key }) {
            let bytes = try Fixtures.bytes("png-damaged/" + name)
            for chunkSize in [bytes.count, 7, 1] {
                let decoder = PNGDecoder(options: DecodingOptions(preferredFormat: .rgba8))
                var index = 0
                do {
                    while index < bytes.count {
                        try decoder.feed(bytes[index..<min(index + chunkSize, bytes.count)])
                        index += chunkSize
                    }
                    let image = try decoder.finish()
                    XCTAssertEqual(reference.libpng, "decoded", "\(name): libpng refuses it")
                    XCTAssertEqual(Digest.sha256(image.pixels), reference.rgba8_sha256, name)
                    let transparent = stride(from: 3, to: image.pixels.count, by: 4).filter { image.pixels[$0] == 0 }.count
                    XCTAssertEqual(transparent, reference.transparent_pixels, name)
                } catch let error as ImageDecodingError {
                    XCTAssertEqual(reference.libpng, "error", "\(name): libpng decodes it; we threw \(error)")
                    XCTAssertEqual(error.kind, .checksumMismatch, name)
                    let type = String(name.prefix(4)).uppercased()
                    XCTAssertEqual(error.offset, badCRCOffset(bytes, type: type), name)
                }
            }
        }
    }

    func testABadAncillaryCRCIsAWarningAtTheCRCAndTheChunkIsDropped() throws {
        for (name, type) in [("text_bad_crc.png", "tEXt"), ("iccp_bad_crc.png", "iCCP"), ("itxt_bad_crc.png", "iTXt"),
                             ("clli_bad_crc.png", "cLLI"), ("private_bad_crc.png", "prVt"), ("ztxt_bad_crc.png", "zTXt")] {
            let bytes = try Fixtures.bytes("png-damaged/" + name)
            let decoder = PNGDecoder()
            _ = try decoder.decode(bytes)
            let crcWarnings = decoder.warnings.filter { $0.kind == .checksumMismatch }
            XCTAssertEqual(crcWarnings.count, 1, name)
            XCTAssertEqual(crcWarnings.first?.offset, badCRCOffset(bytes, type: type), name)
        }
        let text = PNGDecoder()
        _ = try text.decode(try Fixtures.bytes("png-damaged/text_bad_crc.png"))
        XCTAssertTrue(text.metadata.textEntries.isEmpty, "the damaged tEXt is dropped")
        let icc = PNGDecoder()
        _ = try icc.decode(try Fixtures.bytes("png-damaged/iccp_bad_crc.png"))
        XCTAssertNil(icc.metadata.iccProfile, "the damaged iCCP is dropped")
        let ztxt = PNGDecoder()
        _ = try ztxt.decode(try Fixtures.bytes("png-damaged/ztxt_bad_crc.png"))
        XCTAssertEqual(ztxt.metadata.textEntries.map(\.keyword), ["Comment"], "the intact zTXt stays, the damaged one goes")
    }

    func testDamageInsideAncillaryChunksIsAWarning() throws {
        for name in ["ztxt_bad_compression.png", "itxt_bad_compression.png", "iccp_bad_compression.png"] {
            let decoder = PNGDecoder()
            _ = try decoder.decode(try Fixtures.bytes("png-damaged/" + name))
            XCTAssertEqual(decoder.warnings.count, 1, name)
            XCTAssertEqual(decoder.warnings.first?.kind, .invalidData, name)
        }
    }
}
