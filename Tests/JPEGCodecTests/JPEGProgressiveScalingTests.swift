import XCTest
import Foundation
import ImageCore
import JPEGCodec
import TestSupport

/// Progressive files at every scale match `djpeg -scale 1/N`
/// (`TestImages/jpeg-extra/progressive_references.json`, made by `make_progressive_references.py`;
/// paths there are relative to TestImages/).
final class JPEGProgressiveScalingTests: XCTestCase {
    private struct References: Decodable {
        var scaled: [ExtraJPEGReferences.Scaled]
    }

    func testEveryProgressiveFileMatchesDjpegAtEveryScale() throws {
        let url = Fixtures.url("jpeg-extra/progressive_references.json")
        let references = try JSONDecoder().decode(References.self, from: Data(contentsOf: url)).scaled
        XCTAssertEqual(references.count, 23 * 4)
        XCTAssertEqual(try JPEGReferenceChecks.scaledMismatches(references, bytes: Fixtures.bytes), [])
    }
}
