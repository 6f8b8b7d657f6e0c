import Foundation
import ImageCore
import ImageLoading

/// Runs one load through `ImageLoader` the way the command line shows it: a line per progress
/// event and per preview, each preview written as the next frame, and the final image returned.
struct LoadReporter {
    /// What a load produced.
    struct Outcome: Sendable {
        /// The final image.
        var image: Image
        /// Every preview, in order, when ``keepsPreviews`` is set (else empty).
        var previews: [Image]
        /// `.preview` events received.
        var previewCount: Int
        /// The whole response (source, HTTP status, headers).
        var response: ImageResponse
    }

    /// Where the lines go.
    let console: Console
    /// Whether progress and preview lines are printed (`fetch`); the demo prints a summary instead.
    var printsEvents = true
    /// Whether previews are kept in memory (the demo's contact sheet picks from them).
    var keepsPreviews = false

    /// `received 8192 of 322059 bytes`, or `received 8192 bytes` when the size is unknown.
    static func progressLine(received: Int, expected: Int?) -> String {
        guard let expected else { return "received \(received) bytes" }
        return "received \(received) of \(expected) bytes"
    }

    /// Loads `request`, writing previews to `frames` if given.
    ///
    /// - Throws: what the load throws (`ImageLoadingError`, `CancellationError`) or a frame's write error.
    func load(_ request: ImageRequest, with loader: ImageLoader, frames: FrameRecorder?) async throws -> Outcome {
        var frames = frames
        var previews: [Image] = []
        var previewCount = 0
        for try await event in loader.images(for: request) {
            switch event {
            case .progress(let received, let expected):
                if printsEvents { console.write(Self.progressLine(received: received, expected: expected)) }
            case .preview(let image):
                previewCount += 1
                let path = try frames?.record(image)
                if keepsPreviews { previews.append(image) }
                if printsEvents {
                    console.write("preview \(previewCount): \(image.width)x\(image.height)" + (path.map { " -> " + $0 } ?? ""))
                }
            case .frame:
                break  // fetch does not ask for animation frames
            case .completed(let response):
                return Outcome(image: response.image, previews: previews, previewCount: previewCount, response: response)
            }
        }
        // The stream ends without `.completed` only when the load was cancelled.
        throw CancellationError()
    }
}
