/// The run-length coding of a dynamic block's code lengths (RFC 1951 3.2.7): the literal/length
/// and distance lengths form one sequence, sent with the code-length alphabet 0–15 plus
/// 16 (repeat the previous length 3–6 times, 2 extra bits), 17 (3–10 zeros, 3 extra bits)
/// and 18 (11–138 zeros, 7 extra bits).
struct DeflaterCodeLengthEncoder {
    /// One code-length symbol and the value of its extra bits (0 for 0–15).
    struct Entry {
        var symbol: UInt8
        var extra: UInt8
    }

    /// The symbols in order.
    private(set) var entries: [Entry] = []
    /// How often each of the 19 symbols occurs.
    private(set) var frequencies = [Int](repeating: 0, count: DeflaterSymbols.codeLengthCount)

    /// Extra bits of the code-length symbols 16, 17, 18.
    static func extraBits(_ symbol: Int) -> Int {
        switch symbol {
        case 16: return 2
        case 17: return 3
        case 18: return 7
        default: return 0
        }
    }

    /// Run-length codes `lengths` (the HLIT literal/length lengths followed by the HDIST distance
    /// lengths; a run may cross from one to the other, which 3.2.7 allows).
    init(lengths: [UInt8]) {
        var i = 0
        while i < lengths.count {
            let value = lengths[i]
            var run = 1
            while i + run < lengths.count && lengths[i + run] == value { run += 1 }
            i += run
            if value == 0 {
                while run >= 11 {
                    let r = min(run, 138)
                    append(18, UInt8(r - 11))
                    run -= r
                }
                if run >= 3 {
                    append(17, UInt8(run - 3))
                    run = 0
                }
            } else {
                // Code 16 repeats the previous length, so the value itself goes first.
                append(value, 0)
                run -= 1
                while run >= 3 {
                    let r = min(run, 6)
                    append(16, UInt8(r - 3))
                    run -= r
                }
            }
            while run > 0 {
                append(value, 0)
                run -= 1
            }
        }
    }

    private mutating func append(_ symbol: UInt8, _ extra: UInt8) {
        entries.append(Entry(symbol: symbol, extra: extra))
        frequencies[Int(symbol)] += 1
    }
}
