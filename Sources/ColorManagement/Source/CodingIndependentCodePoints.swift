/// `cICP` (PNG 3rd edition 11.3.2.6, ITU-T H.273): colour primaries, transfer characteristics,
/// matrix coefficients and video full range flag, as stored.
public struct CodingIndependentCodePoints: Sendable, Hashable {
    /// H.273 ColourPrimaries (1 BT.709, 9 BT.2020, 12 Display P3 ...).
    public var colorPrimaries: UInt8
    /// H.273 TransferCharacteristics (1 BT.709, 13 sRGB, 16 PQ, 18 HLG ...).
    public var transferCharacteristics: UInt8
    /// H.273 MatrixCoefficients (0 for RGB, the only value PNG allows).
    public var matrixCoefficients: UInt8
    /// Whether samples use the full range (PNG requires 1).
    public var isFullRange: Bool

    /// Makes code points.
    public init(colorPrimaries: UInt8, transferCharacteristics: UInt8, matrixCoefficients: UInt8, isFullRange: Bool) {
        self.colorPrimaries = colorPrimaries
        self.transferCharacteristics = transferCharacteristics
        self.matrixCoefficients = matrixCoefficients
        self.isFullRange = isFullRange
    }

    /// The source these code points describe, or nil when conversion is not supported: PQ (16)
    /// and HLG (18) transfers are HDR and need tone mapping, which this library does not do;
    /// narrow range and non-RGB matrices are not PNG; unknown code points are ignored.
    public var colorSource: ColorSource? {
        guard matrixCoefficients == 0, isFullRange else { return nil }
        let primaries: Chromaticities
        switch colorPrimaries {
        case 1: primaries = .sRGB
        case 9: primaries = .bt2020
        case 12: primaries = .displayP3
        default: return nil
        }
        let transfer: ToneCurve
        switch transferCharacteristics {
        case 1, 6, 14, 15: transfer = ColorSource.bt709Transfer
        case 4: transfer = .gamma(2.2)
        case 5: transfer = .gamma(2.8)
        case 8: transfer = .identity
        case 13: transfer = ColorSource.sRGBTransfer
        default: return nil
        }
        if colorPrimaries == 1, transferCharacteristics == 13 { return .sRGB }
        return .rgb(primaries, transfer: transfer)
    }
}
