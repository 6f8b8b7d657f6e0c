import ImageCore

/// The caller's-thread view of the rows while a worker draws them (``ScanlinePipeline``): finds
/// where each filtered row ends in the inflated bytes, checks its filter type and counts it,
/// exactly as ``ScanlineDecoder`` counts rows it has drawn.
///
/// So that an error surfaces at the same byte as with one thread, a row's filter type is checked
/// when its last byte arrives (where ``ScanlineDecoder`` unfilters it), not when its first does.
/// Example: 4-byte rows (1 filter byte + 3 samples), pieces `[0 1 2]` and `[3 | 1 5 6 7 | 9 …]`:
/// the first row completes in the second piece (filter 0, counted), the second row too (filter 1),
/// the third starts with filter type 9 and throws once its fourth byte has arrived.
struct RowBoundaryTracker {
    /// What to do with a piece of inflated bytes.
    struct Verdict {
        /// How many leading bytes of the piece to pass on to the drawing stage.
        let passOn: Int
        /// A row with a bad filter type, found once its last byte (just after `passOn`) arrived.
        let failure: ImageDecodingError?
    }

    private var schedule: ScanlineSchedule
    private let imageHeight: Int
    private let isInterlaced: Bool
    /// Bytes of the current row seen so far (its filter type byte first).
    private var filledBytes = 0
    /// The current row's filter type byte, once `filledBytes` > 0.
    private var filterByte: UInt8 = 0

    /// Rows (of all passes) whose bytes have all arrived.
    private(set) var rowsDecoded = 0
    /// Passes whose rows have all arrived.
    private(set) var completedPasses = 0
    /// As ``ScanlineDecoder/completedRows``: within a pass, the bottom of the last row's preview
    /// rectangles; the image height once the pass is finished.
    private(set) var completedRows = 0

    /// Filtered bytes the image needs in all.
    var expectedBytes: Int { schedule.totalFilteredBytes }
    /// Whether every row has arrived.
    var isComplete: Bool { schedule.isComplete }

    /// Follows the rows of `header`; nil if its sizes overflow.
    init?(header: IHDRChunk) {
        guard let schedule = ScanlineSchedule(header: header) else { return nil }
        self.schedule = schedule
        imageHeight = header.height
        isInterlaced = header.isInterlaced
    }

    /// Walks the next `count` inflated bytes. Bytes after the last row are not passed on (they
    /// are ignored, as libpng does).
    mutating func scan(_ bytes: UnsafePointer<UInt8>, count: Int) -> Verdict {
        var cursor = 0
        while cursor < count, !schedule.isComplete {
            let needed = schedule.current.rowBytes + 1
            if filledBytes == 0 { filterByte = bytes[cursor] }
            let take = min(needed - filledBytes, count - cursor)
            filledBytes += take
            cursor += take
            guard filledBytes == needed else { break }
            filledBytes = 0
            guard FilterType(rawValue: filterByte) != nil else {
                return Verdict(passOn: cursor - take, failure: badFilterError())
            }
            countRow()
        }
        return Verdict(passOn: cursor, failure: nil)
    }

    /// The counters ``ScanlineDecoder`` moves after drawing a row.
    private mutating func countRow() {
        let y = schedule.imageRow
        rowsDecoded += 1
        completedRows = min(y + schedule.current.geometry.blockHeight, imageHeight)
        if schedule.advance() {
            completedPasses += 1
            completedRows = imageHeight
        }
    }

    private func badFilterError() -> ImageDecodingError {
        let which = isInterlaced ? "row \(schedule.row) of Adam7 pass \(schedule.passIndex + 1)" : "row \(schedule.row)"
        return ImageDecodingError(.invalidData, at: nil,
                                  "PNG \(which) has filter type \(filterByte); only 0 ... 4 exist (PNG 9.2)")
    }
}
