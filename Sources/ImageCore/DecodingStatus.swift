/// How far decoding has come.
public struct DecodingProgress: Sendable, Hashable {
    /// Rows of the output that hold their final pixels (for progressive JPEG and Adam7,
    /// rows finished by the scan or pass under way).
    public var completedRows: Int
    /// JPEG scans or Adam7 passes that are complete.
    public var completedScans: Int
    /// Changes exactly when ``IncrementalImageDecoder/currentImage()`` would return a different picture.
    public var previewGeneration: Int

    /// Makes a progress value.
    public init(completedRows: Int = 0, completedScans: Int = 0, previewGeneration: Int = 0) {
        self.completedRows = completedRows
        self.completedScans = completedScans
        self.previewGeneration = previewGeneration
    }
}

/// Where a decoder stands.
public enum DecodingStatus: Sendable, Hashable {
    /// The header has not been fully received yet.
    case awaitingHeader
    /// The header is known; pixels are arriving.
    case decoding(DecodingProgress)
    /// The whole image is decoded.
    case complete(DecodingProgress)

    /// The progress, once the header is known.
    public var progress: DecodingProgress? {
        switch self {
        case .awaitingHeader: return nil
        case .decoding(let p), .complete(let p): return p
        }
    }

    /// The preview generation (0 before the header).
    public var previewGeneration: Int { progress?.previewGeneration ?? 0 }

    /// Whether the whole image is decoded.
    public var isComplete: Bool {
        if case .complete = self { return true }
        return false
    }
}
