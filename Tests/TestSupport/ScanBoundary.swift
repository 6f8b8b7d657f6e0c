import ImageCore

/// Where one scan (JPEG) or pass (Adam7) of an incremental decode ended: the byte count fed
/// when `completedScans` rose, the new count, and the picture at that moment. Loader and CLI
/// tests pause a throttled server at these offsets to check a preview arrives for each.
public struct ScanBoundary {
    /// Bytes fed when the scan count rose.
    public var offset: Int
    /// `completedScans` from then on.
    public var scans: Int
    /// `currentImage()` then.
    public var image: Image

    /// Feeds `bytes` one at a time to `decoder` and returns every rise of `completedScans` before
    /// the status is complete (a last pass may end together with the file).
    public static func all(in bytes: [UInt8], decoder: any IncrementalImageDecoder) throws -> [ScanBoundary] {
        var boundaries: [ScanBoundary] = []
        var scans = 0
        for (index, byte) in bytes.enumerated() {
            let status = try decoder.feed([byte])
            if let done = status.progress?.completedScans, done > scans, !status.isComplete, let image = decoder.currentImage() {
                scans = done
                boundaries.append(ScanBoundary(offset: index + 1, scans: done, image: image))
            }
        }
        return boundaries
    }
}
