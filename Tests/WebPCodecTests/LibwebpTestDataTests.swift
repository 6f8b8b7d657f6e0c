import Foundation
import ImageCore
import TestSupport
import WebPCodec
import XCTest

/// libwebp's own test files (`TestImages/webp/libwebp-test-data`: the VP8 conformance vectors
/// with 1–8 token partitions, segmentation and sharpness, lossless vectors, alpha) decode to
/// dwebp's pixels, whole and in 7-byte pieces.
final class LibwebpTestDataTests: XCTestCase {
    static let folder = "webp/libwebp-test-data"

    static let references: [String: WebPFixtures.Reference] = {
        guard let data = try? Data(contentsOf: Fixtures.url(folder + "/references.json")),
              let decoded = try? JSONDecoder().decode([String: WebPFixtures.Reference].self, from: data) else { return [:] }
        return decoded
    }()

    func testEveryFileMatchesDwebp() throws {
        XCTAssertGreaterThanOrEqual(Self.references.count, 100)
        for (name, reference) in Self.references.sorted(by: { $0.key < $1.key }) {
            let bytes = try Fixtures.bytes(Self.folder + "/" + name)
            do {
                for pieces in [[bytes[...]], Chunking.fixed(bytes, size: 7)] {
                    let image = try WebPFixtures.decode(pieces)
                    XCTAssertEqual(image.width, reference.width, name)
                    XCTAssertEqual(image.height, reference.height, name)
                    XCTAssertEqual(image.format.rawValue, reference.format, name)
                    XCTAssertEqual(Digest.sha256(image.pixels), reference.sha256, "\(name): pixels differ from dwebp")
                }
            } catch {
                XCTFail("\(name): \(error)")
            }
        }
    }
}
