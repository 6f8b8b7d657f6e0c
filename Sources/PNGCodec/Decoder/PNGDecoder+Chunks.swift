import Deflate
import ImageCore

/// What each whole chunk does to the decoder: IHDR, PLTE, tRNS, IEND and the metadata chunks.
extension PNGDecoder {
    /// Uses a whole buffered chunk whose CRC matched.
    func process(_ chunk: ChunkHeader, _ data: UnsafeRawBufferPointer) throws {
        switch chunk.type {
        case .IHDR:
            let parsed = try IHDRChunk.parse(data, at: chunk.dataOffset, limits: options.limits)
            ihdr = parsed
            refreshHeader()
        case .PLTE:
            guard let ihdr else { return }
            palette = try Palette(plte: data, at: chunk.dataOffset, bitDepth: ihdr.bitDepth)
        case .IEND:
            stage = .finished
        case .tRNS:
            readTransparency(chunk, data)
        case .acTL, .fcTL:
            processAnimationChunk(chunk, data)
        default:
            guard let ihdr else { return }
            let disposition = try metadataReader.read(chunk.type, data, at: chunk.dataOffset,
                                                      colorType: ihdr.colorType, bitDepth: ihdr.bitDepth)
            if case .ignore(let reason) = disposition { warn(chunk, reason) }
            refreshHeader()
        }
    }

    /// tRNS (PNG 11.3.2.1): palette alphas or a gray/RGB colour key; not allowed with an alpha channel.
    func readTransparency(_ chunk: ChunkHeader, _ data: UnsafeRawBufferPointer) {
        guard let ihdr else { return }
        switch ihdr.colorType {
        case .palette:
            guard palette?.applyTransparency(data) == true else {
                return warn(chunk, "tRNS has \(data.count) entries; a palette image needs 1 ... \(palette?.count ?? 0)")
            }
        case .gray, .rgb:
            guard let key = TransparencyKey(data, colorType: ihdr.colorType, bitDepth: ihdr.bitDepth) else {
                return warn(chunk, "tRNS is \(data.count) bytes, wrong for a \(ihdr.colorType.name) image")
            }
            transparencyKey = key
        case .grayAlpha, .rgba:
            return warn(chunk, "tRNS in an image that has an alpha channel")
        }
        hasTransparency = true
        refreshHeader()
    }

    /// Checks a chunk's CRC-32 (PNG 5.3: over type and data) unless checks are off. A mismatch
    /// in a critical chunk is an error; in an ancillary chunk it is a warning (with the CRC's
    /// offset) and the chunk is dropped, as libpng does by default (`PNG_CRC_DEFAULT`): browsers
    /// show such files. Returns whether the chunk may be used.
    func crcMatches(_ chunk: ChunkHeader, stored: UInt32) throws -> Bool {
        guard options.verifyChecksums else { return true }
        let computed = chunkCRC.value
        guard computed != stored else { return true }
        let error = ImageDecodingError(.checksumMismatch, at: chunk.crcOffset,
                                       "PNG \(chunk.type) chunk CRC is \(hex32(stored)), computed \(hex32(computed))")
        guard !chunk.type.isCritical else { throw error }
        warnings.append(ImageDecodingError(.checksumMismatch, at: chunk.crcOffset, error.message + "; the ancillary chunk is skipped"))
        return false
    }

    func warn(_ chunk: ChunkHeader, _ reason: String) {
        warnings.append(ImageDecodingError(.invalidData, at: chunk.offset, "PNG \(chunk.type) skipped: \(reason)"))
    }

    /// Publishes the header (and bumps the preview generation when what it says changes).
    func refreshHeader() {
        guard let ihdr else { return }
        let newLayout = OutputLayout(header: ihdr, hasTransparency: hasTransparency, preferred: options.preferredFormat)
        let meta = metadataReader.metadata
        let newHeader = ImageHeader(fileFormat: .png, width: ihdr.width, height: ihdr.height,
                                    pixelFormat: newLayout.delivered, bitDepth: ihdr.bitDepth,
                                    isProgressive: ihdr.isInterlaced, orientation: meta.orientation,
                                    iccProfile: meta.iccProfile)
        // After image data starts the canvas format is fixed: a late tRNS was already refused by the ordering rules.
        if scanlines == nil { layout = newLayout }
        if newHeader != header {
            header = newHeader
            previewGeneration += 1
        }
    }

    func signatureError(_ found: UnsafeRawBufferPointer) -> ImageDecodingError {
        let (offset, message) = PNGSignature.describeMismatch(found)
        return ImageDecodingError(.invalidSignature, at: offset, message)
    }
}
