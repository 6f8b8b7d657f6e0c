/// Linear light in fixed point → encoded sRGB, shared by every matrix/TRC conversion.
///
/// Linear values are Q15 (0 ... 32768 for 0 ... 1): fine enough that one step near black, where
/// the sRGB curve is steepest (slope 12.92), moves an 8-bit output by 0.1 and a 16-bit one by 26.
enum SRGBEncodingTable {
    /// Fixed-point one (a literal, so hot loops do not go through a lazy global's accessor).
    static var one: Int { 32768 }
    /// 8-bit output for each linear value 0 ... 32768.
    static let eightBit: [UInt8] = (0...one).map { UInt8((SRGB.encode(Double($0) / Double(one)) * 255).rounded()) }
    /// 16-bit output for each linear value 0 ... 32768.
    static let sixteenBit: [UInt16] = (0...one).map { UInt16((SRGB.encode(Double($0) / Double(one)) * 65535).rounded()) }
}
