import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IncrementalImage

extension ImageJob {
    /// Called by the core once the job holds a download slot.
    func beginDownload() {
        queue.async { self.startTask() }
    }

    private func startTask() {
        guard !isDone, !isCancelled else { return }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.timeoutInterval = core.configuration.idleTimeout + 5
        resumable?.apply(to: &urlRequest)
        guard let task = core.makeTask(for: self, request: urlRequest) else { return }
        let now = Self.uptime
        downloadStart = now
        let started = shared.withLock { shared -> Bool in
            guard shared.phase == .active, !shared.isStopped else { return false }
            shared.task = task
            shared.resumeOffset = resumable?.bytes.count ?? 0
            shared.lastActivity = now
            return true
        }
        guard started else { return task.cancel() }
        task.resume()
        scheduleTimeoutCheck()
    }

    // MARK: Delegate-queue callbacks: checks and queuing only, never decoding

    /// Checks the response; false means refuse it (the delegate then cancels the task).
    func didReceive(response: URLResponse) -> Bool {
        let resumeOffset = shared.withLock { shared -> Int? in
            guard !shared.isStopped else { return nil }
            shared.lastActivity = Self.uptime
            return shared.resumeOffset
        }
        guard let resumeOffset else { return false }
        guard let http = response as? HTTPURLResponse else { return true }
        let status = http.statusCode
        let declaredLength = http.expectedContentLength >= 0 ? Int(http.expectedContentLength) : nil
        if status == 206, resumeOffset > 0,
           let range = http.value(forHTTPHeaderField: "Content-Range").flatMap(ContentRange.init), range.first == resumeOffset {
            queue.async { self.continueResumedDownload(totalLength: range.total) }
            return checkDeclaredLength(range.total ?? declaredLength.map { $0 + resumeOffset })
        }
        guard (200..<300).contains(status), status != 206 else {
            stopWithError(.httpStatus(status))
            return false
        }
        shared.withLock { $0.resumeOffset = 0 }
        let validator = ResumableDownload.validator(of: http)
        queue.async { self.startFreshDownload(expectedLength: declaredLength, validator: validator) }
        return checkDeclaredLength(declaredLength)
    }

    private func checkDeclaredLength(_ length: Int?) -> Bool {
        guard let length, length > core.configuration.maximumBodySize else { return true }
        stopWithError(.bodyTooLarge(limit: core.configuration.maximumBodySize))
        return false
    }

    /// Queues received bytes for the job's queue (never decodes here).
    func didReceive(data: Data) {
        let limit = core.configuration.maximumBodySize
        let (scheduleDrain, tooLarge) = shared.withLock { shared -> (Bool, Bool) in
            guard !shared.isStopped, shared.phase == .active else { return (false, false) }
            shared.receivedBytes += data.count
            shared.lastActivity = Self.uptime
            if shared.receivedBytes + shared.resumeOffset > limit { return (false, true) }
            shared.pending.append(data)
            let schedule = !shared.drainScheduled
            shared.drainScheduled = true
            return (schedule, false)
        }
        if tooLarge { return stopWithError(.bodyTooLarge(limit: limit)) }
        if scheduleDrain { queue.async { self.drain() } }
    }

    /// The task ended; runs the outcome on the job's queue after every queued byte.
    func downloadDidComplete(error: (any Error)?) {
        queue.async { self.finishDownload(error: error) }
    }

    /// Stops the download now and fails the job on its queue (after what is already queued).
    private func stopWithError(_ error: ImageLoadingError) {
        stopDownload()
        queue.async { self.fail(error) }
    }

    // MARK: On the job's queue

    private func continueResumedDownload(totalLength: Int?) {
        guard !isDone, let resumable else { return }
        self.resumable = nil
        expectedLength = totalLength
        resumeValidator = resumable.validator
        ingest(resumable.bytes)
    }

    private func startFreshDownload(expectedLength: Int?, validator: String?) {
        guard !isDone else { return }
        if resumable != nil {
            // The server sent the whole (maybe changed) file: the old prefix is worthless.
            resumable = nil
            core.diskCache?.remove(key: dataCacheKey, kind: .partial)
        }
        self.expectedLength = expectedLength
        resumeValidator = validator
    }

    private func finishDownload(error: (any Error)?) {
        drain()
        guard !isDone else { return }
        if let error {
            guard let failure = Self.loadingError(from: error) else { return }  // cancelled by us
            savePartialDownload()
            return fail(failure)
        }
        do {
            deliverFinal(try decoder.finish(), source: .network)
        } catch {
            fail(Self.decodingFailure(error))
        }
    }

    /// Keeps what arrived of a broken transfer in the disk cache, if the server allows resuming it.
    private func savePartialDownload() {
        guard let validator = resumeValidator, let data = retainedData, !data.isEmpty, let disk = core.diskCache else { return }
        let partial = ResumableDownload(bytes: data, validator: validator, totalLength: expectedLength)
        disk.write(key: dataCacheKey, kind: .partial, metadata: partial.metadata, payload: data)
    }

    /// Maps a URLSession error; nil for a cancellation (ours).
    static func loadingError(from error: any Error) -> ImageLoadingError? {
        let code = (error as? URLError)?.code.rawValue ?? (error as NSError).code
        switch code {
        case URLError.cancelled.rawValue: return nil
        case URLError.timedOut.rawValue: return .timedOut
        default: return .network(code: code, message: error.localizedDescription)
        }
    }

    /// Fails the job when the server has been silent for `idleTimeout`, or the download has run
    /// for `totalTimeout`. Checks a few times per timeout period, on the job's queue.
    private func scheduleTimeoutCheck() {
        let configuration = core.configuration
        let period = min(max(min(configuration.idleTimeout, configuration.totalTimeout) / 4, 0.01), 1)
        // Weak: a cancelled job must not live on until its next check.
        queue.asyncAfter(deadline: .now() + period) { [weak self] in
            guard let self, !self.isDone else { return }
            let now = Self.uptime
            let lastActivity = shared.withLock { $0.lastActivity }
            let idle = Double(now &- lastActivity) / 1e9, total = Double(now &- downloadStart) / 1e9
            if idle >= configuration.idleTimeout || total >= configuration.totalTimeout {
                savePartialDownload()
                return fail(.timedOut)
            }
            self.scheduleTimeoutCheck()
        }
    }
}
