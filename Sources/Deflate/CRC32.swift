/// CRC-32 as used by gzip (RFC 1952 8) and PNG (PNG 15.2, Annex D): reflected polynomial
/// 0xEDB88320, initial value and final XOR 0xFFFFFFFF.
///
/// Computed with five interleaved ("braided") streams of 8-byte words, see ``CRC32Tables``;
/// short inputs and the end of long ones go through slicing-by-8.
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
