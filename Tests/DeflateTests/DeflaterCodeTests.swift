import XCTest
@testable import Deflate
import TestSupport

/// The building blocks of ``Deflater``: symbol mapping (RFC 1951 3.2.5), length-limited code
/// lengths, canonical codes (3.2.2) and the code-length run-length coding (3.2.7).
final class DeflaterCodeTests: XCTestCase {
    /// RFC 1951 3.2.5: base lengths of symbols 257–285 and base distances of symbols 0–29.
    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
                             67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769,
                               1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]

    func testEveryMatchLengthMapsToTheRFCSymbolAndExtraBits() {
        for length in 3...258 {
            let (symbol, extraBits, extra) = DeflaterSymbols.lengthSymbol(length)
            let index = symbol - 257
            XCTAssertTrue((0..<29).contains(index), "length \(length)")
            guard (0..<29).contains(index) else { continue }
            XCTAssertEqual(Self.lengthBase[index] + extra, length, "length \(length)")
            XCTAssertEqual(extraBits, Int(DeflaterSymbols.lengthExtraBits[index]), "length \(length)")
            XCTAssertLessThan(extra, 1 << extraBits, "length \(length)")
        }
        XCTAssertEqual(DeflaterSymbols.lengthSymbol(258).symbol, 285)
        XCTAssertEqual(DeflaterSymbols.lengthSymbol(257).symbol, 284)
    }

    func testEveryDistanceMapsToTheRFCSymbolAndExtraBits() {
        for distance in 1...32768 {
            let (symbol, extraBits, extra) = DeflaterSymbols.distanceSymbol(distance)
            XCTAssertTrue((0..<30).contains(symbol), "distance \(distance)")
            guard (0..<30).contains(symbol) else { continue }
            XCTAssertEqual(Self.distanceBase[symbol] + extra, distance, "distance \(distance)")
            XCTAssertEqual(extraBits, Int(DeflaterSymbols.distanceExtraBits[symbol]), "distance \(distance)")
            XCTAssertLessThan(extra, 1 << extraBits, "distance \(distance)")
        }
    }

    func testCanonicalCodesMatchTheRFCExample() {
        // RFC 1951 3.2.2: lengths (3, 3, 3, 3, 3, 2, 4, 4) give 010 011 100 101 110 00 1110 1111;
        // stored bit-reversed for LSB-first output.
        let code = DeflaterHuffmanCode(lengths: [3, 3, 3, 3, 3, 2, 4, 4])
        XCTAssertEqual(code.codes, [0b010, 0b110, 0b001, 0b101, 0b011, 0b00, 0b0111, 0b1111])
    }

    /// Σ 2^(−length) over used symbols, scaled by 2^15: exactly 2^15 for a complete code.
    private func kraftSum(_ lengths: [UInt8]) -> Int {
        lengths.filter { $0 > 0 }.reduce(0) { $0 + (1 << (15 - Int($1))) }
    }

    /// The cost Σ f·l of an unrestricted Huffman code (sum of all merged weights).
    private func huffmanCost(_ frequencies: [Int]) -> Int {
        var weights = frequencies.filter { $0 > 0 }.sorted()
        var cost = 0
        while weights.count > 1 {
            let merged = weights.removeFirst() + weights.removeFirst()
            cost += merged
            let index = weights.firstIndex { $0 > merged } ?? weights.count
            weights.insert(merged, at: index)
        }
        return cost
    }

    func testCodeLengthsAreCompleteAndWithinTheLimit() {
        var rng = SeededGenerator(seed: 21)
        for trial in 0..<200 {
            let count = [2, 19, 30, 286][trial % 4]
            let maxBits = count == 19 ? 7 : 15
            let frequencies = (0..<count).map { _ in Int.random(in: 0...3, using: &rng) == 0 ? 0 : Int.random(in: 1...100_000, using: &rng) }
            let lengths = DeflaterCodeLengthBuilder.lengths(frequencies: frequencies, maxBits: maxBits)
            XCTAssertEqual(kraftSum(lengths), 1 << 15, "trial \(trial)")
            XCTAssertLessThanOrEqual(Int(lengths.max() ?? 0), maxBits, "trial \(trial)")
            for (f, l) in zip(frequencies, lengths) where f > 0 { XCTAssertGreaterThan(l, 0, "trial \(trial)") }
        }
    }

    func testCodeLengthsAreOptimalWhenTheLimitDoesNotBind() {
        var rng = SeededGenerator(seed: 22)
        for trial in 0..<100 {
            let frequencies = (0..<40).map { _ in Int.random(in: 1...1000, using: &rng) }
            let lengths = DeflaterCodeLengthBuilder.lengths(frequencies: frequencies, maxBits: 15)
            let cost = zip(frequencies, lengths).reduce(0) { $0 + $1.0 * Int($1.1) }
            XCTAssertEqual(cost, huffmanCost(frequencies), "trial \(trial)")
        }
    }

    func testFibonacciFrequenciesAreLimitedTo7And15Bits() {
        // Fibonacci weights make a Huffman tree as deep as there are symbols.
        var fibonacci = [1, 1]
        while fibonacci.count < 30 { fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2]) }
        let limited15 = DeflaterCodeLengthBuilder.lengths(frequencies: fibonacci, maxBits: 15)
        XCTAssertEqual(limited15.max(), 15)
        XCTAssertEqual(kraftSum(limited15), 1 << 15)
        let limited7 = DeflaterCodeLengthBuilder.lengths(frequencies: Array(fibonacci.prefix(19)), maxBits: 7)
        XCTAssertEqual(limited7.max(), 7)
        XCTAssertEqual(kraftSum(limited7), 1 << 15)
    }

    func testFewerThanTwoUsedSymbolsStillGiveACompleteCode() {
        XCTAssertEqual(DeflaterCodeLengthBuilder.lengths(frequencies: [0, 0, 5, 0], maxBits: 15), [1, 0, 1, 0])
        XCTAssertEqual(DeflaterCodeLengthBuilder.lengths(frequencies: [0, 0, 0], maxBits: 15), [1, 1, 0])
        XCTAssertEqual(DeflaterCodeLengthBuilder.lengths(frequencies: [7, 0, 0], maxBits: 15), [1, 1, 0])
    }

    /// Expands code-length symbols back into lengths, failing on a repeat with nothing before it.
    private func expand(_ encoder: DeflaterCodeLengthEncoder) -> [UInt8]? {
        var lengths: [UInt8] = []
        for entry in encoder.entries {
            switch entry.symbol {
            case 16:
                guard let last = lengths.last, entry.extra < 4 else { return nil }
                lengths += [UInt8](repeating: last, count: 3 + Int(entry.extra))
            case 17:
                guard entry.extra < 8 else { return nil }
                lengths += [UInt8](repeating: 0, count: 3 + Int(entry.extra))
            case 18:
                guard entry.extra < 128 else { return nil }
                lengths += [UInt8](repeating: 0, count: 11 + Int(entry.extra))
            default:
                guard entry.symbol < 16, entry.extra == 0 else { return nil }
                lengths.append(entry.symbol)
            }
        }
        return lengths
    }

    func testCodeLengthRunsExpandBackToTheLengths() {
        var rng = SeededGenerator(seed: 23)
        for trial in 0..<300 {
            var lengths: [UInt8] = []
            while lengths.count < 316 {
                let value = UInt8(Int.random(in: 0...3, using: &rng) == 0 ? 0 : Int.random(in: 0...15, using: &rng))
                lengths += [UInt8](repeating: value, count: Int.random(in: 1...(value == 0 ? 200 : 12), using: &rng))
            }
            lengths = Array(lengths.prefix(257 + trial % 60))
            let encoder = DeflaterCodeLengthEncoder(lengths: lengths)
            XCTAssertEqual(expand(encoder), lengths, "trial \(trial)")
            var frequencies = [Int](repeating: 0, count: 19)
            for entry in encoder.entries { frequencies[Int(entry.symbol)] += 1 }
            XCTAssertEqual(frequencies, encoder.frequencies, "trial \(trial)")
        }
    }

    func testCodeLengthRunsUseTheShortestRepeatCodes() {
        func symbols(_ lengths: [UInt8]) -> [String] {
            DeflaterCodeLengthEncoder(lengths: lengths).entries.map { $0.symbol >= 16 ? "\($0.symbol):\($0.extra)" : "\($0.symbol)" }
        }
        XCTAssertEqual(symbols([0, 0]), ["0", "0"])
        XCTAssertEqual(symbols([0, 0, 0]), ["17:0"])
        XCTAssertEqual(symbols([UInt8](repeating: 0, count: 10)), ["17:7"])
        XCTAssertEqual(symbols([UInt8](repeating: 0, count: 11)), ["18:0"])
        XCTAssertEqual(symbols([UInt8](repeating: 0, count: 138)), ["18:127"])
        XCTAssertEqual(symbols([UInt8](repeating: 0, count: 139)), ["18:127", "0"])
        XCTAssertEqual(symbols([UInt8](repeating: 0, count: 141)), ["18:127", "17:0"])
        XCTAssertEqual(symbols([5, 5, 5]), ["5", "5", "5"])
        XCTAssertEqual(symbols([5, 5, 5, 5]), ["5", "16:0"])
        XCTAssertEqual(symbols([UInt8](repeating: 8, count: 7)), ["8", "16:3"])
        XCTAssertEqual(symbols([UInt8](repeating: 8, count: 10)), ["8", "16:3", "16:0"])
        XCTAssertEqual(symbols([UInt8](repeating: 8, count: 9)), ["8", "16:3", "8", "8"])
        XCTAssertEqual(symbols([UInt8](repeating: 8, count: 11)), ["8", "16:3", "16:1"])
    }
}
