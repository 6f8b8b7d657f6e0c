import ImageCore

/// Finds the restart marker that ends an interval, the way libjpeg's `read_restart_marker` and
/// `jpeg_resync_to_restart` do, for both entropy decoders: bytes before the marker are
/// extraneous (reported), a wrong RSTn or another marker is resynchronised with
/// ``RestartResynchronization``, and the search keeps its progress when the bytes run out.
struct RestartMarkerSearch {
    /// Where the search ended.
    enum Outcome: Equatable {
        /// More input is needed; the bytes before the new position are settled.
        case needMoreInput
        /// The expected marker (or one taken for it) was read; decoding resumes past it.
        case accepted
        /// The coming interval has no data: a marker left unread (position on it), or the end of
        /// all input (libjpeg's inserted EOI).
        case noData
    }

    /// Extraneous bytes counted but not reported yet (they may straddle two batches).
    private var extraneousBytes = 0

    /// Searches `bytes` from `position` for RST`expected` (0...7), moving `position` as it
    /// settles bytes; `streamOffset` is the stream offset of `bytes[0]`.
    mutating func find(in bytes: UnsafeRawBufferPointer, position: inout Int, expected: Int, streamOffset: Int,
                       inputComplete: Bool, extraneousBefore: Int = 0,
                       report: (ImageDecodingError) -> Void) -> Outcome {
        extraneousBytes += extraneousBefore
        let code = JPEGMarker.rst0 + UInt8(expected)
        while true {
            switch MarkerSearch.next(in: bytes, from: position) {
            case .needMoreInput(let resumeAt, let skipped):
                extraneousBytes += skipped
                position = resumeAt
                return inputComplete ? .noData : .needMoreInput
            case .found(let found, let start, let end, let skipped):
                extraneousBytes += skipped
                if extraneousBytes > 0 {
                    report(ImageDecodingError(.invalidData, at: streamOffset + start,
                                              "\(extraneousBytes) extraneous byte(s) before marker \(JPEGMarker.name(found))"))
                    extraneousBytes = 0
                }
                let action = found == code
                    ? RestartResynchronization.acceptMarker
                    : RestartResynchronization.decide(marker: found, expected: expected)
                if found != code {
                    report(ImageDecodingError(.invalidData, at: streamOffset + start,
                                              "expected RST\(expected) but found \(JPEGMarker.name(found))"))
                }
                switch action {
                case .acceptMarker:
                    position = end
                    return .accepted
                case .skipMarker:
                    position = end
                case .keepMarker:
                    position = start
                    return .noData
                }
            }
        }
    }
}
