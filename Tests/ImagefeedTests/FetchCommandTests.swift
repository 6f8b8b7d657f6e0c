import Foundation
@testable import imagefeed
@testable import ImageLoading
import IncrementalImage
import LoopbackHTTPServer
import PNGCodec
import TestSupport
import XCTest

/// `imagefeed fetch` end to end against a loopback server, run in-process.
final class FetchCommandTests: ImagefeedTestCase {
    private var server: LoopbackHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try LoopbackHTTPServer()
    }

    override func tearDownWithError() throws {
        server.stop()
        try super.tearDownWithError()
    }

    /// Serves `bytes` at `route` and fetches it with `extra` arguments into `out.png`.
    private func fetch(_ route: String, _ bytes: [UInt8], _ extra: [String] = [],
                       configure: (inout HTTPRoute) -> Void = { _ in }) -> CommandResult? {
        var served = HTTPRoute(body: bytes, contentType: "image/png")
        configure(&served)
        server.setRoute(route, served)
        return CommandRunner.run(["fetch", server.url(route).absoluteString, "-o", path("out.png"), "--timeout", "10"] + extra)
    }

    func testAdam7PNGOnAThrottledLinkGivesAFrameForEveryPassAndTheExactFinal() throws {
        let bytes = try Fixtures.bytes("corpus/png/pngsuite/basi2c08.png")
        let boundaries = try ScanBoundary.all(in: bytes, decoder: PNGDecoder())
        XCTAssertEqual(Array(boundaries.map(\.scans).prefix(6)), [1, 2, 3, 4, 5, 6], "passes 1–6 end before the file does")
        // Pause at each pass boundary for longer than the preview interval, so the picture of
        // every pass is on screen long enough to be delivered.
        let pause = FetchCommand.previewInterval * 4
        let frames = path("frames")
        let result = try XCTUnwrap(fetch("/adam7.png", bytes, ["--frames", frames]) { route in
            route.chunkSize = 256
            route.pauses = Dictionary(uniqueKeysWithValues: boundaries.map { ($0.offset, pause) })
        })
        XCTAssertEqual(result.status, 0, "\(result.errors)")
        XCTAssertEqual(try decodePNG(path("out.png")), try ImageSource.decode(bytes), "the final is the one-shot decode")

        let names = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
        let written = try names.map { try decodePNG(frames + "/" + $0) }
        XCTAssertEqual(names.first, "frame-0001.png")
        XCTAssertEqual(names.last, FrameRecorder.fileName(number: names.count), "frames are numbered without gaps")
        for boundary in boundaries {
            XCTAssertTrue(written.contains(boundary.image), "no frame shows the picture after pass \(boundary.scans)")
        }
        let previewLines = result.output.filter { $0.hasPrefix("preview ") }
        XCTAssertEqual(previewLines.count, names.count, "one line per preview")
        XCTAssertEqual(previewLines.first, "preview 1: 32x32 -> \(frames)/frame-0001.png")
        XCTAssertEqual(result.output.last { $0.hasPrefix("received ") }, "received \(bytes.count) of \(bytes.count) bytes")
    }

    func testWithoutContentLengthProgressLinesGiveOnlyTheBytesReceived() throws {
        let bytes = try Fixtures.bytes("corpus/png/pngsuite/basn2c08.png")
        let result = try XCTUnwrap(fetch("/plain.png", bytes) { $0.sendsContentLength = false })
        XCTAssertEqual(result.status, 0, "\(result.errors)")
        let progress = result.output.filter { $0.hasPrefix("received ") }
        XCTAssertFalse(progress.isEmpty)
        XCTAssertFalse(progress.contains { $0.contains(" of ") }, "\(progress)")
        XCTAssertEqual(progress.last, "received \(bytes.count) bytes")
        XCTAssertEqual(try decodePNG(path("out.png")), try ImageSource.decode(bytes))
    }

    func testAnHTTPErrorExitsWith1AndNamesTheStatusInOneLine() throws {
        server.setRoute("/missing.png", .failure(404))
        let url = server.url("/missing.png").absoluteString
        let result = try XCTUnwrap(CommandRunner.run(["fetch", url, "-o", path("out.png"), "--timeout", "10"]))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.errors, ["imagefeed: \(url): \(ImageLoadingError.httpStatus(404))"])
        XCTAssertTrue(result.errors[0].contains("404"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.png")))
    }

    func testUndecodableBytesExitWith1AndSaySoInOneLine() throws {
        let result = try XCTUnwrap(fetch("/not-an-image.png", [0x49, 0x49, 0x2A, 0x00] + Array(", not a PNG at all".utf8)))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.errors.count, 1)
        XCTAssertTrue(result.errors[0].contains("could not be decoded"), result.errors[0])
        XCTAssertTrue(result.errors[0].contains("TIFF"), "the decoder's reason is kept: \(result.errors[0])")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.png")))
    }

    func testANetworkErrorExitsWith1() throws {
        let url = server.url("/gone.png").absoluteString
        server.stop()   // nothing listens on the port any more: the connection is refused
        let result = try XCTUnwrap(CommandRunner.run(["fetch", url, "-o", path("out.png"), "--timeout", "10"]))
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.errors.count, 1)
        XCTAssertTrue(result.errors[0].hasPrefix("imagefeed: \(url): network error"), result.errors[0])
    }

    func testThumbnailDeliversTheFittedSizeScaledExactly() throws {
        let bytes = try Fixtures.bytes("corpus/png/extras/rgba16_photo_interlaced.png")
        let full = try ImageSource.decode(bytes)
        let bound = 100
        let result = try XCTUnwrap(fetch("/photo.png", bytes, ["--thumbnail", String(bound)]))
        XCTAssertEqual(result.status, 0, "\(result.errors)")
        let thumbnail = try decodePNG(path("out.png"))
        // The longer side becomes the bound, the other keeps the aspect ratio.
        let longer = max(full.width, full.height), shorter = min(full.width, full.height)
        let expectedShorter = Int((Double(shorter) * Double(bound) / Double(longer)).rounded())
        XCTAssertEqual(max(thumbnail.width, thumbnail.height), bound)
        XCTAssertEqual(min(thumbnail.width, thumbnail.height), expectedShorter)
        XCTAssertEqual(thumbnail.width > thumbnail.height, full.width > full.height)
        XCTAssertEqual(thumbnail, ImageDownscaler.fit(full, maxPixelSize: bound))
    }

    func testFileURLsAndPlainPathsLoadAndPAMOutputIsWritten() throws {
        let fixture = Fixtures.url("corpus/png/pngsuite/basn6a08.png")
        let expected = try ImageSource.decode(contentsOf: fixture)
        for location in [fixture.absoluteString, fixture.path] {
            let result = try XCTUnwrap(CommandRunner.run(["fetch", location, "-o", path("out.pam")]))
            XCTAssertEqual(result.status, 0, "\(location): \(result.errors)")
            let written = try read(path("out.pam"))
            XCTAssertEqual(written, PAMWriter.encode(expected), location)
            XCTAssertEqual(result.output.last, "wrote \(path("out.pam")): 32x32 rgba8, 0 previews")
        }
    }

    func testBadArgumentsExitWith2() throws {
        let url = server.url("/x.png").absoluteString
        let cases: [[String]] = [
            ["fetch"],
            ["fetch", url],
            ["fetch", url, "-o", "out.bmp"],
            ["fetch", url, "-o", "out.png", "--thumbnail", "0"],
            ["fetch", url, "-o", "out.png", "--thumbnail"],
            ["fetch", url, "-o", "out.png", "--timeout", "soon"],
            ["fetch", "ftp://example.com/x.png", "-o", "out.png"],
            ["fetch", url, url, "-o", "out.png"],
            ["fetch", url, "-o", "out.png", "--chunk", "7"],
        ]
        for arguments in cases {
            let result = try XCTUnwrap(CommandRunner.run(arguments))
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.errors.first?.hasPrefix("imagefeed: ") ?? false, "\(arguments): \(result.errors)")
        }
        XCTAssertEqual(server.requests.count, 0, "nothing is fetched when the arguments are wrong")
    }
}
