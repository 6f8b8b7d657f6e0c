import Foundation
import ImageCore
import TestSupport
import XCTest
@testable import imagefeed

/// `imagefeed decode --animation DIR` for APNG, GIF and animated WebP: every composited frame
/// as a PNG equal to the format's references, and frames.txt with the delays.
final class AnimationCommandTests: ImagefeedTestCase {
    private struct Expected {
        var hashes: [String]
        var delaysMilliseconds: [Int]
    }

    private func json(_ path: String) throws -> [String: [String: Any]] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url(path))) as? [String: [String: Any]])
    }

    /// Runs the command and reads back the frames and frames.txt.
    private func run(_ input: String, chunk: Int, extra: [String] = []) throws -> (status: Int32?, hashes: [String], lines: [String]) {
        let directory = path("anim")
        let result = CommandRunner.run(["decode", Fixtures.url(input).path, "--animation", directory, "--chunk", String(chunk)] + extra)
        let lines = (try? String(contentsOfFile: directory + "/frames.txt", encoding: .utf8))?
            .split(separator: "\n").map(String.init) ?? []
        var hashes: [String] = []
        for number in 1...max(lines.count, 1) {
            guard let image = try? decodePNG(directory + "/" + FrameRecorder.fileName(number: number)) else { break }
            hashes.append(Digest.sha256(image.pixels))
        }
        return (result?.status, hashes, lines)
    }

    func testAPNGFramesAndDelays() throws {
        let reference = try XCTUnwrap(try json("apng/references.json")["animations"]?["dispose_blend_rgba16.png"] as? [String: Any])
        let frames = try XCTUnwrap(reference["frames"] as? [[String: Any]])
        let delays = frames.compactMap { $0["delay"] as? [Int] }.map { Int((Double($0[0]) / Double($0[1]) * 1000).rounded()) }
        // 16-bit RGBA frames.
        try assertFrames("apng/dispose_blend_rgba16.png", chunk: 333, hashes: frames.compactMap { $0["sha256"] as? String }, delays: delays)
    }

    func testGIFFramesAndDelays() throws {
        let reference = try XCTUnwrap(try json("gif/references.json")["disposal_all.gif"])
        let frames = try XCTUnwrap(reference["frames"] as? [[String: Any]])
        try assertFrames("gif/disposal_all.gif", chunk: 50, hashes: frames.compactMap { $0["sha256"] as? String },
                         delays: frames.compactMap { $0["duration_cs"] as? Int }.map { $0 * 10 })
    }

    func testAnimatedWebPFramesAndDelays() throws {
        let reference = try XCTUnwrap(try json("webp/animation_references.json")["anim_gif_mixed.webp"])
        let frames = try XCTUnwrap(reference["frames"] as? [[String: Any]])
        try assertFrames("webp/files/anim_gif_mixed.webp", chunk: 4096, hashes: frames.compactMap { $0["sha256"] as? String },
                         delays: frames.compactMap { $0["duration_ms"] as? Int })
    }

    /// Runs the command on `input` and checks the frames' pixels and frames.txt.
    private func assertFrames(_ input: String, chunk: Int, hashes: [String], delays: [Int],
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let written = try run(input, chunk: chunk)
        XCTAssertEqual(written.status, 0, file: file, line: line)
        XCTAssertEqual(written.hashes, hashes, file: file, line: line)
        XCTAssertEqual(written.lines, delays.enumerated().map { "\($0.offset + 1) \($0.element)" }, file: file, line: line)
    }

    func testABrokenAnimationKeepsItsEarlierFramesAndFails() throws {
        let reference = try XCTUnwrap(try json("apng/references.json")["broken"]?["missing_fdat.png"] as? [String: Any])
        let written = try run("apng/missing_fdat.png", chunk: 7, extra: ["-o", path("still.png")])
        XCTAssertEqual(written.status, 1)
        XCTAssertEqual(written.hashes, reference["frames_before_error"] as? [String])
        XCTAssertEqual(written.lines.count, 2)
        // The still image is written all the same.
        XCTAssertEqual(Digest.sha256(try decodePNG(path("still.png")).converted(to: .rgba8).pixels), reference["default_image_sha256"] as? String)
    }

    func testAStillImageIsOneFrame() throws {
        let written = try run("corpus/png/pngsuite/basn6a08.png", chunk: 100)
        XCTAssertEqual(written.status, 0)
        XCTAssertEqual(written.lines, ["1 0"])
        XCTAssertEqual(written.hashes.count, 1)
    }

    func testWithoutOutputOrAnimationTheArgumentsAreRejected() {
        XCTAssertEqual(CommandRunner.run(["decode", Fixtures.url("apng/one_by_one.png").path])?.status, 2)
    }
}
