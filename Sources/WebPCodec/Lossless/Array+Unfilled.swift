extension Array where Element: BitwiseCopyable {
    /// An array of `count` elements whose memory is not cleared: for buffers the decoder writes
    /// in full before anything reads them (pixels are read only once decoded, and a stream
    /// that fails before the end gives away only its whole decoded rows). Zeroing the 32-bit
    /// pixel buffer of a 1440×960 image was a 5.5 MB memset per decode.
    static func unfilled(count: Int) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { _, initializedCount in initializedCount = count }
    }
}
