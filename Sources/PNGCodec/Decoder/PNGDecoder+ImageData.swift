import Deflate
import ImageCore

/// The IDAT side of the decoder: one zlib stream across all IDAT chunks (PNG 10.1), inflated as
/// it arrives into the ``ScanlineDecoder``.
extension PNGDecoder {
    /// Sets up the inflater and the scanline stage at the first IDAT, when the pixel format is final.
    func startImageData(at offset: Int) throws {
        guard scanlines == nil else { return }
        guard let ihdr, let layout else {
            throw ImageDecodingError(.internal, at: offset, "IDAT admitted before IHDR was parsed")
        }
        guard let stage = ScanlineDecoder(header: ihdr, layout: layout, palette: palette,
                                          key: hasTransparency ? transparencyKey : nil) else {
            throw ImageDecodingError(.limitExceeded, at: offset,
                                     "PNG image \(ihdr.width)×\(ihdr.height) is too large to hold in memory")
        }
        // The image needs exactly `expectedBytes`; allow `maxInflateOutput` beyond that, then stop a zlib bomb.
        let (cap, overflow) = stage.expectedBytes.addingReportingOverflow(options.limits.maxInflateOutput)
        inflater = Inflater(format: .zlib, options: InflateOptions(verifyChecksums: options.verifyChecksums,
                                                                  maxOutputBytes: overflow ? Int.max : cap,
                                                                  rejectTrailingData: false))
        scanlines = stage
    }

    /// Inflates IDAT data found at file offset `offset` and hands the rows on.
    func inflate(_ data: UnsafeRawBufferPointer, at offset: Int) throws {
        guard let inflater, let scanlines else { return }
        // Bytes after the end of the zlib stream are ignored, as libpng does ("extra compressed data").
        guard !inflater.isFinished else { return }
        let consumedBefore = inflater.totalIn
        do {
            let result = try inflater.feed(data) { piece in try scanlines.consume(piece) }
            if result == .streamEnd && !scanlines.isComplete {
                throw ImageDecodingError(.invalidData, at: offset + max(0, inflater.totalIn - consumedBefore),
                                         "PNG image data ends after \(scanlines.rowsDecoded) rows; the image needs more")
            }
        } catch let error as InflateError {
            let position = offset + min(max(0, error.offset - consumedBefore), data.count)
            throw ImageDecodingError(inflate: error, fileOffset: position)
        } catch var error as ImageDecodingError {
            if error.offset == nil { error.offset = offset + min(max(0, inflater.totalIn - consumedBefore), data.count) }
            throw error
        }
    }

    /// Called when the first chunk after the IDAT sequence arrives: all rows must be there
    /// and the zlib stream must have ended (with its Adler-32 checked).
    func checkImageDataComplete(at offset: Int) throws {
        guard let inflater, let scanlines, !inflater.isFinished || !scanlines.isComplete else { return }
        if !inflater.isFinished {
            throw ImageDecodingError(.invalidData, at: offset,
                                     "PNG image data (zlib stream) is unfinished when the IDAT chunks end (\(scanlines.rowsDecoded) rows decoded)")
        }
        throw ImageDecodingError(.invalidData, at: offset,
                                 "PNG image data ends after \(scanlines.rowsDecoded) rows; the image needs more")
    }

    /// The error `finish()` throws when IEND was not reached.
    func truncationError() -> ImageDecodingError {
        let end = input.totalAppended
        guard let scanlines else {
            return ImageDecodingError(.truncated, at: end, header == nil
                                      ? "the PNG file ends before its header is complete"
                                      : "the PNG file ends before any image data")
        }
        if scanlines.isComplete {
            return ImageDecodingError(.truncated, at: end, "the PNG file ends after the image data but before IEND")
        }
        return ImageDecodingError(.truncated, at: end,
                                  "the PNG file ends inside the image data (\(scanlines.rowsDecoded) rows decoded)")
    }
}
