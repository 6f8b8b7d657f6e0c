import Deflate
import ImageCore

/// One zlib stream of image data inflated into its ``ScanlineDecoder``: the IDAT sequence of the
/// default image (PNG 10.1), or the fdAT chunks of one APNG frame (which the APNG spec defines
/// the same way, for an image of the frame's size).
struct ImageDataStream {
    let inflater: Inflater
    let scanlines: any ScanlineStage

    /// Whether the zlib stream has ended (Adler-32 checked) and every row arrived.
    var isComplete: Bool { inflater.isFinished && scanlines.isComplete }

    init(inflater: Inflater, scanlines: any ScanlineStage) {
        self.inflater = inflater
        self.scanlines = scanlines
    }

    /// Sets up the stages for an image of `header`'s size; nil if its buffers' sizes overflow.
    /// `twoThreads`: rows are unfiltered and drawn on a worker thread (``ScanlinePipeline``).
    init?(header: IHDRChunk, layout: OutputLayout, palette: Palette?, key: TransparencyKey?, options: DecodingOptions,
          twoThreads: Bool = false) {
        guard let rows = ScanlineDecoder(header: header, layout: layout, palette: palette, key: key) else { return nil }
        var scanlines: any ScanlineStage = rows
        if twoThreads, let pipeline = ScanlinePipeline(rows: rows, header: header) { scanlines = pipeline }
        // The image needs exactly `expectedBytes`; allow `maxInflateOutput` beyond that, then stop a zlib bomb.
        let (cap, overflow) = scanlines.expectedBytes.addingReportingOverflow(options.limits.maxInflateOutput)
        inflater = Inflater(format: .zlib, options: InflateOptions(verifyChecksums: options.verifyChecksums,
                                                                  maxOutputBytes: overflow ? Int.max : cap,
                                                                  rejectTrailingData: false))
        self.scanlines = scanlines
    }

    /// Inflates compressed data found at file offset `offset` and hands the rows on. Bytes after
    /// the end of the zlib stream are ignored, as libpng does ("extra compressed data").
    ///
    /// - Throws: the inflater's errors as ``ImageDecodingError``s at the file offset of the bad
    ///   byte; `invalidData` when the stream ends before the last row.
    func inflate(_ data: UnsafeRawBufferPointer, at offset: Int) throws {
        guard !inflater.isFinished else { return }
        let consumedBefore = inflater.totalIn
        do {
            var result = try inflater.feed(data) { piece in try scanlines.consume(piece) }
            // A hand-over decodes all it can at once (the inflater may keep a small piece's output
            // or bytes back for its next call): what is decoded depends only on the bytes fed.
            if result == .needsInput {
                try inflater.flush { piece in try scanlines.consume(piece) }
                if inflater.isFinished { result = .streamEnd }
            }
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
}
