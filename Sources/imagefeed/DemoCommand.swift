import Foundation
import ImageCore
import ImageLoading
import LoopbackHTTPServer

/// `imagefeed demo`: serves the bundled progressive JPEG, Adam7 PNG and interlaced GIF from a
/// throttled loopback server, loads them with `ImageLoader`, and writes every preview, the finals
/// and a contact sheet showing each picture sharpening step by step.
///
/// ```
/// DIR/progressive-jpeg/frame-0001.png …  final.png
/// DIR/adam7-png/frame-0001.png …         final.png
/// DIR/interlaced-gif/frame-0001.png …    final.png
/// DIR/contact-sheet.png
/// ```
/// A picture whose format this build cannot decode yet (the decoder answers `unsupported`) is
/// skipped with a line saying why; the other rows are still drawn.
struct DemoCommand: Sendable {
    /// Least time between two previews of one picture.
    static let previewInterval: TimeInterval = 0.05
    /// The contact sheet's file name in the output folder.
    static let contactSheetName = "contact-sheet.png"
    /// Each picture's final image, in its folder.
    static let finalName = "final.png"

    let options: DemoCommandOptions
    let console: Console
    /// How the server throttles the bodies (tests go faster).
    var pacing = DemoPacing.standard

    /// How one picture's load ended.
    private enum Result: Sendable {
        case loaded([Image])
        case skipped(String)
        case failed(String)
    }

    /// Returns the exit status: 0 if every picture loaded or was skipped as unsupported and the
    /// sheet was written, 1 otherwise.
    func run() -> Int32 {
        BlockingRun.exitStatus { await self.demo() }
    }

    private func demo() async -> Int32 {
        guard let pictures = DemoAsset.bundledFolder() else {
            console.writeError("imagefeed: cannot find the demo pictures (TestImages/demo/); run from the repository")
            return 1
        }
        let server: LoopbackHTTPServer
        do {
            server = try LoopbackHTTPServer()
            for asset in DemoAsset.all {
                let body = [UInt8](try Data(contentsOf: pictures.appendingPathComponent(asset.fileName)))
                server.setRoute("/" + asset.fileName, HTTPRoute(body: body, contentType: asset.contentType,
                                                          chunkSize: pacing.pieceSize(forBodyLength: body.count),
                                                          pauseBetweenChunks: pacing.pause))
            }
        } catch {
            console.writeError("imagefeed: cannot start the demo server: \(error)")
            return 1
        }
        defer { server.stop() }
        console.write("serving \(DemoAsset.all.count) pictures at \(server.url("/")) in \(pacing.pieces) pieces each, "
                      + "\(Int(pacing.pause * 1000)) ms apart")

        // Every picture decodes at once (a decoder each), so all of them show their previews.
        let loader = ImageLoader(configuration: ImageLoader.Configuration(
            maxConcurrentDecodes: DemoAsset.all.count, previewInterval: Self.previewInterval,
            diskCacheDirectory: nil, idleTimeout: 30))
        let results = await withTaskGroup(of: (Int, Result).self) { group in
            for (index, asset) in DemoAsset.all.enumerated() {
                group.addTask { (index, await load(asset, from: server.url(asset.fileName), with: loader)) }
            }
            var results = [Result](repeating: .failed("not run"), count: DemoAsset.all.count)
            for await (index, result) in group { results[index] = result }
            return results
        }

        var rows: [[Image]] = [], loadedNames: [String] = []
        var failed = false
        for (asset, result) in zip(DemoAsset.all, results) {
            switch result {
            case .loaded(let frames):
                rows.append(frames)
                loadedNames.append(asset.name)
                let final = frames.last.map { "\($0.width)x\($0.height)" } ?? "?"
                console.write("\(asset.fileName): \(frames.count - 1) previews and the final \(final) image in \(folder(for: asset))/")
            case .skipped(let reason):
                console.write("skipped: \(asset.fileName): \(reason)")
            case .failed(let message):
                console.writeError("imagefeed: \(asset.fileName): \(message)")
                failed = true
            }
        }
        guard !rows.isEmpty else {
            console.writeError("imagefeed: no picture loaded, so there is no contact sheet")
            return 1
        }
        let sheet = ContactSheet(rows: rows)
        let sheetPath = (options.outputDirectory as NSString).appendingPathComponent(Self.contactSheetName)
        do {
            try ImageFileWriter.write(sheet.image, to: sheetPath)
        } catch {
            console.writeError("imagefeed: cannot write \(sheetPath): \(error.localizedDescription)")
            return 1
        }
        console.write("wrote \(sheetPath): \(sheet.image.width)x\(sheet.image.height)")
        for (name, (frames, picked)) in zip(loadedNames, zip(rows, sheet.picks)) {
            let names = picked.map { $0 == frames.count - 1 ? "final" : FrameRecorder.fileName(number: $0 + 1) }
            console.write("  row \(name): " + names.joined(separator: ", "))
        }
        return failed ? 1 : 0
    }

    /// `DIR/<asset name>`.
    private func folder(for asset: DemoAsset) -> String {
        (options.outputDirectory as NSString).appendingPathComponent(asset.name)
    }

    /// Loads one picture, writing its frames and final image; returns every frame (previews, then final).
    private func load(_ asset: DemoAsset, from url: URL, with loader: ImageLoader) async -> Result {
        let directory = folder(for: asset)
        do {
            try removeOldFrames(in: directory)
            let recorder = try FrameRecorder(directory: directory)
            let reporter = LoadReporter(console: console, printsEvents: false, keepsPreviews: true)
            let outcome = try await reporter.load(ImageRequest(url: url, cachePolicy: .reloadIgnoringCaches),
                                                  with: loader, frames: recorder)
            try ImageFileWriter.write(outcome.image, to: (directory as NSString).appendingPathComponent(Self.finalName))
            return .loaded(outcome.previews + [outcome.image])
        } catch ImageLoadingError.decoding(let error) where error.kind == .unsupported {
            return .skipped(error.message)
        } catch let error as ImageLoadingError {
            return .failed(error.description)
        } catch {
            return .failed(error.localizedDescription)
        }
    }

    /// Deletes `frame-*.png` and `final.png` left in `directory` by an earlier run, so the folder
    /// holds this run's pictures only.
    private func removeOldFrames(in directory: String) throws {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name == Self.finalName || (name.hasPrefix("frame-") && name.hasSuffix(".png")) {
            try manager.removeItem(atPath: (directory as NSString).appendingPathComponent(name))
        }
    }
}
