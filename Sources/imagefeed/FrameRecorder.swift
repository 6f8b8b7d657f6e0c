import Foundation
import ImageCore
import PNGCodec

/// Writes `currentImage()` as `DIR/frame-0001.png`, `frame-0002.png`, … whenever the decoder's
/// preview generation says the picture changed (``recordIfChanged(_:)``), or for each image handed
/// to ``record(_:)`` (the loader's `.preview` events).
///
/// Frames are PNGs in the encoder's fast mode (``PNGEncoder/fast``). With `inBackground`, frames are encoded and written on a serial queue of
/// their own, in order, so a caller reading an event stream is never held up by encoding: every
/// preview delivered becomes a frame. ``finish()`` waits for the queue and reports the first
/// write error.
struct FrameRecorder {
    let directory: String
    private var lastGeneration: Int?
    private(set) var framesWritten = 0
    private let background: BackgroundWrites?

    /// Creates the directory if needed.
    init(directory: String, inBackground: Bool = false) throws {
        self.directory = directory
        background = inBackground ? BackgroundWrites() : nil
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Writes a frame if the picture changed since the last one.
    mutating func recordIfChanged(_ decoder: any IncrementalImageDecoder) throws {
        let generation = decoder.status.previewGeneration
        guard generation != lastGeneration, let image = decoder.currentImage() else { return }
        lastGeneration = generation
        try record(image)
    }

    /// Writes `image` as the next frame (or queues it) and returns its path.
    @discardableResult
    mutating func record(_ image: Image) throws -> String {
        framesWritten += 1
        let path = (directory as NSString).appendingPathComponent(Self.fileName(number: framesWritten))
        if let background {
            try background.enqueue(image, to: path)
        } else {
            try ImageFileWriter.write(image, to: path)
        }
        return path
    }

    /// Waits for frames still being written; throws the first write error.
    func finish() throws {
        try background?.waitForAll()
    }

    /// `frame-0007.png` for frame 7 (numbers from 1; at least four digits).
    static func fileName(number: Int) -> String {
        let digits = String(number)
        return "frame-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".png"
    }

    /// The serial queue that encodes and writes frames, and the first error it met.
    private final class BackgroundWrites: @unchecked Sendable {
        private let queue = DispatchQueue(label: "imagefeed.frames")
        private let lock = NSLock()
        private var firstError: (any Error)?

        /// Queues a write; throws an earlier write's error, so a failing disk stops the command.
        func enqueue(_ image: Image, to path: String) throws {
            if let error = takeError() { throw error }
            queue.async {
                do {
                    try ImageFileWriter.write(image, to: path)
                } catch {
                    self.lock.lock()
                    if self.firstError == nil { self.firstError = error }
                    self.lock.unlock()
                }
            }
        }

        func waitForAll() throws {
            queue.sync {}
            if let error = takeError() { throw error }
        }

        private func takeError() -> (any Error)? {
            lock.lock()
            defer { lock.unlock() }
            return firstError
        }
    }
}
