import Foundation

/// One picture `imagefeed demo` serves, bundled in `TestImages/demo/` (made by
/// `TestImages/demo/make_demo_images.py` from the corpus photo).
struct DemoAsset: Sendable {
    /// Folder name for its frames under the output folder, e.g. `progressive-jpeg`.
    var name: String
    /// File name in `TestImages/demo/`, also its path on the loopback server.
    var fileName: String
    /// `Content-Type` sent with it.
    var contentType: String

    /// The demo's pictures, in contact-sheet row order: the 888×592 progressive JPEG (10 scans),
    /// the 480×320 Adam7 PNG (7 passes), then the 480×320 interlaced GIF (4 passes).
    static let all = [
        DemoAsset(name: "progressive-jpeg", fileName: "harvesters_progressive.jpg", contentType: "image/jpeg"),
        DemoAsset(name: "adam7-png", fileName: "harvesters_adam7.png", contentType: "image/png"),
        DemoAsset(name: "interlaced-gif", fileName: "harvesters_interlaced.gif", contentType: "image/gif"),
    ]

    /// The folder holding the bundled pictures: `TestImages/demo` below the current directory, or
    /// in the checkout this executable was built from (found from this source file's path).
    static func bundledFolder(fileManager: FileManager = .default) -> URL? {
        let checkout = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()   // imagefeed
            .deletingLastPathComponent()   // Sources
            .deletingLastPathComponent()   // repository
        let candidates = [URL(fileURLWithPath: fileManager.currentDirectoryPath), checkout]
            .map { $0.appendingPathComponent("TestImages/demo") }
        return candidates.first { folder in
            all.allSatisfy { fileManager.fileExists(atPath: folder.appendingPathComponent($0.fileName).path) }
        }
    }
}
