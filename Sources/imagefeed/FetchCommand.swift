import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImageCore
import ImageLoading

/// `imagefeed fetch`: loads a URL through `ImageLoader`, printing progress and writing every
/// preview as a frame, then the final image.
struct FetchCommand: Sendable {
    /// `network`, `disk`, `revalidated` or `memory`: the `source:` line.
    static func sourceName(_ source: ImageResponse.Source) -> String {
        switch source {
        case .network: return "network"
        case .diskCache: return "disk"
        case .revalidated: return "revalidated"
        case .memoryCache: return "memory"
        }
    }

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
            frames = try options.framesDirectory.map { try FrameRecorder(directory: $0, inBackground: true) }
        } catch {
            console.writeError("imagefeed: cannot create \(options.framesDirectory ?? ""): \(error.localizedDescription)")
            return 1
        }
        // Without --cache-dir a one-off command leaves nothing behind: no disk cache, a fresh download.
        let cacheFolder = options.cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        let loader = ImageLoader(configuration: ImageLoader.Configuration(
            previewInterval: Self.previewInterval, diskCacheDirectory: cacheFolder, idleTimeout: options.timeout))
        var urlRequest = URLRequest(url: options.url)
        for header in options.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }
        let request = ImageRequest(urlRequest: urlRequest, maxPixelSize: options.thumbnailSize,
                                   cachePolicy: cacheFolder == nil ? .reloadIgnoringCaches : .useCaches,
                                   decodingOptions: DecodingOptions(colorSpace: options.colorSpace,
                                                                                    renderingIntent: options.intent))
        let outcome: LoadReporter.Outcome
        do {
            outcome = try await LoadReporter(console: console).load(request, with: loader, frames: frames)
            try frames?.finish()
        } catch let error as ImageLoadingError {
            console.writeError("imagefeed: \(location): \(error)")
            return 1
        } catch {
            // A frame that could not be written, or (never from this command) a cancellation.
            console.writeError("imagefeed: \(location): \(error.localizedDescription)")
            return 1
        }
        console.write("source: \(Self.sourceName(outcome.response.source))")
        console.write("http: \(outcome.response.httpStatus.map(String.init) ?? "none")")
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
