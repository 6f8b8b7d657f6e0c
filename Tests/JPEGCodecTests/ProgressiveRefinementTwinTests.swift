import XCTest
import TestSupport
@testable import JPEGCodec

/// The progressive AC refinement run decoder (non-zero masks, correction bits several at a time,
/// code and sign bit from the combined table, reader in registers across blocks) against its
/// plain twin, coefficient by coefficient as libjpeg's `decode_mcu_AC_refine`.
final class ProgressiveRefinementTwinTests: XCTestCase {
    /// Refinement symbols: run/size-1 pairs, EOB runs, ZRL, and a few sizes > 1 (corrupt).
    private func refinementSymbols(_ rng: inout SeededGenerator) -> [UInt8] {
        var symbols = (0...15).map { UInt8($0 << 4 | 1) } + (0...14).map { UInt8($0 << 4) } + [0xF0]
        symbols.shuffle(using: &rng)
        if Bool.random(using: &rng) { symbols += [0x02, 0x13, 0x2F] }
        return symbols
    }

    private func stream(_ rng: inout SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        let count = Int.random(in: 1...2000, using: &rng)
        while bytes.count < count {
            switch Int.random(in: 0..<60, using: &rng) {
            case 0: bytes += [0xFF, 0x00]
            case 1: bytes += [0xFF, 0xFF, 0x00]
            default: bytes.append(UInt8.random(in: 0...0xFE, using: &rng))
            }
        }
        if Int.random(in: 0..<4, using: &rng) != 0 { bytes += [0xFF, 0xD9] }
        return bytes
    }

    /// Bit k (1...63) set when the coefficient at zig-zag position k is non-zero.
    private func mask(of block: ArraySlice<Int16>) -> UInt64 {
        var mask: UInt64 = 0
        for k in 1...63 where block[block.startIndex + ZigZag.naturalIndex(k)] != 0 { mask |= 1 << UInt64(k) }
        return mask
    }

    private struct Decoded: Equatable {
        var coefficients: [Int16]
        var masks: [UInt64]
        var stops: [String]
        var eobRun: Int
        var usedInventedBits: Bool
        /// The next 64 bits each reader delivers: the same bits consumed, whenever bytes were loaded.
        var nextBits: [Int]
    }

    private func decode(_ bytes: [UInt8], blocks initial: [Int16], table: HuffmanTable, start: Int, end: Int, shift: Int,
                        fast: Bool) -> Decoded {
        let count = initial.count / 64
        var coefficients = initial
        var masks = (0..<count).map { mask(of: initial[($0 * 64)..<($0 * 64 + 64)]) }
        var stops: [String] = []
        var eobRun = 0
        var reader = BitReader()
        var nextBits: [Int] = []
        bytes.withUnsafeBytes { raw in
            reader.bytes = raw
            coefficients.withUnsafeMutableBufferPointer { blocks in
                masks.withUnsafeMutableBufferPointer { maskWords in
                    guard let blockBase = blocks.baseAddress, let maskBase = maskWords.baseAddress else { return }
                    var done = 0
                    while done < count {
                        let stop: (decoded: Int, outcome: SequentialBlockDecoder.Outcome)
                        if fast {
                            stop = ProgressiveBlockDecoder.decodeACRefinementRun(
                                blocks: blockBase + done * 64, masks: maskBase + done, count: count - done, start: start, end: end,
                                shift: shift, ac: table.view, eobRun: &eobRun, reader: &reader, zigzag: ZigZag.pointer)
                        } else {
                            var decoded = 0
                            var outcome = SequentialBlockDecoder.Outcome.decoded
                            while done + decoded < count {
                                outcome = ProgressiveBlockDecoder.refineCarefully(blockBase + (done + decoded) * 64, start: start, end: end,
                                                                                  shift: shift, ac: table.view, eobRun: &eobRun, reader: &reader)
                                decoded += 1
                                if outcome != .decoded || reader.usedInventedBits { break }
                            }
                            stop = (decoded, outcome)
                        }
                        done += stop.decoded
                        stops.append("\(done) \(stop.outcome)")
                        if reader.usedInventedBits { break }
                    }
                }
            }
            let invented = reader.usedInventedBits
            for _ in 0..<4 {
                if reader.bitCount < 16 { reader.refill() }
                nextBits.append(reader.peek(16))
                reader.consume(16)
            }
            stops.append("invented \(invented)")
        }
        if !fast {
            // The twin keeps no masks: derive them from its coefficients.
            masks = (0..<count).map { mask(of: coefficients[($0 * 64)..<($0 * 64 + 64)]) }
        }
        return Decoded(coefficients: coefficients, masks: masks, stops: stops, eobRun: eobRun,
                       usedInventedBits: reader.usedInventedBits, nextBits: nextBits)
    }

    func testRefinementRunMatchesTwinOnRandomTablesBlocksAndStreams() throws {
        var rng = SeededGenerator(seed: 0xAC2)
        var badCodes = 0, blocksChecked = 0, grown = 0
        for trial in 0..<600 {
            let table = try HuffmanTable(HuffmanTableDefinition.random(refinementSymbols(&rng), using: &rng), isDC: false, name: "AC", offset: 0)
            let start = Int.random(in: 1...63, using: &rng)
            let end = trial % 3 == 0 ? 63 : Int.random(in: start...63, using: &rng)
            let shift = trial % 7 == 0 ? Int.random(in: 0...13, using: &rng) : Int.random(in: 0...3, using: &rng)
            let count = Int.random(in: 1...60, using: &rng)
            // Blocks with a random share of non-zero coefficients, some with the refined bit set already.
            let density = Int.random(in: 0...8, using: &rng)
            let blocks = (0..<(count * 64)).map { _ -> Int16 in
                guard Int.random(in: 0..<8, using: &rng) < density else { return 0 }
                let magnitude = Int16.random(in: 1...40, using: &rng) << Int16(shift + (trial % 11 == 0 ? 0 : 1))
                return Bool.random(using: &rng) ? magnitude : 0 &- magnitude
            }
            let bytes = stream(&rng)
            let twin = decode(bytes, blocks: blocks, table: table, start: start, end: end, shift: shift, fast: false)
            let fast = decode(bytes, blocks: blocks, table: table, start: start, end: end, shift: shift, fast: true)
            XCTAssertEqual(fast, twin, "trial \(trial)")
            if fast != twin { return }
            badCodes += twin.stops.filter { $0.hasSuffix("badCode") }.count
            grown += zip(twin.coefficients, blocks).filter { $0 != $1 && $1 != 0 }.count
            blocksChecked += count
        }
        XCTAssertGreaterThan(badCodes, 20)
        XCTAssertGreaterThan(grown, 5_000)
        XCTAssertGreaterThan(blocksChecked, 10_000)
    }
}
