import XCTest
import TestSupport
@testable import JPEGCodec

/// The sequential MCU-run decoder (combined run/size/value table, reader in registers) against
/// its plain twin, which decodes symbol by symbol: same coefficients, shapes, predictions,
/// outcomes, stopping points and reader state on random tables and random streams.
final class SequentialBlockDecoderTwinTests: XCTestCase {
    /// AC symbols with EOB and ZRL among the first, then the usual small run/size pairs and a
    /// random rest (sizes up to 15, as a corrupt table may have).
    private func acSymbols(_ rng: inout SeededGenerator) -> [UInt8] {
        var common: [UInt8] = [0x00, 0x01, 0x02, 0x11, 0x03, 0x21, 0x04, 0x12, 0x31, 0x05, 0xF0, 0x06, 0x41, 0x07, 0x08, 0x0A]
        common.shuffle(using: &rng)
        let rest = (0...255).map(UInt8.init).filter { !common.contains($0) }.shuffled(using: &rng)
        return common + rest.prefix(Int.random(in: 0...120, using: &rng))
    }

    /// Random entropy-coded bytes with stuffed 0xFF 0x00 pairs and fill bytes, ending (usually)
    /// in a marker so the readers go on with zero bits.
    private func stream(_ rng: inout SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        let count = Int.random(in: 1...3000, using: &rng)
        let skew = Int.random(in: 0...2, using: &rng)   // 0: random bits; 1, 2: more zero bits (short codes)
        while bytes.count < count {
            switch Int.random(in: 0..<60, using: &rng) {
            case 0: bytes += [0xFF, 0x00]
            case 1: bytes += [0xFF, 0xFF, 0x00]
            default:
                var byte = UInt8.random(in: 0...0xFE, using: &rng)
                for _ in 0..<skew { byte &= UInt8.random(in: 0...0xFE, using: &rng) }
                bytes.append(byte)
            }
        }
        if Int.random(in: 0..<4, using: &rng) != 0 { bytes += [0xFF, 0xD9] }
        return bytes
    }

    private struct Decoded: Equatable {
        var coefficients: [Int16]
        var shapes: [UInt8]
        var predictors: [Int32]
        var stops: [String]
        var accumulator: UInt64, bitCount: Int, position: Int, markerReached: Bool, ranOutOfData: Bool
    }

    /// Decodes `mcus` MCUs of `blocksPerMCU` blocks (block i uses table pair i % 2), with the run
    /// decoder (`fast`) or block by block with the twin, restarting after every stop as
    /// ``ScanDecoder`` does.
    private func decode(_ bytes: [UInt8], tables: [(dc: HuffmanTable, ac: HuffmanTable)], quantization: [Int32],
                        blocksPerMCU: Int, mcus: Int, fast: Bool, initialShape: UInt8) -> Decoded {
        let total = blocksPerMCU * mcus
        var coefficients = [Int16](repeating: 0, count: total * 64)
        var shapes = [UInt8](repeating: initialShape, count: total)
        var predictors = [Int32](repeating: 0, count: 2)
        var stops: [String] = []
        var reader = BitReader()
        bytes.withUnsafeBytes { raw in
            reader.bytes = raw
            coefficients.withUnsafeMutableBufferPointer { blocks in
                shapes.withUnsafeMutableBufferPointer { shapeBytes in
                    predictors.withUnsafeMutableBufferPointer { predictorValues in
                        quantization.withUnsafeBufferPointer { quant in
                            guard let blockBase = blocks.baseAddress, let shapeBase = shapeBytes.baseAddress,
                                  let predictorBase = predictorValues.baseAddress, let quantBase = quant.baseAddress else { return }
                            var slots: [SequentialBlockSlot] = (0..<blocksPerMCU).map { slot in
                                SequentialBlockSlot(block: blockBase + slot * 64, blockStep: blocksPerMCU * 64,
                                                    shape: shapeBase + slot, shapeStep: blocksPerMCU,
                                                    quantization: quantBase + (slot % 2) * 64,
                                                    dc: tables[slot % 2].dc.view, ac: tables[slot % 2].ac.view,
                                                    predictor: predictorBase + slot % 2)
                            }
                            var next = 0
                            while next < total {
                                let stop: (next: Int, outcome: SequentialBlockDecoder.Outcome)
                                if fast {
                                    stop = slots.withUnsafeMutableBufferPointer { buffer in
                                        SequentialBlockDecoder.decodeRun(slots: UnsafePointer(buffer.baseAddress!), blocksPerMCU: blocksPerMCU,
                                                                         from: next, to: total, reader: &reader, zigzag: ZigZag.pointer)
                                    }
                                } else {
                                    var index = next
                                    var outcome = SequentialBlockDecoder.Outcome.decoded
                                    while index < total {
                                        let slot = slots[index % blocksPerMCU], mcu = index / blocksPerMCU
                                        outcome = SequentialBlockDecoder.decodeCarefully(
                                            into: slot.block + mcu * slot.blockStep, shape: slot.shape + mcu * slot.shapeStep,
                                            quantization: slot.quantization, dc: slot.dc, ac: slot.ac, predictor: slot.predictor,
                                            reader: &reader, zigzag: ZigZag.pointer)
                                        index += 1
                                        if index % blocksPerMCU == 0 && reader.usedInventedBits { break }
                                        if outcome != .decoded { break }
                                    }
                                    stop = (index, outcome)
                                }
                                stops.append("\(stop.next) \(stop.outcome)")
                                if stop.outcome == .predictorOverflow { break }
                                // Past the data every further block reads zeros: stop there, as the scan decoder does.
                                if stop.outcome == .decoded && stop.next < total { break }
                                next = stop.next
                            }
                        }
                    }
                }
            }
        }
        return Decoded(coefficients: coefficients, shapes: shapes, predictors: predictors, stops: stops,
                       accumulator: reader.accumulator, bitCount: reader.bitCount, position: reader.position,
                       markerReached: reader.markerReached, ranOutOfData: reader.ranOutOfData)
    }

    func testRunDecoderMatchesTwinOnRandomTablesAndStreams() throws {
        var rng = SeededGenerator(seed: 0x5E0)
        var fastValues = 0, badCodes = 0, blocksChecked = 0
        for trial in 0..<400 {
            var tables: [(dc: HuffmanTable, ac: HuffmanTable)] = []
            for pair in 0..<2 {
                let standard = trial % 5 == 0
                let dc = standard ? StandardHuffmanTables.dc(slot: pair)
                    : HuffmanTableDefinition.random(Array(0...UInt8(Int.random(in: 5...15, using: &rng))).shuffled(using: &rng), using: &rng)
                let ac = standard ? StandardHuffmanTables.ac(slot: pair) : HuffmanTableDefinition.random(acSymbols(&rng), using: &rng)
                tables.append((try HuffmanTable(dc, isDC: true, name: "DC", offset: 0),
                               try HuffmanTable(ac, isDC: false, name: "AC", offset: 0)))
                for slot in 0..<(1 << HuffmanTable.fastACBits) where tables[pair].ac.view.fastAC[slot] & HuffmanTable.fastACValue != 0 { fastValues += 1 }
            }
            // Quantizers up to 16 bits, so 16-bit truncation of products is exercised too.
            let quantization = (0..<128).map { _ in Int32(Int.random(in: 1...(trial % 3 == 0 ? 65535 : 64), using: &rng)) }
            let bytes = stream(&rng)
            let blocksPerMCU = Int.random(in: 1...6, using: &rng)
            let mcus = Int.random(in: 1...40, using: &rng)
            let initialShape = UInt8.random(in: 0...2, using: &rng)
            let twin = decode(bytes, tables: tables, quantization: quantization, blocksPerMCU: blocksPerMCU, mcus: mcus,
                              fast: false, initialShape: initialShape)
            let fast = decode(bytes, tables: tables, quantization: quantization, blocksPerMCU: blocksPerMCU, mcus: mcus,
                              fast: true, initialShape: initialShape)
            XCTAssertEqual(fast, twin, "trial \(trial)")
            if fast != twin { return }
            badCodes += twin.stops.filter { $0.hasSuffix("badCode") }.count
            blocksChecked += blocksPerMCU * mcus
        }
        // The sweep must have reached the fast table entries and invalid codes.
        XCTAssertGreaterThan(fastValues, 10_000)
        XCTAssertGreaterThan(badCodes, 50)
        XCTAssertGreaterThan(blocksChecked, 20_000)
    }

    func testCodeOnlyEntriesCarryTheSizeAndZRL() throws {
        // Codes: 0 (EOB), 10 (0x01), 110 (ZRL), 1110 (0x2A: run 2, size 10, too long for the 10 bits).
        XCTAssertEqual(HuffmanTable.fastACBits, 10)
        let table = try HuffmanTable(HuffmanTableDefinition(counts: [1, 1, 1, 1] + [UInt8](repeating: 0, count: 12),
                                                            symbols: [0x00, 0x01, 0xF0, 0x2A]), isDC: false, name: "AC", offset: 0)
        let fastAC = table.view.fastAC
        XCTAssertEqual(fastAC[0b0_000000000], 1 | HuffmanTable.fastACEndOfBlock)
        XCTAssertEqual(fastAC[0b10_10000000], 3 | HuffmanTable.fastACValue | HuffmanTable.fastACSizeOne | 1 << 16)
        XCTAssertEqual(fastAC[0b10_00000000], 3 | HuffmanTable.fastACValue | HuffmanTable.fastACSizeOne | -1 << 16)
        XCTAssertEqual(fastAC[0b110_0000000], 3 | 15 << 8 | HuffmanTable.fastACCodeOnly)
        XCTAssertEqual(fastAC[0b1110_000000], 4 | 2 << 8 | HuffmanTable.fastACCodeOnly | 10 << 16)
        XCTAssertEqual(fastAC[0b1111_000000], 0)
    }

    func testDCEntriesCarryTheDifference() throws {
        // Codes: 0 (size 0), 10 (size 2), 110 (size 8: 3 + 8 bits, past the 10), 1110 (size 6).
        let table = try HuffmanTable(HuffmanTableDefinition(counts: [1, 1, 1, 1] + [UInt8](repeating: 0, count: 12),
                                                            symbols: [0, 2, 8, 6]), isDC: true, name: "DC", offset: 0)
        let fastDC = table.view.fastDC
        XCTAssertEqual(fastDC[0b0_101010101], 1 | HuffmanTable.fastACValue)
        XCTAssertEqual(fastDC[0b10_01_000000], 4 | HuffmanTable.fastACValue | -2 << 16)   // EXTEND(01, 2) = −2
        XCTAssertEqual(fastDC[0b10_11_111111], 4 | HuffmanTable.fastACValue | 3 << 16)
        XCTAssertEqual(fastDC[0b110_1111111], 0)
        XCTAssertEqual(fastDC[0b1110_000001], 10 | HuffmanTable.fastACValue | -62 << 16)  // EXTEND(000001, 6) = 1 − 63
        XCTAssertEqual(fastDC[0b1111_000000], 0)
    }
}
