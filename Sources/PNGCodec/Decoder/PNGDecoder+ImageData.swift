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
        guard let stream = ImageDataStream(header: ihdr, layout: layout, palette: palette,
                                           key: hasTransparency ? transparencyKey : nil, options: options,
                                           twoThreads: usesTwoThreads(for: ihdr)) else {
            throw ImageDecodingError(.limitExceeded, at: offset,
                                     "PNG image \(ihdr.width)×\(ihdr.height) is too large to hold in memory")
        }
        inflater = stream.inflater
        scanlines = stream.scanlines
        // Previews follow rows; an Adam7 image's narrowest are pass 1's, an eighth of the width.
        let rowWidth = ihdr.isInterlaced ? (ihdr.width + 7) / 8 : ihdr.width
        handOver.start(filteredBytes: stream.scanlines.expectedBytes, rowBytes: (ihdr.rowBytes(width: rowWidth) ?? 0) &+ 1)
    }

    /// Whether to draw rows on a worker thread: when allowed and the image is large enough to pay.
    func usesTwoThreads(for header: IHDRChunk) -> Bool {
        let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        return options.maximumThreads > 1 && (overflow || pixels >= twoThreadMinimumPixels)
    }

    /// At the end of input: inflates the IDAT bytes still waiting for their hand-over point
    /// (see ``ImageDataHandOver``), so that a file cut short shows every row its bytes hold.
    /// Throws (and keeps) an error those bytes reveal.
    func handOverWaitingImageData() throws {
        guard handOver.waitingCount > 0, case .imageData(let chunk, let remaining) = stage else { return }
        try decodingStep {
            input.skipUnbuffered(handOver.takeUncounted())
            let data = handOver.waitingBytes
            try streamImageData(chunk, remaining: remaining, from: data, count: data.count, at: input.consumedOffset - data.count)
            handOver.clear()
        }
    }

    /// Inflates IDAT data found at file offset `offset` and hands the rows on.
    func inflate(_ data: UnsafeRawBufferPointer, at offset: Int) throws {
        guard let inflater, let scanlines else { return }
        try ImageDataStream(inflater: inflater, scanlines: scanlines).inflate(data, at: offset)
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
