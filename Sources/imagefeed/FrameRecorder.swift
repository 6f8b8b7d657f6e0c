import Foundation
import ImageCore

/// Writes `currentImage()` as `DIR/frame-0001.png`, `frame-0002.png`, … whenever the decoder's
/// preview generation says the picture changed (``recordIfChanged(_:)``), or for each image handed
/// to ``record(_:)`` (the loader's `.preview` events).
struct FrameRecorder {
    let directory: String
    private var lastGeneration: Int?
    private(set) var framesWritten = 0

    /// Creates the directory if needed.
    init(directory: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Writes a frame if the picture changed since the last one.
    mutating func recordIfChanged(_ decoder: any IncrementalImageDecoder) throws {
        let generation = decoder.status.previewGeneration
        guard generation != lastGeneration, let image = decoder.currentImage() else { return }
        lastGeneration = generation
        try record(image)
    }

    /// Writes `image` as the next frame and returns its path.
    @discardableResult
    mutating func record(_ image: Image) throws -> String {
        framesWritten += 1
        let path = (directory as NSString).appendingPathComponent(Self.fileName(number: framesWritten))
        try ImageFileWriter.write(image, to: path)
        return path
    }

    /// `frame-0007.png` for frame 7 (numbers from 1; at least four digits).
    static func fileName(number: Int) -> String {
        let digits = String(number)
        return "frame-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".png"
    }
}
