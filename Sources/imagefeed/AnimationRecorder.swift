import Foundation
import ImageCore

/// `decode --animation DIR`: writes every composited animation frame as `DIR/frame-0001.png`, …
/// (RGBA, 8 or 16 bits as decoded) and, at the end, `DIR/frames.txt` with one line per frame:
/// its number (as in the file name) and its delay in milliseconds, rounded (`3 100`).
struct AnimationRecorder {
    let directory: String
    /// Delays in milliseconds of the frames written, in order.
    private(set) var delays: [Int] = []

    /// Creates the directory if needed.
    init(directory: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Writes the next frame.
    mutating func record(_ frame: AnimationFrame) throws {
        try write(frame.image, delay: frame.duration)
    }

    /// Writes a still image as the only frame (a file that is not animated), with delay 0.
    mutating func recordStill(_ image: Image) throws {
        try write(image.converted(to: image.format.bytesPerSample == 2 ? .rgba16 : .rgba8), delay: 0)
    }

    /// Writes `frames.txt`.
    func finish() throws {
        let lines = delays.enumerated().map { "\($0.offset + 1) \($0.element)\n" }.joined()
        try Data(lines.utf8).write(to: URL(fileURLWithPath: (directory as NSString).appendingPathComponent("frames.txt")))
    }

    private mutating func write(_ image: Image, delay seconds: Double) throws {
        let path = (directory as NSString).appendingPathComponent(FrameRecorder.fileName(number: delays.count + 1))
        try ImageFileWriter.write(image, to: path, encoder: .fast)
        delays.append(Int((seconds * 1000).rounded()))
    }
}
