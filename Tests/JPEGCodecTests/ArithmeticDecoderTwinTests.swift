import XCTest
@testable import JPEGCodec
import TestSupport

/// The branch-free binary decision against its careful twin written as T.81 and libjpeg write it.
final class ArithmeticDecoderTwinTests: XCTestCase {
    func testBranchFreeDecisionEqualsTheBranchingOneForEveryStateAndManyRegisters() {
        var rng = SeededGenerator(seed: 0xDEC1DE)
        let data: [UInt8] = (0..<4096).map { _ in UInt8.random(in: 0...0xFE, using: &rng) }
        data.withUnsafeBytes { bytes in
            // Every statistics byte a bin can hold (MPS bit, states 0...113), with registers taken
            // from real decoding so `c < a << 32` holds, including the renormalising paths.
            var decoder = ArithmeticDecoder()
            decoder.rebase(on: bytes, inputComplete: true)
            decoder.start()
            var driver: UInt8 = 0
            var checked = 0
            for round in 0..<3000 {
                for state in 0...113 {
                    for mps in [0, 0x80] {
                        var fast = decoder, careful = decoder
                        var fastBin = UInt8(mps | state), carefulBin = fastBin
                        let fastSymbol = fast.decode(&fastBin)
                        let carefulSymbol = careful.decodeWithBranches(&carefulBin)
                        if fastSymbol != carefulSymbol || fastBin != carefulBin || fast.a != careful.a
                            || fast.c != careful.c || fast.ct != careful.ct || fast.position != careful.position {
                            return XCTFail("state \(state) MPS \(mps >> 7) round \(round) differs")
                        }
                        checked += 1
                    }
                }
                // Move the registers on with an adapting bin.
                _ = decoder.decode(&driver)
            }
            XCTAssertEqual(checked, 3000 * 228)
            XCTAssertLessThan(decoder.position, bytes.count)
        }
    }
}
