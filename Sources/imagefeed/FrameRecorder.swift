import Foundation
import ImageCore

/// Writes `currentImage()` as `DIR/frame-0001.png`, `frame-0002.png`, … whenever the decoder's
/// preview generation says the picture changed.
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
        framesWritten += 1
        let number = String(framesWritten)
        let name = "frame-" + String(repeating: "0", count: max(0, 4 - number.count)) + number + ".png"
        try ImageFileWriter.write(image, to: (directory as NSString).appendingPathComponent(name))
    }
}
