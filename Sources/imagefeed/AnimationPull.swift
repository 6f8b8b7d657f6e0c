import Foundation
import ImageCore

/// Pulls animation frames from a decoder into an ``AnimationRecorder`` as they come. An
/// animation's own error (a broken frame) stops the frames but not the decode of the still
/// image; it is reported at the end, and the command then exits with status 1.
struct AnimationPull {
    var recorder: AnimationRecorder
    private(set) var failure: ImageDecodingError?

    init(recorder: AnimationRecorder) {
        self.recorder = recorder
    }

    /// Writes every frame whose data has arrived.
    mutating func pull(from decoder: any AnimatedImageDecoder) throws {
        guard failure == nil else { return }
        do {
            while let frame = try decoder.nextFrame() { try recorder.record(frame) }
        } catch let error as ImageDecodingError {
            failure = error
        }
    }

    /// Writes `frames.txt` (and a still image as the only frame when nothing was animated);
    /// returns the exit status: 1 if the animation failed.
    mutating func finish(still: Image?, input: String) throws -> Int32 {
        if recorder.delays.isEmpty, failure == nil, let still { try recorder.recordStill(still) }
        try recorder.finish()
        guard let failure else { return 0 }
        ImagefeedCommand.printError("imagefeed: \(input): animation frame \(recorder.delays.count + 1): \(failure)")
        return 1
    }
}
