import Foundation
import ImageCore
import ImageLoading

/// `imagefeed fetch`: loads a URL through `ImageLoader`, printing progress and writing every
/// preview as a frame, then the final image.
struct FetchCommand: Sendable {
    /// Least time between two previews: short, so a slow download shows many frames.
    static let previewInterval: TimeInterval = 0.05

    let options: FetchCommandOptions
    let console: Console

    /// Returns the exit status: 0 on success, 1 on an HTTP, network, decoding or I/O error.
    func run() -> Int32 {
        BlockingRun.exitStatus { await self.load() }
    }

    private func load() async -> Int32 {
        let location = options.url.isFileURL ? options.url.path : options.url.absoluteString
        let frames: FrameRecorder?
        do {
            frames = try options.framesDirectory.map { try FrameRecorder(directory: $0) }
        } catch {
            console.writeError("imagefeed: cannot create \(options.framesDirectory ?? ""): \(error.localizedDescription)")
            return 1
        }
        // A one-off command: no disk cache, so nothing is left behind in the user's caches.
        let loader = ImageLoader(configuration: ImageLoader.Configuration(
            previewInterval: Self.previewInterval, diskCacheDirectory: nil, idleTimeout: options.timeout))
        let request = ImageRequest(url: options.url, maxPixelSize: options.thumbnailSize, cachePolicy: .reloadIgnoringCaches)
        let outcome: LoadReporter.Outcome
        do {
            outcome = try await LoadReporter(console: console).load(request, with: loader, frames: frames)
        } catch let error as ImageLoadingError {
            console.writeError("imagefeed: \(location): \(error)")
            return 1
        } catch {
            // A frame that could not be written, or (never from this command) a cancellation.
            console.writeError("imagefeed: \(location): \(error.localizedDescription)")
            return 1
        }
        do {
            try ImageFileWriter.write(outcome.image, to: options.output)
        } catch {
            console.writeError("imagefeed: cannot write \(options.output): \(error.localizedDescription)")
            return 1
        }
        let image = outcome.image
        console.write("wrote \(options.output): \(image.width)x\(image.height) \(image.format), \(outcome.previewCount) previews")
        return 0
    }
}
