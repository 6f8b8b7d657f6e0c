/// Decodes one VP8L image stream (RFC 9649 sections 4–7, everything after the 5-byte header:
/// transforms, codes, pixels) from windows of bytes that arrive over time, into final ARGB rows.
///
/// Used for the `VP8L` chunk (whole ARGB image) and for losslessly compressed `ALPH` data
/// (the green channel is alpha).
///
/// Work stays O(n) however the input is split:
/// - The header (transforms with their sub-images, prefix codes) is read all-or-nothing. A try
///   that runs out of bits is retried only once the window has doubled (or the chunk is
///   complete), so the retries cost at most twice the header's size.
/// - Pixels are decoded one symbol at a time while at least 60 bits (the longest symbol) are
///   available; the loop then stops and resumes at the same pixel with the next window.
/// - Each row is un-transformed once, as soon as its last pixel is decoded.
final class VP8LImageDecoder {
    /// Output width and height (after undoing colour-index packing).
    let width: Int
    let height: Int
    /// Receives each final ARGB row once, in order: (y, the row's `width` pixels).
    var rowSink: (Int, UnsafeMutableBufferPointer<UInt32>) -> Void = { _, _ in }
    /// Rows handed to ``rowSink`` so far.
    private(set) var completedRows = 0
    /// Bytes of input examined (loaded into the bit reader), for the O(n) proof.
    private(set) var bytesExamined = 0
    private let maxTableEntries: Int

    /// What the decoder waits for.
    private enum Stage {
        /// Reading transforms and codes; the last try saw `triedBytes` bytes.
        case header(triedBytes: Int)
        /// Decoding pixels.
        case pixels(PixelState)
        case complete
    }

    /// Everything the pixel loop and the row transforms need once the header is read.
    private final class PixelState {
        let codes: VP8LEntropyCodes
        var transforms: VP8LInverseTransforms
        /// Width of the coded pixels (narrower than the image when palette indices are packed).
        let codedWidth: Int
        var coded: [UInt32]
        var cache: [UInt32]
        var index = 0
        var row: [UInt32]

        init(codes: VP8LEntropyCodes, transforms: [VP8LTransform], codedWidth: Int, width: Int, height: Int) {
            self.codes = codes
            self.transforms = VP8LInverseTransforms(transforms: transforms, imageWidth: width)
            self.codedWidth = codedWidth
            // Only whole decoded rows are read (backward references reach decoded pixels only).
            coded = .unfilled(count: codedWidth * height)
            cache = [UInt32](repeating: 0, count: codes.cacheBits > 0 ? 1 << codes.cacheBits : 0)
            row = [UInt32](repeating: 0, count: width)
        }
    }

    private var stage = Stage.header(triedBytes: 0)
    private var reader = VP8LBitReader()

    /// Makes a decoder for a `width × height` image (sizes already checked against the limits).
    init(width: Int, height: Int, maxTableEntries: Int) {
        self.width = width
        self.height = height
        self.maxTableEntries = maxTableEntries
    }

    /// Whether every row is decoded.
    var isComplete: Bool {
        if case .complete = stage { return true }
        return false
    }

    /// Decodes as far as `window` (the next unread bytes of the stream) allows; `isFinal` says
    /// the window reaches the end of the stream. Returns how many bytes of the window were used:
    /// the caller drops exactly those and passes the rest (plus new bytes) next time.
    /// `force` tries the header even if the window has not doubled (the input has ended).
    func run(window: UnsafeRawBufferPointer, isFinal: Bool, force: Bool = false) throws(VP8LFailure) -> Int {
        switch stage {
        case .complete:
            return 0
        case .header(let triedBytes):
            guard isFinal || force || window.count >= 2 * triedBytes else { return 0 }
            var fresh = VP8LBitReader()
            fresh.attach(window)
            var codeReader = VP8LCodeReader(reader: fresh, maxTableEntries: maxTableEntries)
            let state: PixelState
            do {
                let header = try VP8LStreamHeader.read(&codeReader, width: width, height: height)
                state = PixelState(codes: header.codes, transforms: header.transforms, codedWidth: header.codedWidth,
                                   width: width, height: height)
            } catch .needMoreData {
                bytesExamined += codeReader.reader.position
                if isFinal { throw .invalid("VP8L data ends inside its transforms or prefix codes") }
                stage = .header(triedBytes: max(window.count, 1))
                return 0
            }
            reader = codeReader.reader
            stage = .pixels(state)
            // The header's bytes are counted with the pixels' (the reader's position covers both).
            return try decodePixels(state, isFinal: isFinal)
        case .pixels(let state):
            reader.attach(window)
            return try decodePixels(state, isFinal: isFinal)
        }
    }

    /// Runs the pixel loop on the attached window and un-transforms the finished rows.
    private func decodePixels(_ state: PixelState, isFinal: Bool) throws(VP8LFailure) -> Int {
        let outcome = state.coded.withUnsafeMutableBufferPointer { coded in
            state.cache.withUnsafeMutableBufferPointer { cache in
                VP8LPixelDecoder.decode(reader: &reader, codes: state.codes, width: state.codedWidth, pixels: coded,
                                        index: &state.index, cache: cache, stopEarly: !isFinal)
            }
        }
        let used = reader.position
        bytesExamined += used
        switch outcome {
        case .invalid(let message):
            throw .invalid(message)
        case .overran:
            finishRows(state, through: state.index / state.codedWidth)
            throw .invalid("VP8L data ends before the last pixel (pixel \(state.index) of \(state.coded.count))")
        case .suspended:
            finishRows(state, through: state.index / state.codedWidth)
        case .complete:
            finishRows(state, through: height)
            stage = .complete
        }
        return used
    }

    /// Un-transforms coded rows `completedRows ..< end` and hands them to ``rowSink``.
    private func finishRows(_ state: PixelState, through end: Int) {
        guard end > completedRows else { return }
        let codedWidth = state.codedWidth
        let coded = state.coded  // a reference, not a copy: nothing writes `coded` meanwhile
        coded.withUnsafeBufferPointer { codedPixels in
        state.row.withUnsafeMutableBufferPointer { row in
            for y in completedRows..<end {
                row.baseAddress!.update(from: codedPixels.baseAddress! + y * codedWidth, count: codedWidth)
                state.transforms.apply(row: row, y: y)
                rowSink(y, UnsafeMutableBufferPointer(rebasing: row[0..<width]))
            }
        }
        }
        completedRows = end
    }
}
