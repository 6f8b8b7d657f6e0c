import Foundation
@testable import ImageLoading
import IncrementalImage
import LoopbackHTTPServer
import TestSupport
import XCTest

/// A download over a slow link: progress, previews, the exact final image, with every framing.
final class StreamingLoadTests: LoaderTestCase {
    /// Leading rows of `preview` equal to the final image's rows.
    private func matchingTopRows(_ preview: Image, _ final: Image) -> Int {
        var rows = 0
        while rows < final.height,
              preview.pixels[(rows * final.bytesPerRow)..<((rows + 1) * final.bytesPerRow)]
                == final.pixels[(rows * final.bytesPerRow)..<((rows + 1) * final.bytesPerRow)] { rows += 1 }
        return rows
    }

    private func checkSlowLoad(configure: @escaping (inout HTTPRoute) -> Void, expectsLength: Bool) async throws {
        let bytes = serveFake("/slow.tst", width: 100, height: 60, seed: 1) { route in
            route.chunkSize = 500
            route.pauseBetweenChunks = 0.02
            configure(&route)
        }
        let loader = makeLoader(previewInterval: 0.03)
        let record = try await load(ImageRequest(url: server.url("/slow.tst")), with: loader)
        XCTAssertNil(record.error)
        let final = FakeImageFile.image(width: 100, height: 60, seed: 1)
        XCTAssertEqual(record.response?.image, final)
        XCTAssertEqual(record.response?.source, .network)
        XCTAssertEqual(record.order.last, "completed")
        XCTAssertGreaterThanOrEqual(record.previews.count, 3, "13 chunks over ~260 ms with a 30 ms preview interval")
        // Sequential previews: top rows final, growing; the rest blank.
        let rows = record.previews.map { matchingTopRows($0, final) }
        XCTAssertEqual(rows, rows.sorted())
        XCTAssertLessThan(rows.last ?? 60, 60)
        XCTAssertEqual(record.progress.last?.received, bytes.count)
        XCTAssertEqual(record.progress.map(\.received), record.progress.map(\.received).sorted())
        XCTAssertEqual(record.progress.last?.expected, expectsLength ? bytes.count : nil)
        XCTAssertEqual(server.requestCount(path: "/slow.tst"), 1)
    }

    func testSlowDownloadGivesTopDownPreviewsAndTheExactImage() async throws {
        try await checkSlowLoad(configure: { _ in }, expectsLength: true)
    }

    func testDownloadWithoutContentLengthWorks() async throws {
        try await checkSlowLoad(configure: { $0.sendsContentLength = false }, expectsLength: false)
    }

    func testChunkedTransferEncodingWorks() async throws {
        try await checkSlowLoad(configure: { $0.chunkedEncoding = true }, expectsLength: false)
    }

    func testPreviewsCanBeTurnedOff() async throws {
        serveFake("/quiet.tst", width: 100, height: 60) { $0.chunkSize = 500; $0.pauseBetweenChunks = 0.005 }
        let record = try await load(ImageRequest(url: server.url("/quiet.tst"), deliversPreviews: false), with: makeLoader())
        XCTAssertEqual(record.previews.count, 0)
        XCTAssertEqual(record.response?.image, FakeImageFile.image(width: 100, height: 60))
    }

    func testPreviewsAreThrottledToTheInterval() async throws {
        // 60 rows arriving over ~300 ms; with a 5 s interval only the first change can be shown.
        serveFake("/throttled.tst", width: 100, height: 60) { $0.chunkSize = 200; $0.pauseBetweenChunks = 0.01 }
        let record = try await load(ImageRequest(url: server.url("/throttled.tst")), with: makeLoader(previewInterval: 5))
        XCTAssertEqual(record.previews.count, 1)
        XCTAssertNotNil(record.response)
    }

    func testImageForRequestReturnsTheFinalImage() async throws {
        serveFake("/a.tst", seed: 4)
        let loader = makeLoader()
        let url = server.url("/a.tst")
        let response = try await withTimeout { try await loader.image(for: url) }
        XCTAssertEqual(response.image, FakeImageFile.image(width: 64, height: 32, seed: 4))
        XCTAssertEqual(response.url, url)
    }

    func testRedirectIsFollowed() async throws {
        serveFake("/target.tst", seed: 2)
        server.setRoute("/moved.tst", .redirect(to: "/target.tst"))
        let record = try await load(ImageRequest(url: server.url("/moved.tst")), with: makeLoader())
        XCTAssertEqual(record.response?.image, FakeImageFile.image(width: 64, height: 32, seed: 2))
        XCTAssertEqual(server.requests.map(\.path), ["/moved.tst", "/target.tst"])
    }

    func testFileURLLoadsWithoutTheNetwork() async throws {
        let url = scratch.appendingPathComponent("local.tst")
        try Data(FakeImageFile.bytes(width: 300, height: 300, seed: 8)).write(to: url)
        let record = try await load(ImageRequest(url: url), with: makeLoader())
        XCTAssertEqual(record.response?.image, FakeImageFile.image(width: 300, height: 300, seed: 8))
        XCTAssertEqual(record.progress.last?.received, 8 + 300 * 300)
        XCTAssertEqual(record.progress.last?.expected, 8 + 300 * 300)
    }
}
