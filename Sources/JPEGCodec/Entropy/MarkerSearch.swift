/// Finds the next marker in buffered bytes the way libjpeg's `next_marker` does: bytes before an
/// 0xFF are skipped as extraneous, a run of 0xFF is fill (T.81 B.1.1.2), and 0xFF 0x00 (stuffed data
/// outside a scan) is skipped too.
enum MarkerSearch {
    /// What a search found.
    enum Result: Equatable {
        /// A marker: `code` follows the fill run that starts at `start`; `end` is just past `code`.
        /// `skipped` counts extraneous bytes passed over before it.
        case found(code: UInt8, start: Int, end: Int, skipped: Int)
        /// The buffer ended first. Bytes before `resumeAt` are settled (skipped or fill) and may be
        /// dropped; search again from there once more bytes arrive. `skipped` counts extraneous bytes.
        case needMoreInput(resumeAt: Int, skipped: Int)
    }

    /// Searches `bytes` from index `start`.
    static func next(in bytes: UnsafeRawBufferPointer, from start: Int) -> Result {
        var index = start, skipped = 0
        while true {
            while index < bytes.count && bytes[index] != 0xFF {
                skipped += 1
                index += 1
            }
            guard index < bytes.count else { return .needMoreInput(resumeAt: index, skipped: skipped) }
            var codeIndex = index + 1
            while codeIndex < bytes.count && bytes[codeIndex] == 0xFF { codeIndex += 1 }
            // Keep only the last 0xFF of an unfinished fill run, so a long run is examined once.
            guard codeIndex < bytes.count else { return .needMoreInput(resumeAt: codeIndex - 1, skipped: skipped) }
            if bytes[codeIndex] == 0 {
                skipped += codeIndex + 1 - index
                index = codeIndex + 1
                continue
            }
            return .found(code: bytes[codeIndex], start: index, end: codeIndex + 1, skipped: skipped)
        }
    }
}
