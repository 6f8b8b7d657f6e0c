/// FNV-1a, 64-bit (Fowler, Noll, Vo): a tiny non-cryptographic hash used for disk-cache file names
/// and the integrity check of cache entries. Each byte: `hash = (hash XOR byte) × 1099511628211`.
///
/// Not a defence against tampering, only against torn writes and bit rot: any change of one byte
/// changes the hash, and random damage goes unnoticed with probability 2⁻⁶⁴.
struct FNV1a64 {
    /// The 64-bit offset basis.
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    /// The 64-bit FNV prime, 2⁴⁰ + 2⁸ + 0xB3.
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    private(set) var value = offsetBasis

    /// Folds in `bytes`.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var hash = value
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* Self.prime }
        value = hash
    }

    /// Folds in the UTF-8 bytes of `text`.
    mutating func update(_ text: String) {
        var copy = text
        copy.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// The hash of `bytes`.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = FNV1a64()
        hasher.update(bytes)
        return hasher.value
    }

    /// The hash as 16 lower-case hex digits.
    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
