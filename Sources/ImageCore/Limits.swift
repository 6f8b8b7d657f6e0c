/// Bounds a decoder checks before allocating anything sized by the file.
///
/// Exceeding one throws ``ImageDecodingError/Kind/limitExceeded``.
public struct Limits: Sendable, Hashable {
    /// Largest `width * height` accepted. Default 2^28 (268 Mpix; an RGBA8 buffer of 1 GiB).
    public var maxPixels: Int
    /// Largest width or height accepted. Default 65 535 × 4 = 262 140.
    public var maxDimension: Int
    /// Largest total of metadata kept (ICC profile, text chunks, EXIF). Default 16 MiB.
    public var maxMetadataBytes: Int
    /// Largest number of JPEG scans (progressive files can flood scans). Default 1000.
    public var maxScans: Int
    /// Largest number of bytes one zlib stream may inflate to beyond what the image needs
    /// (PNG: for metadata chunks such as iCCP and zTXt). Default 64 MiB.
    public var maxInflateOutput: Int

    /// Makes limits; every argument has a safe default.
    public init(maxPixels: Int = 1 << 28, maxDimension: Int = 262_140, maxMetadataBytes: Int = 16 << 20,
                maxScans: Int = 1000, maxInflateOutput: Int = 64 << 20) {
        self.maxPixels = maxPixels
        self.maxDimension = maxDimension
        self.maxMetadataBytes = maxMetadataBytes
        self.maxScans = maxScans
        self.maxInflateOutput = maxInflateOutput
    }

    /// Checks a declared size against ``maxDimension`` and ``maxPixels`` and returns the pixel count.
    ///
    /// - Throws: `invalidData` for a zero dimension, `limitExceeded` past a limit.
    public func checkDimensions(width: Int, height: Int, at offset: Int, format: String) throws -> Int {
        guard width > 0, height > 0 else {
            throw ImageDecodingError(.invalidData, at: offset, "\(format) declares size \(width)×\(height); both must be at least 1")
        }
        guard width <= maxDimension, height <= maxDimension else {
            throw ImageDecodingError(.limitExceeded, at: offset,
                                     "\(format) size \(width)×\(height) exceeds the dimension limit \(maxDimension)")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw ImageDecodingError(.limitExceeded, at: offset,
                                     "\(format) size \(width)×\(height) exceeds the pixel limit \(maxPixels)")
        }
        return pixels
    }
}
