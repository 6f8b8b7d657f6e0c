import ImageCore

/// One `ANMF` chunk (WebP container spec, "Animation"): where the frame goes, how long it
/// shows, how it is blended and disposed, and its image chunks.
///
/// Layout: X offset / 2 (24 bits), Y offset / 2 (24), width - 1 (24), height - 1 (24),
/// duration in ms (24), a flags byte (bit 1: do not blend, bit 0: dispose to background), then
/// the frame's chunks: optional `ALPH`, then `VP8 ` or `VP8L` (unknown chunks are skipped).
struct AnimationFrameChunk {
    /// The fixed part before the frame's chunks.
    static let headerSize = 16

    let x: Int
    let y: Int
    let width: Int
    let height: Int
    let durationMilliseconds: Int
    let blends: Bool
    let disposesToBackground: Bool
    /// The image bitstream chunk and its alpha, if any.
    let image: RIFFChunkHeader
    let alpha: [UInt8]?

    /// Parses the first `payload.count` bytes of an ANMF payload of `declaredSize` bytes (which
    /// starts at file offset `offset`) and checks the frame against the canvas (libwebp's demuxer
    /// rules). Nil while the image chunk's header, or an ALPH chunk before it, has not all arrived.
    static func parse(_ payload: [UInt8], declaredSize: Int, at offset: Int, canvasWidth: Int,
                      canvasHeight: Int) throws(ImageDecodingError) -> AnimationFrameChunk? {
        guard declaredSize >= headerSize else {
            throw ImageDecodingError(.invalidData, at: offset, "ANMF chunk of \(declaredSize) bytes is shorter than its 16-byte header")
        }
        guard payload.count >= headerSize else { return nil }
        let fields = payload.withUnsafeBytes { raw in
            (littleEndian24(raw, 0) * 2, littleEndian24(raw, 3) * 2, littleEndian24(raw, 6) + 1,
             littleEndian24(raw, 9) + 1, littleEndian24(raw, 12), raw[15])
        }
        let (x, y, width, height) = (fields.0, fields.1, fields.2, fields.3)
        guard x + width <= canvasWidth, y + height <= canvasHeight else {
            throw ImageDecodingError(.invalidData, at: offset,
                                     "animation frame \(width)×\(height) at (\(x), \(y)) does not fit the \(canvasWidth)×\(canvasHeight) canvas")
        }
        var position = headerSize
        var alphaBytes: [UInt8]?
        while position + RIFFChunkHeader.byteCount <= payload.count {
            let chunk = payload.withUnsafeBytes { RIFFChunkHeader(UnsafeRawBufferPointer(rebasing: $0[position...]), at: offset + position) }
            let start = position + RIFFChunkHeader.byteCount
            guard chunk.size <= declaredSize - start else {
                throw ImageDecodingError(.invalidData, at: offset + position,
                                         "\(chunk.tag) chunk of \(chunk.size) bytes runs past its ANMF chunk")
            }
            switch chunk.tag {
            case .alph:
                guard start + chunk.size <= payload.count else { return nil }
                alphaBytes = Array(payload[start..<(start + chunk.size)])
            case .vp8, .vp8l:
                return AnimationFrameChunk(x: x, y: y, width: width, height: height, durationMilliseconds: fields.4,
                                           blends: fields.5 & 2 == 0, disposesToBackground: fields.5 & 1 == 1,
                                           image: chunk, alpha: chunk.tag == .vp8 ? alphaBytes : nil)
            default:
                break
            }
            position = start + chunk.paddedSize
        }
        guard payload.count < declaredSize else {
            throw ImageDecodingError(.invalidData, at: offset, "ANMF chunk holds no VP8 or VP8L image")
        }
        return nil
    }

    /// The image chunk's payload inside the ANMF payload.
    func imagePayloadRange(anmfOffset: Int) -> Range<Int> {
        let start = image.payloadOffset - anmfOffset
        return start..<(start + image.size)
    }
}
