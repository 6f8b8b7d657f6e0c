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
    /// and its files are about libpng's default size on photos), streamed to the file as it is
    /// compressed; a PAM file from the image's own pixels. Neither holds a second copy of the
    /// picture in memory. `pamMaxValue`: see ``PAMWriter/encode(_:maxValue:)``.
    static func write(_ image: Image, to path: String, encoder: PNGEncoder = .fast, pamMaxValue: Int? = nil) throws {
        guard let file = fopen(path, "wb") else { throw writeError(path) }
        var failed = false
        do {
            switch Kind(path: path) {
            case .png?, nil:
                try encoder.encode(image) { (bytes) throws(WriteFailed) in try write(bytes, to: file) }
            case .pam?:
                try PAMWriter.header(for: image, maxValue: pamMaxValue).withUnsafeBytes { try write($0, to: file) }
                try image.pixels.withUnsafeBytes { try write($0, to: file) }
            }
        } catch {
            failed = true
        }
        if fclose(file) != 0 { failed = true }
        if failed { throw writeError(path) }
    }

    /// A short write: the disk is full or the file went away.
    private struct WriteFailed: Error {}

    private static func write(_ bytes: UnsafeRawBufferPointer, to file: UnsafeMutablePointer<FILE>) throws(WriteFailed) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if fwrite(base, 1, bytes.count, file) != bytes.count { throw WriteFailed() }
    }

    private static func writeError(_ path: String) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
}
