/// Optimal length-limited Huffman code lengths from symbol frequencies, by package-merge
/// (Larmore & Hirschberg 1990): DEFLATE caps code lengths at 15 bits (7 for the code-length
/// code, RFC 1951 3.2.7), which a plain Huffman tree can exceed.
enum DeflaterCodeLengthBuilder {
    /// One item of a package-merge list: a leaf (a symbol) or a package of two earlier items.
    private struct Item {
        var weight: Int
        /// For a leaf: -1. For a package: index of its first child in `items`.
        var left: Int32
        /// For a leaf: the symbol. For a package: index of its second child.
        var right: Int32
    }

    /// Code lengths (0 for unused symbols) minimising Σ frequency·length with every length ≤
    /// `maxBits`. At least two symbols always get a code (unused ones are added with weight 1 if
    /// needed), so the code is complete: zlib and our inflater reject incomplete code-length
    /// and literal/length codes, and pkzip wants one bit even for a single distance code.
    static func lengths(frequencies: [Int], maxBits: Int) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: frequencies.count)
        var used: [(weight: Int, symbol: Int)] = []
        for (symbol, f) in frequencies.enumerated() where f > 0 { used.append((f, symbol)) }
        var filler = 0
        while used.count < 2 && filler < frequencies.count {
            if frequencies[filler] == 0 { used.append((1, filler)) }
            filler += 1
        }
        guard used.count >= 2 else {
            // Only reachable with an alphabet of one symbol; give it one bit.
            if let only = used.first { lengths[only.symbol] = 1 }
            return lengths
        }
        used.sort { $0.weight != $1.weight ? $0.weight < $1.weight : $0.symbol < $1.symbol }

        var items: [Item] = used.map { Item(weight: $0.weight, left: -1, right: Int32($0.symbol)) }
        let leafCount = items.count
        // The list for the deepest level holds just the leaves; each shallower level merges
        // the leaves with the pairs (packages) of the level below.
        var list = Array(0..<leafCount)
        if maxBits > 1 {
            for _ in 1..<maxBits {
                var packages: [Int] = []
                packages.reserveCapacity(list.count / 2)
                var i = 0
                while i + 1 < list.count {
                    let a = list[i], b = list[i + 1]
                    items.append(Item(weight: items[a].weight + items[b].weight, left: Int32(a), right: Int32(b)))
                    packages.append(items.count - 1)
                    i += 2
                }
                var merged: [Int] = []
                merged.reserveCapacity(leafCount + packages.count)
                var leaf = 0, package = 0
                while leaf < leafCount || package < packages.count {
                    // Leaves first on equal weight keeps the trees shallow.
                    if package == packages.count
                        || (leaf < leafCount && items[leaf].weight <= items[packages[package]].weight) {
                        merged.append(leaf)
                        leaf += 1
                    } else {
                        merged.append(packages[package])
                        package += 1
                    }
                }
                list = merged
            }
        }
        // The first 2n − 2 items of the final list; a symbol's code length is how many times
        // its leaf occurs in them (inside packages included).
        var stack: [Int] = Array(list.prefix(2 * leafCount - 2))
        while let index = stack.popLast() {
            let item = items[index]
            if item.left < 0 {
                lengths[Int(item.right)] += 1
            } else {
                stack.append(Int(item.left))
                stack.append(Int(item.right))
            }
        }
        return lengths
    }
}
