import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IncrementalImage

extension ImageJob {
    /// Bytes read per step from a file URL.
    static let fileChunkSize = 1 << 16

    /// Feeds every queued chunk to the decoder, then reports progress and maybe a preview.
    /// Runs on the job's queue.
    func drain() {
        let chunks = shared.withLock { shared -> [Data] in
            let chunks = shared.pending
            shared.pending = []
            shared.drainScheduled = false
            return chunks
        }
        guard !isDone, !chunks.isEmpty else { return }
        for chunk in chunks {
            guard ingest(chunk) else { return }
        }
        broadcast(.progress(received: decodedBytes, expected: expectedLength))
        // Bytes that arrived while these were decoded make a preview now out of date at once
        // (``PreviewThrottle``): on a fast link nearly every intermediate render is saved.
        considerPreview(backlog: shared.withLock { !$0.pending.isEmpty })
    }

    /// Gives bytes to the decoder (and keeps them if the disk cache wants them); false after a
    /// decoding error, which fails the job.
    @discardableResult
    func ingest(_ chunk: Data) -> Bool {
        retainedData?.append(chunk)
        decodedBytes += chunk.count
        do {
            try chunk.withUnsafeBytes { try decoder.feed($0) }
            return true
        } catch {
            fail(Self.decodingFailure(error))
            return false
        }
    }

    /// Wraps what a decoder threw (always an ``ImageDecodingError`` by the protocol's contract).
    static func decodingFailure(_ error: any Error) -> ImageLoadingError {
        .decoding(error as? ImageDecodingError ?? ImageDecodingError(.internal, at: nil, String(describing: error)))
    }

    /// Sends a preview if the picture changed and the interval allows; otherwise, if it changed,
    /// checks again when the interval ends (so the newest picture is shown even if bytes pause).
    /// With `backlog` (more bytes already queued) the change waits for their drain, up to
    /// ``PreviewThrottle/backlogAllowance``.
    func considerPreview(backlog: Bool = false) {
        guard !isDone, !decoder.isComplete, wantsPreviews else { return }
        let now = Self.uptime
        switch throttle.decide(generation: decoder.previewGeneration, now: now, backlog: backlog) {
        case .nothingNew, .behindInput:
            return
        case .renderNow:
            guard let image = decoder.preview() else { return }
            throttle.didDeliver(generation: decoder.previewGeneration, at: now)
            broadcast(.preview(image))
        case .wait(let due):
            guard !previewCheckScheduled else { return }
            previewCheckScheduled = true
            // Weak: a finished or cancelled job must not wait for its last preview check.
            queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: due)) { [weak self] in
                self?.previewCheckScheduled = false
                self?.considerPreview()
            }
        }
    }

    /// Loads a `file:` URL in chunks on the job's queue, with progress and previews like a download.
    func loadFile() {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: request.url)
        } catch {
            return fail(.network(code: URLError.fileDoesNotExist.rawValue, message: error.localizedDescription))
        }
        defer { try? handle.close() }
        expectedLength = (try? request.url.resourceValues(forKeys: [.fileSizeKey]))?.fileSize
        while !isCancelled {
            let chunk: Data
            do {
                guard let read = try handle.read(upToCount: Self.fileChunkSize), !read.isEmpty else { break }
                chunk = read
            } catch {
                return fail(.network(code: URLError.cannotOpenFile.rawValue, message: error.localizedDescription))
            }
            guard ingest(chunk) else { return }
            broadcast(.progress(received: decodedBytes, expected: expectedLength))
            considerPreview()
        }
        guard !isCancelled, !isDone else { return }
        do {
            deliverFinal(try decoder.finish(), source: .network)
        } catch {
            fail(Self.decodingFailure(error))
        }
    }
}
