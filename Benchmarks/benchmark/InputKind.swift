/// What a benchmark input file holds, decided by its file extension.
enum InputKind: String, CaseIterable {
    /// zlib stream (RFC 1950), extension `.zlib`.
    case zlib
    /// gzip file (RFC 1952), extension `.gz`.
    case gzip
    /// Raw DEFLATE stream (RFC 1951), extension `.deflate`.
    case raw
    /// PNG image, extension `.png`.
    case png
    /// JPEG image, extensions `.jpg` and `.jpeg`.
    case jpeg
    /// GIF image or animation, extension `.gif` (every frame is decoded).
    case gif
    /// WebP image (lossless or lossy), extension `.webp`.
    case webp

    /// The kind for a file name, or nil when the extension is not a benchmark input
    /// (such files are left out of folder scans).
    init?(fileName: String) {
        guard let dot = fileName.lastIndex(of: ".") else { return nil }
        switch fileName[fileName.index(after: dot)...].lowercased() {
        case "zlib": self = .zlib
        case "gz": self = .gzip
        case "deflate": self = .raw
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "gif": self = .gif
        case "webp": self = .webp
        default: return nil
        }
    }

    /// Images are measured in Mpix/s, compressed streams in MB/s of output.
    var isImage: Bool { self == .png || self == .jpeg || self == .gif || self == .webp }
}
