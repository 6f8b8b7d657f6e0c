import XCTest
@testable import Deflate
import TestSupport

/// `HuffmanTableBuilder.codeword(of:lengths:count:)`, which tells the inflater a block's
/// end-of-block codeword (how long bytes may wait before a block that is not the last), against
/// the decode table built from the same lengths: looked up there, every symbol's codeword must
/// give back that symbol with that length.
final class CanonicalCodewordTests: XCTestCase {
    /// The entry the table holds for a codeword (bit reversed, first bit lowest), through a
    /// subtable link if there is one, and the codeword length the entry records.
    private func lookUp(_ reversed: UInt64, in table: UnsafePointer<UInt32>) -> (entry: UInt32, codewordLength: Int) {
        let main = table[Int(reversed & 0x7FF)]
        guard main & HuffmanEntry.kindMask == HuffmanEntry.link else { return (main, Int((main >> 8) & 0xF)) }
        let entry = HuffmanEntry.subtableEntry(table, link: main, bitsAfterMain: reversed >> 11)
        return (entry, 11 + Int((entry >> 8) & 0xF))
    }

    func testEveryCodewordLooksUpToItsSymbolInTheBuiltTable() throws {
        var rng = SeededGenerator(seed: 0xC0DE)
        let capacity = HuffmanTableBuilder.layout(.literalLength).capacity
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        defer { table.deallocate() }
        var longEndOfBlockCodes = 0
        for trial in 0..<60 {
            let leaves = [2, 3, 20, 150, 286][trial % 5]
            let lengths = RandomCompleteCode.lengths(count: 286, leaves: leaves, including: 256, using: &rng)
            try lengths.withUnsafeBufferPointer { buffer in
                let base = try XCTUnwrap(buffer.baseAddress)
                try HuffmanTableBuilder.build(lengths: base, count: 286, alphabet: .literalLength, into: table)
                for symbol in 0..<286 where lengths[symbol] != 0 {
                    let (reversed, length) = HuffmanTableBuilder.codeword(of: symbol, lengths: base, count: 286)
                    XCTAssertEqual(length, Int(lengths[symbol]), "trial \(trial), symbol \(symbol)")
                    XCTAssertLessThan(reversed, 1 << UInt64(length), "trial \(trial), symbol \(symbol)")
                    let (entry, codewordLength) = lookUp(reversed, in: UnsafePointer(table))
                    XCTAssertEqual(codewordLength, length, "trial \(trial), symbol \(symbol)")
                    if symbol < 256 {
                        XCTAssertEqual(entry & HuffmanEntry.kindMask, HuffmanEntry.literal, "trial \(trial), symbol \(symbol)")
                        XCTAssertEqual(Int(entry >> 16) & 0xFF, symbol, "trial \(trial), symbol \(symbol)")
                    } else if symbol == 256 {
                        XCTAssertEqual(entry & HuffmanEntry.kindMask, HuffmanEntry.endOfBlock, "trial \(trial)")
                        if length > 11 { longEndOfBlockCodes += 1 }
                    }
                }
                XCTAssertEqual(HuffmanTableBuilder.codeword(of: 0, lengths: base, count: 286).length, Int(lengths[0]))
            }
        }
        // Some end-of-block codewords went through a subtable (else the link path is untested).
        XCTAssertGreaterThan(longEndOfBlockCodes, 0)
    }

    /// The inflater sets the fixed code's end-of-block codeword without building it: 7 zero bits.
    func testFixedCodeEndOfBlockIsSevenZeroBits() throws {
        try DeflateConstants.fixedLiteralLengths.withUnsafeBufferPointer { buffer in
            let base = try XCTUnwrap(buffer.baseAddress)
            let codeword = HuffmanTableBuilder.codeword(of: 256, lengths: base, count: 288)
            XCTAssertEqual(codeword.reversed, 0)
            XCTAssertEqual(codeword.length, 7)
        }
    }
}
