import XCTest
@testable import Deflate
import TestSupport

/// The table builder fills complete codes by doubling (canonical order, each length's entries
/// copied after themselves); its twin writes each symbol's entries by a strided loop. Subtables
/// may sit at other offsets, so the two tables are compared as decoders: for every 15-bit input,
/// the entry reached (through a link if there is one) and the bits it takes must be the same.
final class TableBuildTwinTests: XCTestCase {
    /// The entry a table gives for the next 15 input bits and the bits that entry takes in all
    /// (the main table's bits added for a subtable entry, as the decoding loops do).
    private func resolve(_ input: Int, in table: UnsafePointer<UInt32>, mainBits: Int) -> (entry: UInt32, bits: UInt32) {
        let main = table[input & ((1 << mainBits) - 1)]
        guard main & HuffmanEntry.kindMask == HuffmanEntry.link else { return (main, main & HuffmanEntry.lengthMask) }
        let entry = HuffmanEntry.subtableEntry(table, link: main, bitsAfterMain: UInt64(input >> mainBits))
        return (entry & ~0xF1F, (entry & HuffmanEntry.lengthMask) + UInt32(mainBits))
    }

    /// What is wrong with the extra-bits flag or the folded value of base `entry`, found at
    /// main-table index `input`, if anything.
    private func foldingProblem(_ entry: UInt32, input: Int, _ alphabet: HuffmanAlphabet) -> String? {
        let codeword = Int((entry >> 8) & HuffmanEntry.codewordMask)
        let extra = Int(entry & HuffmanEntry.lengthMask) - codeword
        let flagged = entry & HuffmanEntry.hasExtraBits != 0
        if flagged { return extra > 0 ? nil : "flagged without extra bits" }
        if extra == 0 { return nil }
        guard alphabet == .literalLength else { return "\(alphabet) entry with extra bits not flagged" }
        let value = Int(entry >> 16)
        guard let index = DeflateConstants.lengthBase.indices.first(where: {
            Int(DeflateConstants.lengthExtraBits[$0]) == extra && Int(DeflateConstants.lengthBase[$0]) <= value
                && value < Int(DeflateConstants.lengthBase[$0]) + (1 << extra)
        }) else { return "folded value \(value) is no length with \(extra) extra bits" }
        let x = (input >> codeword) & ((1 << extra) - 1)
        return value == Int(DeflateConstants.lengthBase[index]) + x ? nil : "folded value \(value), extra bits \(x)"
    }

    private func assertTwinsAgree(_ lengths: [UInt8], _ alphabet: HuffmanAlphabet, _ context: String) throws {
        let (mainBits, capacity) = HuffmanTableBuilder.layout(alphabet)
        let fast = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        let careful = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        defer { fast.deallocate(); careful.deallocate() }
        // Stale entries from an earlier table must not show through.
        fast.initialize(repeating: HuffmanEntry.make(length: 3, kind: HuffmanEntry.link, extra: 4, value: 77), count: capacity)
        careful.initialize(repeating: 0, count: capacity)
        try lengths.withUnsafeBufferPointer { buffer in
            let base = try XCTUnwrap(buffer.baseAddress)
            try HuffmanTableBuilder.build(lengths: base, count: lengths.count, alphabet: alphabet, into: fast)
            try HuffmanTableBuilder.buildCarefully(lengths: base, count: lengths.count, alphabet: alphabet, into: careful)
        }
        var mismatches = 0
        for input in 0..<(1 << 15) {
            let a = resolve(input, in: fast, mainBits: mainBits)
            let b = resolve(input, in: careful, mainBits: mainBits)
            if a.entry != b.entry || a.bits != b.bits {
                mismatches += 1
                if mismatches <= 3 { XCTFail("\(context): input \(input): \(a) against \(b)") }
            }
            // The fast loop takes the value of a base entry without the flag as it is: a flagged
            // entry must take extra bits, and one that takes extra bits without the flag must be a
            // folded length whose value is its base plus the extra bits at this index.
            let entry = fast[input & ((1 << mainBits) - 1)]
            if entry & HuffmanEntry.kindMask == HuffmanEntry.base, let problem = foldingProblem(entry, input: input, alphabet) {
                mismatches += 1
                if mismatches <= 3 { XCTFail("\(context): input \(input): entry \(entry): \(problem)") }
            }
        }
        XCTAssertEqual(mismatches, 0, context)
    }

    func testDoublingBuildDecodesLikeTheSymbolOrderTwin() throws {
        var rng = SeededGenerator(seed: 0x7AB1E)
        var trials = 0
        for (alphabet, count, maxLength) in [(HuffmanAlphabet.literalLength, 288, 15), (.literalLength, 286, 11),
                                             (.literalLength, 260, 9), (.distance, 30, 15), (.distance, 32, 8),
                                             (.codeLength, 19, 7)] {
            for leaves in [2, 3, 5, count / 2, count] {
                for _ in 0..<4 {
                    let lengths = RandomCompleteCode.lengths(count: count, leaves: leaves, maxLength: maxLength, using: &rng)
                    try assertTwinsAgree(lengths, alphabet, "\(alphabet), \(leaves) codewords of ≤ \(maxLength) bits")
                    trials += 1
                }
            }
        }
        // The fixed codes, and the incomplete codes the careful twin builds for both.
        try assertTwinsAgree(DeflateConstants.fixedLiteralLengths, .literalLength, "fixed literal/length")
        try assertTwinsAgree(DeflateConstants.fixedDistanceLengths, .distance, "fixed distance")
        try assertTwinsAgree([0, 0, 1, 0], .distance, "one distance codeword")
        try assertTwinsAgree([UInt8](repeating: 0, count: 30), .distance, "no distance codewords")
        XCTAssertEqual(trials, 120)
    }
}
