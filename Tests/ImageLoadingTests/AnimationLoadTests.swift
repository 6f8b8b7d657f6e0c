import Foundation
@testable import ImageLoading
import IncrementalImage
import TestSupport
import XCTest

/// Animated images through the loader: `.frame` events as each frame's data arrives.
final class AnimationLoadTests: LoaderTestCase {
    private struct GIFReference: Decodable {
        struct Frame: Decodable {
            var duration_cs: Int
            var region: [Int]
            var sha256: String
        }
        var width: Int
        var height: Int
        var frames: [Frame]
    }

    private func reference(_ name: String) throws -> GIFReference {
        let all = try JSONDecoder().decode([String: GIFReference].self,
                                           from: Data(contentsOf: Fixtures.url("gif/references.json")))
        return try XCTUnwrap(all[name])
    }

    func testFramesArriveAsTheirBytesDoAndEqualTheReferences() async throws {
        let name = "disposal_all.gif"
        let expected = try reference(name)
        let (frames, final) = try await loadFramesHalfAtATime(name, bytes: try Fixtures.bytes("gif/" + name), loader: self)
        XCTAssertEqual(frames.map(\.index), Array(0..<expected.frames.count))
        XCTAssertEqual(frames.map { Digest.sha256($0.image.pixels) }, expected.frames.map(\.sha256))
        XCTAssertEqual(frames.map { Int(($0.duration * 100).rounded()) }, expected.frames.map(\.duration_cs))
        XCTAssertEqual(frames.map { [$0.region.x, $0.region.y, $0.region.width, $0.region.height] }, expected.frames.map(\.region))
        XCTAssertEqual(final.map { [$0.image.width, $0.image.height] }, [expected.width, expected.height])
    }

    func testWithoutAskingNoFramesAreDecodedOrSent() async throws {
        let name = "disposal_all.gif"
        server.setRoute("/" + name, .init(body: try Fixtures.bytes("gif/" + name)))
        let record = try await load(ImageRequest(url: server.url("/" + name)), with: makeLoader(disk: false))
        XCTAssertTrue(record.frames.isEmpty)
        XCTAssertEqual(record.response.map { Digest.sha256($0.image.converted(to: .rgba8).pixels) },
                       try reference(name).frames.first?.sha256, "the default image is the first frame")
    }

    func testAnimatedWebPFramesComeThroughTheLoaderToo() async throws {
        struct WebPReference: Decodable {
            struct Frame: Decodable { var duration_ms: Int; var sha256: String }
            var frames: [Frame]
        }
        let name = "anim_alpha_lossless.webp"
        let all = try JSONDecoder().decode([String: WebPReference].self,
                                           from: Data(contentsOf: Fixtures.url("webp/animation_references.json")))
        let expected = try XCTUnwrap(all[name])
        server.setRoute("/" + name, .init(body: try Fixtures.bytes("webp/files/" + name), chunkSize: 97))
        var request = ImageRequest(url: server.url("/" + name))
        request.deliversFrames = true
        let record = try await load(request, with: makeLoader(disk: false))
        XCTAssertEqual(record.frames.map { Digest.sha256($0.image.pixels) }, expected.frames.map(\.sha256))
        XCTAssertEqual(record.frames.map { Int(($0.duration * 1000).rounded()) }, expected.frames.map(\.duration_ms))
        XCTAssertNotNil(record.response)
    }
}

/// APNG through the loader: frames as their data arrives, equal to the APNG references.
final class APNGLoadTests: LoaderTestCase {
    private struct References: Decodable {
        struct Animation: Decodable {
            struct Frame: Decodable { var sha256: String; var delay: [Int] }
            var frames: [Frame]
            var default_image_sha256: String
        }
        struct Broken: Decodable {
            var frames_before_error: [String]?
            var default_image_sha256: String?
        }
        var animations: [String: Animation]
        var broken: [String: Broken]
    }

    func testAPNGFramesComeThroughTheLoaderAsTheyArrive() async throws {
        let name = "dispose_blend_rgba8.png"
        let all = try JSONDecoder().decode(References.self, from: Data(contentsOf: Fixtures.url("apng/references.json")))
        let expected = try XCTUnwrap(all.animations[name])
        let (frames, final) = try await loadFramesHalfAtATime(name, bytes: try Fixtures.bytes("apng/" + name), loader: self)
        XCTAssertEqual(frames.map(\.index), Array(0..<expected.frames.count))
        XCTAssertEqual(frames.map { Digest.sha256($0.image.pixels) }, expected.frames.map(\.sha256))
        XCTAssertEqual(frames.map(\.duration), expected.frames.map { Double($0.delay[0]) / Double($0.delay[1]) })
        XCTAssertEqual(final.map { Digest.sha256($0.image.converted(to: .rgba8).pixels) }, expected.default_image_sha256)
    }

    func testABrokenAnimationEndsItsFramesButTheLoadDeliversTheDefaultImage() async throws {
        // The APNG spec: a viewer that meets an error in the animation shows the default image.
        let all = try JSONDecoder().decode(References.self, from: Data(contentsOf: Fixtures.url("apng/references.json")))
        for name in ["bad_sequence_fdat.png", "frame_outside_canvas.png", "missing_fdat_last.png"] {
            let expected = try XCTUnwrap(all.broken[name])
            server.setRoute("/" + name, .init(body: try Fixtures.bytes("apng/" + name), chunkSize: 61))
            var request = ImageRequest(url: server.url("/" + name))
            request.deliversFrames = true
            request.decodingOptions.colorSpace = .original
            let record = try await load(request, with: makeLoader(disk: false))
            XCTAssertEqual(record.frames.map { Digest.sha256($0.image.pixels) }, try XCTUnwrap(expected.frames_before_error), name)
            XCTAssertEqual(record.response.map { Digest.sha256($0.image.converted(to: .rgba8).pixels) },
                           try XCTUnwrap(expected.default_image_sha256), name)
        }
    }
}

/// Loads `bytes` through a scripted network with `deliversFrames`, sending half the file, waiting
/// for the first frame (which must come while the download is under way), then the rest.
/// Returns every frame and the final response.
func loadFramesHalfAtATime(_ name: String, bytes: [UInt8], loader test: LoaderTestCase,
                           file: StaticString = #filePath, line: UInt = #line) async throws -> ([AnimationFrame], ImageResponse?) {
    let network = ScriptedDataLoader()
    let loader = test.makeLoader(disk: false) { $0.dataLoader = network }
    var request = ImageRequest(url: try XCTUnwrap(URL(string: "http://images.test/" + name)))
    request.deliversFrames = true
    let task = loader.task(for: request)
    let transfer = try await network.transfer(0)
    transfer.respond()
    // Half the file first: the frames wholly inside it come before the rest is sent.
    transfer.send(bytes.prefix(bytes.count / 2))
    var frames: [AnimationFrame] = []
    var iterator = task.events.makeAsyncIterator()
    while frames.isEmpty, let event = try await iterator.next() {
        if case .frame(let frame) = event { frames.append(frame) }
    }
    XCTAssertEqual(frames.first?.index, 0, "the first frame came while the download was under way", file: file, line: line)
    transfer.send(bytes.dropFirst(bytes.count / 2))
    transfer.finish()
    var final: ImageResponse?
    while let event = try await iterator.next() {
        switch event {
        case .frame(let frame): frames.append(frame)
        case .completed(let response): final = response
        default: break
        }
    }
    return (frames, final)
}
