/// CRC-32 (ISO-HDLC, the one of zlib and PNG; reflected polynomial 0xEDB88320), computed
/// once per file after timing so `compare.py` can check that every decoder gave the same
/// bytes (`zlib.crc32` in Python gives the same value).
enum CRC32Checksum {
    /// Byte-at-a-time table: entry n is the CRC register after shifting byte n through it.
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }

    /// The CRC-32 of `bytes`.
    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        table.withUnsafeBufferPointer { table in
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
            }
            return crc ^ 0xFFFF_FFFF
        }
    }
}
