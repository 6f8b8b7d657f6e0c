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

    /// Writes `image` to `path`: PNG with `encoder`, by default the fast mode (frames are many,
    /// and its files are about libpng's default size on photos); a PAM file from the image's own
    /// pixels, with no copy of the picture in memory, declaring `pamMaxValue` (see
    /// ``PAMWriter/encode(_:maxValue:)``).
    static func write(_ image: Image, to path: String, encoder: PNGEncoder = .fast, pamMaxValue: Int? = nil) throws {
        switch Kind(path: path) {
        case .png?, nil: try write([encoder.encode(image)], to: path)
        case .pam?: try write([PAMWriter.header(for: image, maxValue: pamMaxValue), image.pixels], to: path)
        }
    }

    /// Writes `parts` one after the other to a new file at `path`, each from its own memory.
    private static func write(_ parts: [[UInt8]], to path: String) throws {
        guard let file = fopen(path, "wb") else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        var failed = false
        for part in parts where !failed {
            failed = part.withUnsafeBytes { bytes in
                bytes.isEmpty ? false : fwrite(bytes.baseAddress, 1, bytes.count, file) != bytes.count
            }
        }
        if fclose(file) != 0 { failed = true }
        if failed { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }
}
