import Foundation
@testable import ImageLoading
import IncrementalImage
import LoopbackHTTPServer
import TestSupport
import XCTest

/// Loaded photos come upright by default (``ImageRequest/appliesOrientation``).
final class OrientationLoadTests: LoaderTestCase {
    func testEveryExifOrientationIsAppliedByDefaultAndCanBeTurnedOff() async throws {
        let entries = try CorpusManifest.load().files.filter { $0.exif_orientation != nil && $0.isJPEG }
        XCTAssertGreaterThanOrEqual(entries.count, 8)
        let loader = makeLoader(disk: false)
        for entry in entries {
            let path = "/" + entry.path.replacingOccurrences(of: "/", with: "_")
            server.setRoute(path, HTTPRoute(body: try Fixtures.bytes("corpus/" + entry.path)))
            let upright = try await load(ImageRequest(url: server.url(path)), with: loader)
            let image = try XCTUnwrap(upright.response?.image, entry.path)
            let reference = try XCTUnwrap(entry.oriented_reference, entry.path)
            XCTAssertEqual([image.width, image.height], [reference.width, reference.height], entry.path)
            XCTAssertEqual(Digest.sha256(image.pixels), reference.sha256, entry.path)
            let stored = try await load(ImageRequest(url: server.url(path), appliesOrientation: false), with: loader)
            XCTAssertEqual(stored.response.map { Digest.sha256($0.image.pixels) }, entry.reference?.sha256, entry.path)
            XCTAssertEqual(stored.response?.image.orientation.rawValue, UInt8(entry.exif_orientation ?? 0), entry.path)
        }
    }
}
