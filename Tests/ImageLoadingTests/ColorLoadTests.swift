import Foundation
@testable import ImageLoading
import IncrementalImage
import LoopbackHTTPServer
import TestSupport
import XCTest

/// The loader's default decoding options convert to sRGB (what a screen shows); plain
/// `DecodingOptions()` in a request still gives the file's own samples.
final class ColorLoadTests: LoaderTestCase {
    func testLoaderDeliversSRGBByDefault() async throws {
        XCTAssertEqual(ImageRequest(url: URL(fileURLWithPath: "/x.png")).decodingOptions.colorSpace, .sRGB)
        let bytes = try Fixtures.bytes("color/chart-displayp3.png")
        server.setRoute("/p3.png", HTTPRoute(body: bytes, chunkSize: 1024))
        let converted = try ImageSource.decode(bytes, options: DecodingOptions(colorSpace: .sRGB))
        let original = try ImageSource.decode(bytes)
        XCTAssertNotEqual(converted.pixels, original.pixels)
        let record = try await load(ImageRequest(url: server.url("/p3.png")), with: makeLoader(), seconds: 30)
        XCTAssertTrue(record.response?.image == converted, "the default request delivers sRGB")
        let plain = try await load(ImageRequest(url: server.url("/p3.png"), decodingOptions: DecodingOptions()),
                                   with: makeLoader(), seconds: 30)
        XCTAssertTrue(plain.response?.image == original, "DecodingOptions() keeps the file's samples")
    }
}
