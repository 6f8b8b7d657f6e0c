import ImageCore

/// What the decoder does with a chunk after the ordering rules are checked.
enum ChunkDisposition: Equatable {
    /// Parse and use it.
    case process
    /// Skip it (checking its CRC); the string says why, for ``PNGDecoder/warnings``.
    case ignore(String)
}

/// Enforces the chunk ordering rules of PNG 5.6 (Table 5.3).
///
/// Breaking a rule about a critical chunk is an error: the image would be ambiguous.
/// A misplaced or repeated ancillary chunk is skipped with a warning, as libpng does
/// ("benign errors"), because a viewer can still show the picture correctly.
struct ChunkOrder {
    private(set) var sawIHDR = false
    private(set) var sawPLTE = false
    private(set) var sawIDAT = false
    /// A non-IDAT chunk came after the first IDAT: the IDAT sequence is over.
    private(set) var idatSequenceEnded = false
    private var seenOnce: Set<ChunkType> = []

    /// Chunks that must come before PLTE and IDAT, at most once (PNG 5.6).
    private static let beforePLTE: Set<ChunkType> = [.gAMA, .cHRM, .sRGB, .iCCP, .sBIT]
    /// Chunks that must come after PLTE (if any) and before IDAT, at most once.
    private static let afterPLTE: Set<ChunkType> = [.tRNS, .bKGD]
    /// Chunks that must come before IDAT, at most once.
    private static let beforeIDAT: Set<ChunkType> = [.pHYs]
    /// Chunks allowed anywhere but at most once (later copies are ignored).
    private static let once: Set<ChunkType> = [.tIME, .eXIf]
    /// Every chunk type of which only the first copy counts.
    private static let single = beforePLTE.union(afterPLTE).union(beforeIDAT).union(once)

    /// Checks `chunk` against what came before and records it.
    mutating func admit(_ chunk: ChunkHeader, colorType: PNGColorType?) throws -> ChunkDisposition {
        let type = chunk.type
        guard sawIHDR else {
            guard type == .IHDR else {
                throw ImageDecodingError(.invalidData, at: chunk.offset, "the first PNG chunk is \(type), expected IHDR")
            }
            sawIHDR = true
            return .process
        }
        if sawIDAT && type != .IDAT { idatSequenceEnded = true }
        switch type {
        case .IHDR:
            throw ImageDecodingError(.invalidData, at: chunk.offset, "a second IHDR chunk")
        case .IDAT:
            if idatSequenceEnded {
                throw ImageDecodingError(.invalidData, at: chunk.offset,
                                         "an IDAT chunk after other chunks ended the IDAT sequence (PNG 5.6: IDATs must be consecutive)")
            }
            if colorType == .palette && !sawPLTE {
                throw ImageDecodingError(.invalidData, at: chunk.offset, "palette image has no PLTE chunk before its IDAT")
            }
            sawIDAT = true
            return .process
        case .IEND:
            guard sawIDAT else {
                throw ImageDecodingError(.invalidData, at: chunk.offset, "IEND reached without any IDAT chunk: the file has no image data")
            }
            return .process
        case .PLTE:
            if sawPLTE { throw ImageDecodingError(.invalidData, at: chunk.offset, "a second PLTE chunk") }
            if sawIDAT { return .ignore("PLTE after IDAT") }
            sawPLTE = true
            if colorType == .gray || colorType == .grayAlpha { return .ignore("PLTE in a gray image") }
            return .process
        default:
            break
        }
        guard !type.isCritical else {
            throw ImageDecodingError(.unsupported, at: chunk.offset + 4, "unknown critical PNG chunk \(type)")
        }
        if ChunkOrder.beforePLTE.contains(type) && (sawPLTE || sawIDAT) { return .ignore("\(type) after PLTE or IDAT") }
        if ChunkOrder.afterPLTE.contains(type) {
            if sawIDAT { return .ignore("\(type) after IDAT") }
            if colorType == .palette && !sawPLTE { return .ignore("\(type) before PLTE") }
        }
        if ChunkOrder.beforeIDAT.contains(type) && sawIDAT { return .ignore("\(type) after IDAT") }
        if ChunkOrder.single.contains(type) {
            if seenOnce.contains(type) { return .ignore("a second \(type) chunk") }
            seenOnce.insert(type)
        }
        return .process
    }
}
