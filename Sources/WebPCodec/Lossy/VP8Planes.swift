/// The pixel memory of a VP8 frame, allocated once and owned here so the per-pixel loops work on
/// plain pointers (no array bounds, copy-on-write or exclusivity checks).
///
/// Planes are padded to whole macroblocks: luma `16 * macroblocksWide` wide, chroma half that.
/// The work areas hold one macroblock being predicted with its borders (stride 32: the row
/// above at offset 0, 8 pixels of left margin; ``workOrigin`` is pixel (0, 0)).
final class VP8Planes {
    static let workStride = 32
    static let workOrigin = 32 + 8

    let lumaStride: Int
    let chromaStride: Int
    let y: UnsafeMutablePointer<UInt8>
    let u: UnsafeMutablePointer<UInt8>
    let v: UnsafeMutablePointer<UInt8>
    /// Unfiltered bottom rows of the previous macroblock row (intra prediction reads these).
    let topY: UnsafeMutablePointer<UInt8>
    let topU: UnsafeMutablePointer<UInt8>
    let topV: UnsafeMutablePointer<UInt8>
    let workY: UnsafeMutablePointer<UInt8>
    let workU: UnsafeMutablePointer<UInt8>
    let workV: UnsafeMutablePointer<UInt8>
    /// Four rows of upsampled chroma, each `lumaStride` wide: U and V of a row pair's upper row,
    /// then of its lower row.
    let upsampled: UnsafeMutablePointer<UInt8>
    private let lumaCount: Int
    private let chromaCount: Int

    init(macroblocksWide: Int, macroblocksHigh: Int) {
        lumaStride = macroblocksWide * 16
        chromaStride = macroblocksWide * 8
        lumaCount = lumaStride * macroblocksHigh * 16
        chromaCount = chromaStride * macroblocksHigh * 8
        func zeroed(_ count: Int) -> UnsafeMutablePointer<UInt8> {
            let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
            pointer.initialize(repeating: 0, count: count)
            return pointer
        }
        // Not zeroed: reconstruction writes every byte of a macroblock row (padding included)
        // before the loop filter or the output reads it.
        y = .allocate(capacity: lumaCount)
        u = .allocate(capacity: chromaCount)
        v = .allocate(capacity: chromaCount)
        topY = zeroed(lumaStride)
        topU = zeroed(chromaStride)
        topV = zeroed(chromaStride)
        workY = zeroed(Self.workStride * 17)
        workU = zeroed(Self.workStride * 9)
        workV = zeroed(Self.workStride * 9)
        upsampled = zeroed(4 * lumaStride)
    }

    deinit {
        for pointer in [y, u, v, topY, topU, topV, workY, workU, workV, upsampled] { pointer.deallocate() }
    }
}
