/// CRC-32 as used by gzip (RFC 1952 8) and PNG (PNG 15.2, Annex D): reflected polynomial
/// 0xEDB88320, initial value and final XOR 0xFFFFFFFF.
///
/// Computed with slicing-by-8: eight 256-entry tables let the hot loop fold eight input bytes
/// per step with eight independent table lookups instead of eight dependent ones.
public struct CRC32: Sendable {
    /// The CRC-32 of all bytes passed to ``update(_:)`` so far (0 for no bytes).
    public private(set) var value: UInt32 = 0

    /// Starts a CRC-32 over no bytes (value 0).
    public init() {}

    /// Folds `bytes` into ``value``.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        value = CRC32Tables.shared.update(~value, base, bytes.count) ^ 0xFFFF_FFFF
    }

    /// Folds the bytes of an array into ``value``.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The CRC-32 of `bytes`; `CRC32.checksum(Array("123456789".utf8)) == 0xCBF43926`.
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}

/// The eight slicing tables, computed once.
///
/// `table[0][b]` is the CRC register after shifting byte `b` through it (the classic bytewise
/// table); `table[k][b] = (table[k-1][b] >> 8) ^ table[0][table[k-1][b] & 0xFF]` is the effect
/// of byte `b` followed by `k` zero bytes, so byte `i` of an 8-byte group uses table `7 - i`.
/// Stored flat: entry `k * 256 + b`.
final class CRC32Tables: Sendable {
    /// Reflected CRC-32 polynomial (x^32 + x^26 + ... + 1, bit order reversed).
    static let polynomial: UInt32 = 0xEDB8_8320
    /// The shared tables (Swift initialises static lets once, thread-safely).
    static let shared = CRC32Tables()

    /// 8 × 256 entries, never mutated after `init`. `nonisolated(unsafe)`: immutable after init.
    nonisolated(unsafe) private let table: UnsafeMutablePointer<UInt32>

    private init() {
        table = .allocate(capacity: 8 * 256)
        for b in 0..<256 {
            var c = UInt32(b)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ CRC32Tables.polynomial : c >> 1 }
            table[b] = c
        }
        for k in 1..<8 {
            for b in 0..<256 {
                let previous = table[(k - 1) * 256 + b]
                table[k * 256 + b] = (previous >> 8) ^ table[Int(previous & 0xFF)]
            }
        }
    }

    deinit { table.deallocate() }

    /// Advances the raw (pre-inverted) register `crc` over `count` bytes at `base`.
    func update(_ crc: UInt32, _ base: UnsafeRawPointer, _ count: Int) -> UInt32 {
        var crc = crc
        var p = base
        var remaining = count
        let t = UnsafePointer(table)
        // Bytewise until 8-byte aligned, so the wide loads below are aligned.
        while remaining > 0 && Int(bitPattern: p) & 7 != 0 {
            crc = (crc >> 8) ^ t[Int((crc ^ UInt32(p.load(as: UInt8.self))) & 0xFF)]
            p += 1
            remaining -= 1
        }
        while remaining >= 8 {
            // Little-endian lanes: byte 0 is the low byte of `low`.
            let word = UInt64(littleEndian: p.load(as: UInt64.self))
            let low = UInt32(truncatingIfNeeded: word) ^ crc
            let high = UInt32(truncatingIfNeeded: word >> 32)
            crc = t[7 * 256 + Int(low & 0xFF)]
                ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                ^ t[5 * 256 + Int((low >> 16) & 0xFF)]
                ^ t[4 * 256 + Int(low >> 24)]
                ^ t[3 * 256 + Int(high & 0xFF)]
                ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                ^ t[1 * 256 + Int((high >> 16) & 0xFF)]
                ^ t[Int(high >> 24)]
            p += 8
            remaining -= 8
        }
        while remaining > 0 {
            crc = (crc >> 8) ^ t[Int((crc ^ UInt32(p.load(as: UInt8.self))) & 0xFF)]
            p += 1
            remaining -= 1
        }
        return crc
    }
}
