import Foundation
import ImageCore
import PNGCodec

/// Writes an image as PNG or PAM, chosen by the file name's extension.
enum ImageFileWriter {
    /// The output formats.
    enum Kind {
        case png, pam

        /// The kind for a path ending in `.png` or `.pam` (any case), else nil.
        init?(path: String) {
            let lower = path.lowercased()
            if lower.hasSuffix(".png") { self = .png }
            else if lower.hasSuffix(".pam") { self = .pam }
            else { return nil }
        }
    }

    /// Writes `image` to `path` (PNG at `pngLevel`, 0–9); a PAM file declares `pamMaxValue`
    /// (see ``PAMWriter/encode(_:maxValue:)``).
    static func write(_ image: Image, to path: String, pngLevel: Int = 6, pamMaxValue: Int? = nil) throws {
        let bytes: [UInt8]
        switch Kind(path: path) {
        case .png?, nil: bytes = PNGEncoder(compressionLevel: pngLevel).encode(image)
        case .pam?: bytes = PAMWriter.encode(image, maxValue: pamMaxValue)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
