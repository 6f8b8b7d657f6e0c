import XCTest
import Foundation
import ImageCore
import JPEGCodec
import TestSupport

/// Progressive files at every scale match `djpeg -scale 1/N`
/// (`TestImages/jpeg-extra/progressive_references.json`, made by `make_progressive_references.py`).
final class JPEGProgressiveScalingTests: XCTestCase {
    private struct References: Decodable {
        struct Scaled: Decodable {
            var path: String
            var scale: Int
            var width: Int
            var height: Int
            var sha256: String
        }
        var scaled: [Scaled]
    }

    func testEveryProgressiveFileMatchesDjpegAtEveryScale() throws {
        let url = Fixtures.url("jpeg-extra/progressive_references.json")
        let references = try JSONDecoder().decode(References.self, from: Data(contentsOf: url)).scaled
        XCTAssertEqual(references.count, 23 * 4)
        var failures: [String] = []
        for reference in references {
            guard let scale = ScaleFactor(rawValue: reference.scale) else { XCTFail("bad scale"); continue }
            let bytes = try Fixtures.bytes(reference.path)
            do {
                let image = try JPEGCorpus.decode(Chunking.fixed(bytes, size: 1000), options: DecodingOptions(scale: scale))
                if image.width != reference.width || image.height != reference.height {
                    failures.append("\(reference.path) 1/\(reference.scale): size \(image.width)×\(image.height)")
                } else if Digest.sha256(image.pixels) != reference.sha256 {
                    failures.append("\(reference.path) 1/\(reference.scale): pixels differ")
                }
            } catch {
                failures.append("\(reference.path) 1/\(reference.scale): \(error)")
            }
        }
        XCTAssertEqual(failures, [])
    }
}
