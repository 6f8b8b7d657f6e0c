import Foundation
import ImageCore
import TestSupport
import WebPCodec
import XCTest

/// The WebP fixtures (`TestImages/webp/files`) and their dwebp references (`references.json`,
/// made by `TestImages/webp/make_fixtures.py`).
enum WebPFixtures {
    struct Reference: Decodable {
        var width: Int
        var height: Int
        var format: String
        var sha256: String
    }

    static let references: [String: Reference] = {
        guard let data = try? Data(contentsOf: Fixtures.url("webp/references.json")),
              let decoded = try? JSONDecoder().decode([String: Reference].self, from: data) else { return [:] }
        return decoded
    }()

    /// Fixture names (sorted) whose name starts with one of `prefixes`.
    static func names(_ prefixes: String...) -> [String] {
        references.keys.filter { name in prefixes.contains { name.hasPrefix($0) } }.sorted()
    }

    static func bytes(_ name: String) throws -> [UInt8] { try Fixtures.bytes("webp/files/" + name) }

    /// Decodes `pieces` in order and finishes.
    static func decode(_ pieces: [ArraySlice<UInt8>], options: DecodingOptions = DecodingOptions()) throws -> Image {
        let decoder = WebPDecoder(options: options)
        for piece in pieces { try decoder.feed(piece) }
        return try decoder.finish()
    }

    static func decode(_ bytes: [UInt8]) throws -> Image { try decode([bytes[...]]) }

    /// The error kind `body` throws, or nil.
    static func errorKind(_ body: () throws -> Void) -> ImageDecodingError.Kind? {
        do {
            try body()
            return nil
        } catch {
            return (error as? ImageDecodingError)?.kind
        }
    }

    /// Asserts `image` matches the reference of `name`.
    static func assertMatches(_ image: Image, _ name: String, _ context: String = "", file: StaticString = #filePath, line: UInt = #line) {
        guard let reference = references[name] else { return XCTFail("no reference for \(name)", file: file, line: line) }
        XCTAssertEqual(image.width, reference.width, "\(name) \(context)", file: file, line: line)
        XCTAssertEqual(image.height, reference.height, "\(name) \(context)", file: file, line: line)
        XCTAssertEqual(image.format.rawValue, reference.format, "\(name) \(context)", file: file, line: line)
        XCTAssertEqual(Digest.sha256(image.pixels), reference.sha256, "\(name) \(context): pixels differ from dwebp", file: file, line: line)
    }
}
