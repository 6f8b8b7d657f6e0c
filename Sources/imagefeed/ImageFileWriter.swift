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

    /// Writes `image` to `path`; PNG with `encoder`, by default the fast mode (frames are many,
    /// and its files are about libpng's default size on photos).
    static func write(_ image: Image, to path: String, encoder: PNGEncoder = .fast) throws {
        let bytes: [UInt8]
        switch Kind(path: path) {
        case .png?, nil: bytes = encoder.encode(image)
        case .pam?: bytes = PAMWriter.encode(image)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
