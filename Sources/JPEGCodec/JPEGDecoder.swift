import ColorManagement
import ImageCore

/// An incremental decoder for sequential (baseline and extended) and progressive JPEG (8-bit and
/// 12-bit; Huffman, or arithmetic coding for 8-bit) and lossless JPEG (2–16 bits) whose pixels are
/// identical to libjpeg-turbo's (`djpeg` defaults for 8-bit; libjpeg-turbo 3 for 12-bit, as
/// gray16/rgb16 holding 12-bit values, and for lossless, unscaled samples in gray8/rgb8 up to 8
/// bits, else gray16/rgb16): accurate integer IDCT, triangle ("fancy") upsampling for 2:1 ratios,
/// its YCbCr → RGB arithmetic, and CMYK → RGB as djpeg writes it. ``DecodingOptions/scale`` 1/2,
/// 1/4 and 1/8 use reduced IDCTs, like `djpeg -scale`.
///
/// Feed bytes as they arrive; each MCU row is decoded as soon as its data is buffered. Sequential
/// files write each row to the picture at once, and ``currentImage()`` shows the rows so far (the
/// rest blank). Progressive files keep every coefficient and ``currentImage()`` draws the whole
/// picture from what has arrived, re-rendering only the rows changed since the last call, with
/// missing low-frequency coefficients estimated from neighbouring blocks (T.81 K.8); the status
/// counts completed scans. Work is O(total bytes) however the input is split
/// (``inputBytesExamined`` counts it).
///
/// Corrupt entropy-coded data is decoded the way libjpeg decodes it (missing data reads as
/// zeros, lost restart intervals come out gray) and noted in ``warnings``; ``finish()`` then
/// throws the first such problem after the picture is complete. Structural errors are thrown at
/// once and are sticky; ``currentImage()`` keeps what was decoded before.
public final class JPEGDecoder: IncrementalImageDecoder {
    /// Where the parser stands; a case carries the state that holds only in it.
    enum Phase {
        /// Waiting for SOI.
        case signature
        /// Between marker segments, looking for the next marker.
        case markers
        /// Waiting for the whole segment of `marker`, whose 0xFF is at stream offset `offset`.
        case segment(marker: UInt8, offset: Int)
        /// Inside the entropy-coded data of a scan.
        case scan(ActiveScan)
        /// EOI seen; later bytes are ignored.
        case done
        /// An error was thrown; it is thrown again.
        case failed(ImageDecodingError)
    }

    let options: DecodingOptions
    let input = InputBuffer()
    var phase = Phase.signature
    var inputComplete = false
    /// Extraneous bytes skipped while looking for the next marker.
    var skippedBytes = 0

    // Tables and parameters from marker segments.
    var quantizationTables = QuantizationTables()
    var huffmanTables = HuffmanTableSlots()
    var arithmeticConditioning = ArithmeticConditioning()
    var restartInterval = 0
    /// Set by the frame header (SOF).
    var frameState: FrameState?
    var sawJFIF = false
    var adobeTransform: UInt8?
    var sawExif = false
    /// The Exif thumbnail's bytes (a range of its APP1 segment, copied), kept until SOF says
    /// which format to decode them in.
    var thumbnailBytes: [UInt8]?
    /// The decoded Exif thumbnail, shown in rows not decoded yet.
    var thumbnail: Image?
    var orientation = Orientation.up
    var iccAssembler = ICCProfileAssembler()
    var iccProfile: [UInt8]?

    // Decoding state.
    var scansStarted = 0
    var scansCompleted = 0
    /// Set up by the first scan: how decoded data becomes the picture.
    var assembly: PictureAssembly?
    /// Progressive files on two threads: scans with less data than this stay on this thread
    /// (tests and the fuzz target lower it for small files).
    package var minimumHandOverBytes = ScanWorker.minimumScanBytes
    /// The number of the last scan finished in file order (here or on the worker).
    var lastFinishedScan = 0
    /// Times a DCT scan's entropy decoder ran on this thread, and the batches of MCUs those runs
    /// decoded (statistics for tests: fed a byte at a time, both stay far below the MCU count).
    package internal(set) var scanRuns = 0
    package internal(set) var mcuBatches = 0
    /// Times the parser ran (statistics for tests: fed a byte at a time, once per 4 KiB of a
    /// long marker segment, not per byte).
    package internal(set) var parserRuns = 0
    /// Multi-scan sequential and 12-bit sequential pictures: iMCU rows changed since they were
    /// last rendered.
    var dirtyIMCURows: Range<Int>?
    /// The first warning that changed pixels; ``finish()`` throws it.
    var firstPixelDamage: ImageDecodingError?

    // Output.
    /// The picture being decoded (empty before SOF); handed out without copying, so a write after
    /// ``currentImage()`` copies it once (copy-on-write) and the returned image stays as it was.
    /// It is not zeroed up front (18 MB of stores for a 6 Mpix image): rows are written top down,
    /// so rows from `canvasRowsWritten` on are zeroed only when a picture is handed out.
    var canvas: [UInt8] = []
    /// Rows `0 ..< canvasRowsWritten` of `canvas` hold written (or zeroed) pixels.
    var canvasRowsWritten = 0
    /// Where rows go: `canvas`, or the caller's memory during ``decode(_:into:bytesPerRow:)``.
    var output = OutputTarget.ownPicture
    var naturalFormat = PixelFormat.rgb8
    var previewGeneration = 0
    var changedSinceLastCall = false
    /// The conversion to sRGB when ``DecodingOptions/colorSpace`` asks for it.
    var colorOutput: SRGBOutputStage
    /// Small pieces inside a scan (1 byte at a time, say) usually cannot complete an MCU. When the
    /// scan decoder stopped for want of bytes with no marker ahead, this is how many more bytes
    /// can arrive before running it could decode anything; pieces shorter than that which hold
    /// no 0xFF (so no marker can end the segment early) are only buffered, without running the
    /// parser, which would change nothing. Likewise inside a marker segment (an Exif or ICC
    /// APPn of tens of KB, say), which is parsed only once all of it is there: the bytes up to
    /// its end. The phase the budget was set in stays while it lasts (only the parser changes
    /// it), and tells the two apart: a scan's held bytes are counted as examined when they reach
    /// `input` (the scan decoder does not count them again) and a 0xFF among them may start a
    /// marker; a segment's are counted when it is parsed, and a 0xFF in it is data. 0 in every
    /// other state (after an error too).
    var bufferOnlyBudget = 0
    /// `bufferOnlyBudget` when it was set: the bytes only buffered since the parser last ran are
    /// the difference (counted in ``inputBytesExamined`` by `settleBufferedOnlyBytes()`, so a
    /// piece only buffered stores nothing else).
    var budgetGranted = 0
    /// The last byte only buffered is a 0xFF: a marker if the next byte is not 0x00, else a
    /// stuffed 0xFF data byte, which runs nothing (the scan decoder could not use it yet). The
    /// budget is 0 meanwhile, so the next piece comes to `feedAndDecode`, which looks at it;
    /// this is the budget left for after a 0x00.
    var budgetAfterFF: Int?
    /// The bytes only buffered since the parser last ran (`budgetGranted - bufferOnlyBudget` of
    /// them, never more than ``heldBytesCapacity``), handed to `input` by
    /// `settleBufferedOnlyBytes()` before anything reads it. Storing a byte here is one store;
    /// `InputBuffer.append(byte:)` is a call into another module (a quarter of the cost of a
    /// byte fed alone).
    let heldBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: JPEGDecoder.heldBytesCapacity)
    /// The most bytes a budget lets `heldBytes` take; a longer wait runs the parser once more.
    static let heldBytesCapacity = 4096

    /// Makes a decoder; see ``DecodingOptions`` for scaling, limits and the output format.
    public init(options: DecodingOptions = DecodingOptions()) {
        self.options = options
        colorOutput = SRGBOutputStage(options: options)
    }

    deinit {
        heldBytes.deallocate()
        // A worker may still be writing rows into `canvas`, which goes with this decoder.
        switch assembly {
        case .dct(_, .streaming(_, let pipeline?)):
            pipeline.waitForJobs()
        case .dct(_, .progressive(let preview, _, let worker)):
            _ = worker?.collect()
            preview.dropEarlyBand()
        default:
            break
        }
    }

    /// Known once the frame header (SOF) is parsed; orientation and ICC profile are filled in as
    /// their segments arrive. Width and height are those of the (scaled) output.
    public internal(set) var header: ImageHeader? {
        didSet { headerIsKnown = header != nil }
    }
    /// `header != nil`, kept apart so ``status`` (built on every feed) does not copy the header.
    private var headerIsKnown = false

    /// Input bytes looked at so far: each byte is examined a bounded number of times.
    public var inputBytesExamined: Int { bytesExaminedCount + (isInsideScan ? budgetGranted - bufferOnlyBudget : 0) }
    /// The storage behind ``inputBytesExamined``. Internal, so the whole-module optimizer sees
    /// every access and drops the dynamic exclusivity check that a public stored property keeps
    /// on each `+=` (about 75 instructions, once per piece fed: a third of the cost of feeding
    /// 1 byte at a time).
    var bytesExaminedCount = 0

    /// Problems decoding went past, like libjpeg's warnings: corrupt entropy-coded data,
    /// restart markers out of order, extraneous bytes between segments. Each has a byte offset.
    public internal(set) var warnings: [ImageDecodingError] = []

    /// ``completedRows`` as of the last time decoding or drawing ran (`noteCompletedRows()`):
    /// ``status`` is built after every piece fed, and most pieces are only buffered.
    var completedRowsCount = 0

    /// Where decoding stands.
    public var status: DecodingStatus {
        guard headerIsKnown else { return .awaitingHeader }
        let progress = DecodingProgress(completedRows: completedRowsCount, completedScans: scansCompleted, previewGeneration: previewGeneration)
        if case .done = phase { return .complete(progress) }
        return .decoding(progress)
    }

    /// Appends `bytes` and decodes as far as they allow.
    @discardableResult
    public func feed(_ bytes: UnsafeRawBufferPointer) throws -> DecodingStatus {
        // Cannot complete an MCU nor end the segment: only buffered (see `bufferOnlyBudget`).
        if bytes.count < bufferOnlyBudget {
            let held = budgetGranted - bufferOnlyBudget
            if bytes.count == 1 {
                let byte = bytes[0]
                heldBytes[held] = byte
                bufferOnlyBudget -= 1
                if byte == 0xFF && isInsideScan {
                    // Waits for the byte after it (see `budgetAfterFF`).
                    budgetAfterFF = bufferOnlyBudget
                    budgetGranted -= bufferOnlyBudget
                    bufferOnlyBudget = 0
                }
                return statusOfHeldPiece
            } else if !isInsideScan || !Self.holdsFF(bytes) {
                if let base = bytes.baseAddress {
                    UnsafeMutableRawPointer(heldBytes + held).copyMemory(from: base, byteCount: bytes.count)
                }
                bufferOnlyBudget -= bytes.count
                return statusOfHeldPiece
            }
        }
        return try feedAndDecode(bytes)
    }

    /// ``status`` with fewer checks, for pieces only buffered: a budget is only set inside a
    /// scan (the header known) or a marker segment, so decoding is not done.
    private var statusOfHeldPiece: DecodingStatus {
        jpegInvariant(isInsideScan || isInsideSegment, "a buffer-only budget outside a scan or segment")
        guard headerIsKnown else { return .awaitingHeader }
        return .decoding(DecodingProgress(completedRows: completedRowsCount, completedScans: scansCompleted,
                                          previewGeneration: previewGeneration))
    }

    /// Hands the bytes only buffered since the parser last ran to `input`, counts them as
    /// examined and ends the budget; returns how many there were.
    @discardableResult
    private func settleBufferedOnlyBytes() -> Int {
        let buffered = budgetGranted - bufferOnlyBudget
        jpegInvariant(buffered >= 0 && buffered <= Self.heldBytesCapacity, "\(buffered) bytes held past the buffer")
        if buffered > 0 { input.append(UnsafeRawBufferPointer(start: heldBytes, count: buffered)) }
        if isInsideScan { bytesExaminedCount += buffered }
        budgetGranted = 0
        bufferOnlyBudget = 0
        budgetAfterFF = nil
        return buffered
    }

    /// ``feed(_:)`` for a piece that may let decoding go on. Out of line, so the path that only
    /// buffers (most pieces, fed a byte at a time) saves no registers for this one.
    @inline(never)
    private func feedAndDecode(_ bytes: UnsafeRawBufferPointer) throws -> DecodingStatus {
        if let budget = budgetAfterFF, budget > 1, bytes.count == 1, bytes[0] == 0 {
            // 0xFF 0x00: a data byte; the budget goes on (one byte less).
            budgetAfterFF = nil
            heldBytes[budgetGranted - bufferOnlyBudget] = 0
            bufferOnlyBudget = budget - 1
            budgetGranted += budget
            return statusOfHeldPiece
        }
        let bufferedOnly = settleBufferedOnlyBytes()
        switch phase {
        case .failed(let error):
            throw error
        case .done:
            return status
        case .scan(.dct(let scan)) where bufferedOnly > 0:
            // Those bytes were examined already (0xFF only as 0xFF 0x00, which holds no marker);
            // the last one is left for the look-ahead.
            scan.decoder.noteMarkerFree(upTo: input.totalAppended - 1)
        default:
            break
        }
        input.append(bytes)
        try advance()
        if case .scan(.dct(let scan)) = phase, let until = scan.decoder.waitsForBytesUntil, input.readable.last != 0xFF {
            bufferOnlyBudget = min(until - input.totalAppended, Self.heldBytesCapacity)
            budgetGranted = bufferOnlyBudget
        } else if let until = segmentEnd {
            bufferOnlyBudget = min(until - input.totalAppended, Self.heldBytesCapacity)
            budgetGranted = bufferOnlyBudget
        }
        return status
    }

    /// Declares the end of input: decodes what is buffered (missing data reads as zeros, as in
    /// libjpeg) and returns the picture, or throws `truncated` if EOI never came, or the first
    /// warning that changed pixels. ``currentImage()`` returns the picture in every case.
    public func finish() throws -> Image {
        try finishInput()
        guard let image = currentImage() else {
            throw ImageDecodingError(.internal, at: input.consumedOffset, "JPEG decoded without a header")
        }
        return image
    }

    /// Decodes what is buffered as the end of input; throws like ``finish()``.
    func finishInput() throws {
        if case .failed(let error) = phase { throw error }
        settleBufferedOnlyBytes()
        inputComplete = true
        try advance()
        guard case .done = phase else {
            let error = truncationError()
            fail(error)
            throw error
        }
        if let firstPixelDamage { throw firstPixelDamage }
    }

    /// The picture so far, nil before the frame header (and after ``decode(_:into:bytesPerRow:)``,
    /// whose picture is the caller's).
    public func currentImage() -> Image? {
        guard let header, case .ownPicture = output else { return nil }
        drainPipeline()
        renderDirtyRows()
        if canvasRowsWritten < header.height {
            let rowBytes = header.width * naturalFormat.bytesPerPixel
            canvas.withUnsafeMutableBufferPointer { pixels in
                guard let base = pixels.baseAddress else { return }
                if let thumbnail {
                    ExifThumbnail.fill(base, width: header.width, height: header.height,
                                       rows: canvasRowsWritten..<header.height, from: thumbnail)
                } else {
                    (base + canvasRowsWritten * rowBytes).update(repeating: 0, count: (header.height - canvasRowsWritten) * rowBytes)
                }
            }
            canvasRowsWritten = header.height
        }
        noteCompletedRows()
        let image = convertedForOutput(Image(width: header.width, height: header.height, format: naturalFormat, pixels: canvas,
                                             orientation: orientation, iccProfile: iccProfile))
        return header.pixelFormat == image.format ? image : image.converted(to: header.pixelFormat)
    }

    /// Whether the parser is inside a scan's entropy-coded data.
    private var isInsideScan: Bool {
        if case .scan = phase { return true }
        return false
    }

    /// Whether the parser waits for the rest of a marker segment.
    private var isInsideSegment: Bool {
        if case .segment = phase { return true }
        return false
    }

    /// The stream offset by which the marker segment the parser waits for is complete (its
    /// length field's 2 bytes while they are not both buffered); nil outside a segment and for
    /// a length below 2, which the parser handles as soon as it sees it.
    private var segmentEnd: Int? {
        guard case .segment = phase else { return nil }
        let bytes = input.readable
        guard bytes.count >= 2 else { return input.consumedOffset + 2 }
        let length = Int(bytes[0]) << 8 | Int(bytes[1])
        return length >= 2 ? input.consumedOffset + length : nil
    }

    /// Whether `bytes` hold a 0xFF byte.
    private static func holdsFF(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
        for index in 0..<bytes.count where base[index] == 0xFF { return true }
        return false
    }

    /// Runs the parser, turning any error into a sticky failure.
    private func advance() throws {
        parserRuns += 1
        changedSinceLastCall = false
        defer { noteCompletedRows() }
        do {
            try process()
            // Scans still on the worker: a decoder is never left with one in flight.
            try joinScanWorker()
        } catch let error as ImageDecodingError {
            throw failAfterJoining(error)
        } catch {
            throw failAfterJoining(ImageDecodingError(.internal, at: input.consumedOffset, "unexpected error: \(error)"))
        }
        if changedSinceLastCall { previewGeneration += 1 }
    }

    /// Fails with `error` once the worker's scans are done and merged (an error one of them met
    /// earlier in the file comes first); returns the error the decoder failed with.
    private func failAfterJoining(_ error: ImageDecodingError) -> ImageDecodingError {
        var first = error
        do {
            try joinScanWorker()
        } catch let jobError as ImageDecodingError {
            if (jobError.offset ?? 0) < (error.offset ?? 0) { first = jobError }
        } catch {}
        fail(first)
        return first
    }

    func fail(_ error: ImageDecodingError) {
        settleBufferedOnlyBytes()
        if changedSinceLastCall { previewGeneration += 1; changedSinceLastCall = false }
        var lastGoodMCU: Int?
        if case .scan(.dct(let scan)) = phase {
            // An error inside a run of MCUs (decoded together, at most to the end of their MCU
            // row) may have changed blocks that `nextMCU` does not count yet.
            let decoder = scan.decoder
            let rowEnd = min((decoder.nextMCU / max(decoder.mcusPerRow, 1) + 1) * decoder.mcusPerRow, decoder.mcuCount)
            lastGoodMCU = decoder.lastGoodMCU
            switch scan.drawing {
            case .progressive(let preview, _, _):
                preview.reach(decodedMCUs: rowEnd)
            case .multiScan, .twelveBit:
                if decoder.nextMCU < rowEnd { markDirtyIMCURows(decodedMCUs: decoder.nextMCU..<rowEnd, of: scan) }
            case .streaming:
                break
            }
        }
        // The last picture: every row smoothed for the coefficients as they finally are, as
        // libjpeg draws an incomplete file (a scan cut short left some rows drawn before it).
        if let preview, preview.endEarly(lastGoodMCU: lastGoodMCU) { previewGeneration += 1 }
        phase = .failed(error)
        noteCompletedRows()
    }

    /// Records a problem decoding went past; `affectsPixels` problems make ``finish()`` throw.
    func warn(_ error: ImageDecodingError, affectsPixels: Bool) {
        if affectsPixels && firstPixelDamage == nil { firstPixelDamage = error }
        // Keep the list bounded for files with thousands of damaged intervals.
        if warnings.count < 100 { warnings.append(error) }
    }

    private func truncationError() -> ImageDecodingError {
        let offset = input.totalAppended
        guard header != nil else {
            return ImageDecodingError(.truncated, at: offset, "JPEG data ends before the frame header (SOF)")
        }
        if case .scan = phase {
            return ImageDecodingError(.truncated, at: offset, "JPEG data ends inside scan \(scansStarted)")
        }
        return ImageDecodingError(.truncated, at: offset, "JPEG data ends before the end-of-image marker (EOI)")
    }
}
