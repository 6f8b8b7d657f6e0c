import Foundation
@testable import imagefeed
import ImageLoading
import IncrementalImage
import LoopbackHTTPServer
import PNGCodec
import TestSupport
import XCTest

/// `imagefeed fetch --header`, `--cache-dir` (the `source:` and `http:` lines), frames written
/// off the event path, and the help texts.
final class FetchCachingAndHeadersTests: ImagefeedTestCase {
    private var server: LoopbackHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try LoopbackHTTPServer()
    }

    override func tearDownWithError() throws {
        server.stop()
        try super.tearDownWithError()
    }

    private func png(seed: Int = 0) -> [UInt8] {
        let pixels = (0..<(48 * 32 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ seed &* 13) }
        return PNGEncoder().encode(Image(width: 48, height: 32, format: .rgb8, pixels: pixels))
    }

    private func fetch(_ route: String, _ extra: [String]) -> CommandResult? {
        CommandRunner.run(["fetch", server.url(route).absoluteString, "-o", path("out.png"), "--timeout", "10"] + extra)
    }

    func testHeaderFlagsReachTheServer() throws {
        server.setRoute("/private.png", {
            var route = HTTPRoute(body: png(), contentType: "image/png")
            route.requiredHeaders = ["Authorization": "Bearer s3cret"]
            return route
        }())
        let result = try XCTUnwrap(fetch("/private.png", ["--header", "Authorization: Bearer s3cret", "-H", "X-Trace:  7 "]))
        XCTAssertEqual(result.status, 0, "\(result.errors)")
        let seen = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(seen.headers["authorization"], "Bearer s3cret")
        XCTAssertEqual(seen.headers["x-trace"], "7")
        XCTAssertEqual(result.output.suffix(3).first, "source: network")
        XCTAssertTrue(result.output.contains("http: 200"))
    }

    func testAMalformedHeaderIsAUsageError() throws {
        for bad in ["NoColon", ": empty-name", "Bad Name: x"] {
            let result = try XCTUnwrap(CommandRunner.run(["fetch", "http://127.0.0.1:9/x.png", "-o", path("o.png"), "--header", bad]))
            XCTAssertEqual(result.status, 2, bad)
            XCTAssertTrue(result.errors.first?.contains("--header") ?? false, bad)
        }
    }

    func testWithoutHeadersTheProtectedImageFailsWithTheStatus() throws {
        server.setRoute("/private.png", {
            var route = HTTPRoute(body: png(), contentType: "image/png")
            route.requiredHeaders = ["Authorization": "Bearer s3cret"]
            return route
        }())
        let result = try XCTUnwrap(fetch("/private.png", []))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.errors.count, 1)
        XCTAssertTrue(result.errors[0].hasSuffix("the server answered HTTP 401"), result.errors[0])
    }

    func testACacheDirServesAFreshImageFromDiskOnTheNextRun() throws {
        let cache = path("cache")
        server.setRoute("/fresh.png", {
            var route = HTTPRoute(body: png(seed: 1), contentType: "image/png")
            route.headers = [("Cache-Control", "max-age=600")]
            return route
        }())
        let first = try XCTUnwrap(fetch("/fresh.png", ["--cache-dir", cache]))
        XCTAssertEqual(first.status, 0, "\(first.errors)")
        XCTAssertEqual(Array(first.output.suffix(3).prefix(2)), ["source: network", "http: 200"])
        let second = try XCTUnwrap(fetch("/fresh.png", ["--cache-dir", cache]))
        XCTAssertEqual(second.status, 0, "\(second.errors)")
        XCTAssertEqual(Array(second.output.suffix(3).prefix(2)), ["source: disk", "http: none"])
        XCTAssertEqual(server.requestCount(path: "/fresh.png"), 1, "nothing requested on the second run")
        XCTAssertEqual(try decodePNG(path("out.png")), try PNGDecoder().decode(png(seed: 1)))
    }

    func testACacheDirRevalidatesAStaleImage() throws {
        let cache = path("cache")
        server.setRoute("/stale.png", {
            var route = HTTPRoute(body: png(seed: 2), contentType: "image/png", etag: "\"v1\"")
            route.headers = [("Cache-Control", "no-cache")]
            return route
        }())
        XCTAssertEqual(try XCTUnwrap(fetch("/stale.png", ["--cache-dir", cache])).status, 0)
        let second = try XCTUnwrap(fetch("/stale.png", ["--cache-dir", cache]))
        XCTAssertEqual(Array(second.output.suffix(3).prefix(2)), ["source: revalidated", "http: 304"])
        XCTAssertEqual(server.requests.last?.headers["if-none-match"], "\"v1\"")
    }

    func testEveryPreviewBecomesAFrameOnASlowLink() throws {
        // A 10-scan progressive JPEG trickling in (256 bytes every 40 ms): frames are encoded
        // off the event path, so none of the previews is lost behind a frame being written.
        let bytes = try Fixtures.bytes("corpus/jpeg/generated/testorig_progressive.jpg")
        let frames = path("frames")
        server.setRoute("/slow.jpg", HTTPRoute(body: bytes, contentType: "image/jpeg", chunkSize: 256, pauseBetweenChunks: 0.04))
        let result = try XCTUnwrap(fetch("/slow.jpg", ["--frames", frames]))
        XCTAssertEqual(result.status, 0, "\(result.errors)")
        let previewLines = result.output.filter { $0.hasPrefix("preview ") }
        let written = try FileManager.default.contentsOfDirectory(atPath: frames).filter { $0.hasSuffix(".png") }
        XCTAssertGreaterThanOrEqual(previewLines.count, 5)
        XCTAssertEqual(written.count, previewLines.count, "one frame per preview")
        for name in written { XCTAssertNoThrow(try decodePNG(frames + "/" + name), name) }
        // Writing frames does not cost most previews: at least half as many come as without
        // --frames. (Not "about as many": the encoder thread shares the cores with the decoder,
        // and on a 2-core machine loaded by other builds 9 against 16 was seen.)
        let plain = try XCTUnwrap(fetch("/slow.jpg", []))
        let plainPreviews = plain.output.filter { $0.hasPrefix("preview ") }.count
        XCTAssertGreaterThanOrEqual(previewLines.count * 2, plainPreviews, "\(previewLines.count) with frames, \(plainPreviews) without")
    }

    func testHelpListsEveryOptionOfEveryCommand() throws {
        let expected = ["decode": ["--chunk", "--frames", "--format", "--scale", "--partial", "-o"],
                        "fetch": ["--header", "--cache-dir", "--thumbnail", "--frames", "--timeout", "-o"],
                        "demo": ["--out"]]
        for (command, options) in expected {
            for arguments in [[command, "--help"], ["help", command], [command, "-h"]] {
                let result = try XCTUnwrap(CommandRunner.run(arguments))
                XCTAssertEqual(result.status, 0, "\(arguments)")
                let text = result.output.joined(separator: "\n")
                for option in options { XCTAssertTrue(text.contains(option), "\(arguments) lacks \(option)") }
            }
        }
        let overview = try XCTUnwrap(CommandRunner.run(["--help"]))
        XCTAssertEqual(overview.status, 0)
        XCTAssertFalse(overview.output.joined().contains("once its decoder exists"))
        for options in expected.values { for option in options { XCTAssertTrue(overview.output.joined().contains(option), option) } }
        XCTAssertEqual(try XCTUnwrap(CommandRunner.run(["help", "nonsense"])).status, 2)
    }
}
