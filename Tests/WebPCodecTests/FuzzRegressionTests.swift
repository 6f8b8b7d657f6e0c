import Foundation
import ImageCore
import TestSupport
import WebPCodec
import XCTest

/// Inputs the fuzzer (`Tests/Fuzz/WebPFuzzTarget.swift`) found, in `TestImages/webp/crashers/`:
/// the first 2 bytes choose split points as in the target, the rest is the file. Each must give
/// the same outcome whole and split, and never trap.
final class FuzzRegressionTests: XCTestCase {
    /// The fuzz target's pieces: sizes 1–64 from a linear congruential sequence seeded by 2 bytes.
    static func pieces(_ input: [UInt8]) -> [ArraySlice<UInt8>] {
        let file = Array(input.dropFirst(2))
        var state = UInt32(input[0]) << 8 | UInt32(input[1])
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < file.count {
            state = state &* 1_103_515_245 &+ 12_345
            let length = Int(state >> 16) % 64 + 1
            pieces.append(file[start..<min(start + length, file.count)])
            start += length
        }
        return pieces
    }

    func testEveryFoundInputGivesTheSameOutcomeWholeAndSplit() throws {
        let names = try Fixtures.files(in: "webp/crashers", withExtension: "bin")
        XCTAssertFalse(names.isEmpty)
        for name in names {
            let input = try Fixtures.bytes(name)
            let whole = MalformedLosslessTests.outcome([input.dropFirst(2)])
            let split = MalformedLosslessTests.outcome(Self.pieces(input))
            XCTAssertEqual(whole, split, name)
        }
    }

    func testLossyRowsPutOffForMoreDataAreDecodedAtTheEndOfInput() throws {
        // The VP8 chunk claims 23 more bytes than the file has, but its rows need none of them:
        // whole, every row decodes; split, rows were put off waiting for the partition to grow.
        let input = try Fixtures.bytes("webp/crashers/lossy-rows-put-off-at-end-of-input.bin")
        let decoder = WebPDecoder()
        for piece in Self.pieces(input) { try decoder.feed(piece) }
        XCTAssertEqual(try decoder.finish().height, 48)
    }

    func testAnimatedFirstFrameRowsPutOffAreRetriedEvenWhenEveryByteWasTaken() throws {
        // An ANMF whose lossy frame is cut: whole, row 0 decodes and row 1's modes run past the
        // first partition (invalidData). Split, row 0 was put off waiting for its partition to
        // double, and the last piece was already taken by the frame: `finish` must still retry it.
        let input = try Fixtures.bytes("webp/crashers/animated-first-frame-rows-put-off-at-end-of-input.bin")
        func failure(_ pieces: [ArraySlice<UInt8>]) -> ImageDecodingError? {
            let decoder = WebPDecoder()
            do {
                for piece in pieces { try decoder.feed(piece) }
                _ = try decoder.finish()
                return nil
            } catch {
                return error as? ImageDecodingError
            }
        }
        let whole = failure([input.dropFirst(2)])
        let split = failure(Self.pieces(input))
        XCTAssertEqual(whole?.kind, .invalidData)
        XCTAssertEqual(split?.kind, .invalidData)
        XCTAssertEqual(split?.offset, whole?.offset)
    }
}
