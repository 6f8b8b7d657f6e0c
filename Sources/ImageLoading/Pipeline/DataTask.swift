import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IncrementalImage

/// One resource (``DataKey``): the disk-cache lookup, HTTP freshness and revalidation, the
/// download through ``DataLoading`` with resume, retries and timeouts, and the disk write. Its
/// bytes fan out to any number of ``DecodeTask``s; one that joins late is first sent the
/// current body so far.
///
/// Everything but ``start()``, ``attach(_:)``, ``beginDownload()`` and ``cancel()`` (which only
/// hop onto it) runs on ``queue``, checked with `dispatchPrecondition`.
final class DataTask: @unchecked Sendable {
    let key: DataKey
    /// The request of the decode task that made this data task: its URL request is what is sent.
    let request: ImageRequest
    let core: LoaderCore
    let queue: DispatchQueue

    /// Where the task stands; each case carries what only holds then.
    private enum Phase {
        /// Made, not started.
        case idle
        /// In the core's download queue.
        case waitingForSlot
        /// Holding a download slot, no transfer under way yet (about to start one).
        case holdingSlot
        /// The request modifier runs for attempt `id`.
        case preparing(id: Int)
        /// A transfer is under way.
        case downloading(Transfer)
        /// Waiting to retry after a transient failure.
        case backingOff
        /// Finished, failed or cancelled: nothing more happens.
        case ended
    }

    /// One attempt on the network.
    private struct Transfer {
        let id: Int
        let task: any DataLoadingTask
        let requestTime: Date
        let started: UInt64
        var lastActivity: UInt64
        /// Whether a body is being received (false until a usable response head arrived).
        var receivingBody = false
        /// The HTTP status that started the body (200 or 206).
        var status: Int?
    }

    // Queue-confined:
    private var phase = Phase.idle
    /// What a decode task that joins now must be sent first: the cached copy (refreshCached),
    /// then the current body from its start, then the end if there is one.
    private var log: [ResourceEvent] = []
    private var consumers: [DecodeTask] = []
    /// The disk entry being revalidated (or, for refreshCached, compared), if any.
    private var cachedEntry: (payload: Data, info: CachedResponseInfo)?
    /// Where the next attempt resumes from, if it can.
    private var resumePoint: ResumableDownload?
    /// Bytes of the current body received (delivered to the decode tasks).
    private var bodyCount = 0
    private var expectedLength: Int?
    /// The response the current body belongs to.
    private var bodyInfo: CachedResponseInfo?
    /// `If-Range` validator of the current body (nil: not resumable).
    private var bodyValidator: String?
    private var retriesDone = 0
    private var attemptCounter = 0
    private var firstByte: Date?

    /// When the load that created this task was asked for (the loader's subscriber number): the
    /// download queue's order within one priority.
    let arrival: Int

    init(core: LoaderCore, key: DataKey, request: ImageRequest, arrival: Int) {
        self.core = core
        self.key = key
        self.request = request
        self.arrival = arrival
        queue = DispatchQueue(label: "ImageLoading.data", target: core.networkQueue)
    }

    private var disk: DiskCache? { core.diskCache }
    private var policy: ImageCachePolicy { key.cachePolicy }
    static var uptime: UInt64 { DispatchTime.now().uptimeNanoseconds }

    // MARK: Entry points (any thread)

    /// Looks up the disk cache, then serves from it or joins the download queue.
    func start() { queue.async { self.lookUp() } }

    /// Sends `task` everything so far, then every later event.
    func attach(_ task: DecodeTask) {
        queue.async {
            for event in self.log { task.receive(event) }
            if case .ended = self.phase { return }
            self.consumers.append(task)
        }
    }

    /// The core gave this task a download slot.
    func beginDownload() {
        queue.async {
            guard case .waitingForSlot = self.phase else { return self.core.releaseDownloadSlot(self) }
            self.phase = .holdingSlot
            self.startAttempt()
        }
    }

    /// No decode task wants the bytes any more: stop, keeping what arrived for a later resume.
    func cancel() {
        queue.async {
            if case .ended = self.phase { return }
            if case .downloading(let transfer) = self.phase { transfer.task.cancel() }
            self.savePartialDownload()
            self.phase = .ended
            self.consumers = []
            self.log = []
            self.core.releaseDownloadSlot(self)
        }
    }

    // MARK: Cache lookup

    private func lookUp() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard case .idle = phase else { return }
        if policy.readsDisk, let disk, let record = disk.read(key: dataCacheKey, kind: .complete) {
            let info = CachedResponseInfo(metadata: record.metadata)
            if isTooOld(record) {
                disk.remove(key: dataCacheKey, kind: .complete)
            } else if policy == .refreshCached {
                cachedEntry = (record.payload, info)
                emit(.cachedCopy(record.payload))
            } else if policy == .cacheOrFail || info.isFresh(now: Date(), defaultMaxAge: core.configuration.defaultMaxAge) {
                return serve(record.payload, info: info, source: .diskCache, status: nil)
            } else {
                cachedEntry = (record.payload, info)
            }
        }
        guard policy.usesNetwork else { return fail(.notCached) }
        if request.url.isFileURL { return loadFile() }
        if policy.readsDisk, cachedEntry == nil, let record = disk?.read(key: dataCacheKey, kind: .partial) {
            resumePoint = ResumableDownload(record: record)
        }
        phase = .waitingForSlot
        core.enqueueDownload(self)
    }

    /// The disk-cache key of the encoded bytes.
    private var dataCacheKey: String { "data " + key.resource }

    /// Whether a disk entry is older than ``ImageLoader/Configuration/diskCacheMaxAge``.
    private func isTooOld(_ record: DiskCacheRecord) -> Bool {
        guard let maxAge = core.configuration.diskCacheMaxAge else { return false }
        let stored = record.metadata["t.stored"].flatMap(TimeInterval.init).map(Date.init(timeIntervalSince1970:))
        return Date().timeIntervalSince(stored ?? .distantPast) > maxAge
    }

    /// Sends a whole cached payload as the body and finishes.
    private func serve(_ payload: Data, info: CachedResponseInfo, source: ImageResponse.Source, status: Int?) {
        startBody(expectedLength: payload.count)
        emit(.bytes(payload))
        bodyCount = payload.count
        finish(ResourceOutcome(source: source, httpStatus: status, headers: info.headers, firstByte: nil,
                               expiry: info.expiryDate(defaultMaxAge: core.configuration.defaultMaxAge),
                               matchesCachedCopy: policy == .refreshCached))
    }

    // MARK: Attempts

    private func startAttempt() {
        dispatchPrecondition(condition: .onQueue(queue))
        attemptCounter += 1
        let id = attemptCounter
        var urlRequest = request.urlRequest
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        if let resumePoint {
            resumePoint.apply(to: &urlRequest)
        } else if let cachedEntry, cachedEntry.info.hasValidator {
            cachedEntry.info.addConditions(to: &urlRequest)
        }
        guard let modifier = core.configuration.requestModifier else { return send(urlRequest, id: id) }
        phase = .preparing(id: id)
        let prepared = urlRequest
        Task {
            do {
                let modified = try await modifier(prepared)
                self.queue.async { self.send(modified, id: id) }
            } catch {
                self.queue.async {
                    guard case .preparing(let current) = self.phase, current == id else { return }
                    self.fail(.requestModifierFailed(String(describing: error)))
                }
            }
        }
    }

    private func send(_ urlRequest: URLRequest, id: Int) {
        dispatchPrecondition(condition: .onQueue(queue))
        switch phase {
        case .holdingSlot: break
        case .preparing(let current) where current == id: break
        default: return
        }
        guard core.holdsDownloadSlot(self) else { return }
        let task = core.dataLoader.startLoading(urlRequest) { [weak self] event in
            guard let self else { return }
            self.queue.async { self.handle(event, attempt: id) }
        }
        let now = Self.uptime
        phase = .downloading(Transfer(id: id, task: task, requestTime: Date(), started: now, lastActivity: now))
        scheduleTimeoutCheck(attempt: id)
    }

    private func handle(_ event: DataLoadingEvent, attempt id: Int) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard case .downloading(var transfer) = phase, transfer.id == id else { return }
        transfer.lastActivity = Self.uptime
        phase = .downloading(transfer)
        switch event {
        case .response(let response): handleResponse(response, transfer: transfer)
        case .data(let data): handleData(data, transfer: transfer)
        case .completed(let error): handleCompletion(error, transfer: transfer)
        }
    }

    private func handleResponse(_ response: URLResponse, transfer: Transfer) {
        var transfer = transfer
        guard let http = response as? HTTPURLResponse else {
            transfer.receivingBody = true
            phase = .downloading(transfer)
            return startBody(expectedLength: response.expectedContentLength >= 0 ? Int(response.expectedContentLength) : nil)
        }
        let status = http.statusCode
        if status == 304, let cachedEntry {
            transfer.task.cancel()
            return revalidated(cachedEntry, by: http, requestTime: transfer.requestTime)
        }
        if let resume = resumePoint {
            let range = http.value(forHTTPHeaderField: "Content-Range").flatMap(ContentRange.init)
            if status == 206, let range, range.first == resume.offset, !ResumableDownload.isContentCoded(http) {
                transfer.receivingBody = true
                transfer.status = 206
                phase = .downloading(transfer)
                return continueBody(from: resume, response: http, totalLength: range.total, requestTime: transfer.requestTime)
            }
            // Any other answer to a resume (416 for a stale partial, a wrong range, an error):
            // the partial is worthless. A 200 carries the whole file; otherwise ask for it.
            resumePoint = nil
            disk?.remove(key: dataCacheKey, kind: .partial)
            if status != 200 {
                transfer.task.cancel()
                phase = .holdingSlot
                return startAttempt()
            }
        }
        guard (200..<300).contains(status), status != 206 else {
            transfer.task.cancel()
            return attemptFailed(.httpStatus(status), retryAfter: http.value(forHTTPHeaderField: "Retry-After"))
        }
        let coded = ResumableDownload.isContentCoded(http)
        let declared = http.expectedContentLength >= 0 && !coded ? Int(http.expectedContentLength) : nil
        if let declared, declared > core.configuration.maximumBodySize {
            transfer.task.cancel()
            return fail(.bodyTooLarge(limit: core.configuration.maximumBodySize))
        }
        transfer.receivingBody = true
        transfer.status = status
        phase = .downloading(transfer)
        bodyInfo = CachedResponseInfo(response: http, requestTime: transfer.requestTime, responseTime: Date())
        bodyValidator = ResumableDownload.validator(of: http)
        startBody(expectedLength: declared)
    }

    /// A 206 answered a resume: the decode tasks get the prefix if they lack it, then the rest.
    private func continueBody(from resume: ResumableDownload, response: HTTPURLResponse, totalLength: Int?,
                              requestTime: Date) {
        resumePoint = nil
        bodyValidator = resume.validator
        if bodyInfo == nil { bodyInfo = CachedResponseInfo(response: response, requestTime: requestTime, responseTime: Date()) }
        if let prefix = resume.bytes {
            // From a partial disk entry: nothing was delivered yet.
            startBody(expectedLength: totalLength)
            bodyCount = prefix.count
            emit(.bytes(prefix))
        } else {
            expectedLength = totalLength ?? expectedLength
        }
    }

    private func handleData(_ data: Data, transfer: Transfer) {
        guard transfer.receivingBody, !data.isEmpty else { return }
        if firstByte == nil { firstByte = Date() }
        let limit = core.configuration.maximumBodySize
        guard bodyCount + data.count <= limit else {
            transfer.task.cancel()
            return fail(.bodyTooLarge(limit: limit))
        }
        bodyCount += data.count
        emit(.bytes(data))
    }

    private func handleCompletion(_ error: (any Error)?, transfer: Transfer) {
        if let error {
            guard let failure = Self.loadingError(from: error) else { return }  // our own cancel
            return attemptFailed(failure, retryAfter: nil)
        }
        guard transfer.receivingBody else { return attemptFailed(.network(code: URLError.badServerResponse.rawValue,
                                                                          message: "the transfer ended without a response"),
                                                                 retryAfter: nil) }
        succeed(status: transfer.status)
    }

    /// Maps a transport error; nil for a cancellation (ours).
    static func loadingError(from error: any Error) -> ImageLoadingError? {
        if let error = error as? ImageLoadingError { return error }
        let code = (error as? URLError)?.code.rawValue ?? (error as NSError).code
        switch code {
        case URLError.cancelled.rawValue: return nil
        case URLError.timedOut.rawValue: return .timedOut
        default: return .network(code: code, message: error.localizedDescription)
        }
    }

    // MARK: Bodies

    /// The current body's bytes, gathered from the log (which holds them anyway for decode
    /// tasks that join late), so a download is never held twice.
    private func bodyBytes() -> Data {
        var bytes = Data(capacity: bodyCount)
        for event in log { if case .bytes(let piece) = event { bytes.append(piece) } }
        return bytes
    }

    /// A new body begins: decode tasks start over.
    private func startBody(expectedLength: Int?) {
        self.expectedLength = expectedLength
        bodyCount = 0
        // The log restarts with the body (a refreshCached copy stays first).
        log.removeAll { if case .cachedCopy = $0 { return false } else { return true } }
        emit(.bodyStarted(expectedLength: expectedLength))
    }

    private func emit(_ event: ResourceEvent) {
        dispatchPrecondition(condition: .onQueue(queue))
        log.append(event)
        for consumer in consumers { consumer.receive(event) }
    }

    /// The body is complete: disk write, then the outcome to every decode task.
    private func succeed(status: Int?) {
        let info = bodyInfo
        let noStore = info?.cacheControl.noStore ?? false
        let body = (disk != nil && policy.writesDisk) || cachedEntry != nil ? bodyBytes() : nil
        if let disk, policy.writesDisk {
            if let body, !noStore, bodyCount > 0 {
                var metadata = info?.metadata ?? [:]
                metadata["t.stored"] = String(Date().timeIntervalSince1970)
                disk.write(key: dataCacheKey, kind: .complete, metadata: metadata, payload: body)
            } else if noStore {
                disk.remove(key: dataCacheKey, kind: .complete)
            }
            disk.remove(key: dataCacheKey, kind: .partial)
        }
        let matches = policy == .refreshCached && body != nil && body == cachedEntry?.payload
        core.failures.forget(request.url)
        finish(ResourceOutcome(source: .network, httpStatus: status, headers: info?.headers ?? [:], firstByte: firstByte,
                               expiry: noStore ? Date() : info?.expiryDate(defaultMaxAge: core.configuration.defaultMaxAge),
                               matchesCachedCopy: matches))
    }

    /// A 304 confirmed the cached entry: its metadata is refreshed and its bytes served.
    private func revalidated(_ entry: (payload: Data, info: CachedResponseInfo), by response: HTTPURLResponse,
                             requestTime: Date) {
        let info = entry.info.refreshed(by: response, requestTime: requestTime, responseTime: Date())
        if let disk, policy.writesDisk {
            var metadata = info.metadata
            metadata["t.stored"] = String(Date().timeIntervalSince1970)
            disk.write(key: dataCacheKey, kind: .complete, metadata: metadata, payload: entry.payload)
        }
        core.failures.forget(request.url)
        if policy == .refreshCached {
            return finish(ResourceOutcome(source: .revalidated, httpStatus: 304, headers: info.headers, firstByte: nil,
                                          expiry: info.expiryDate(defaultMaxAge: core.configuration.defaultMaxAge),
                                          matchesCachedCopy: true))
        }
        serve(entry.payload, info: info, source: .revalidated, status: 304)
    }

    private func finish(_ outcome: ResourceOutcome) {
        emit(.finished(outcome))
        end()
    }

    /// Fails the resource for good (retries spent or not retryable).
    private func fail(_ error: ImageLoadingError) {
        if error != .notCached { core.failures.record(error, for: request.url) }
        emit(.failed(error))
        end()
    }

    private func end() {
        phase = .ended
        consumers = []
        core.dataTaskEnded(self)
    }

    // MARK: Failures and retries

    /// One attempt failed: retry if the policy allows (resuming where possible), else fail.
    private func attemptFailed(_ error: ImageLoadingError, retryAfter: String?) {
        if case .downloading(let transfer) = phase { transfer.task.cancel() }
        if bodyCount > 0, let bodyValidator {
            resumePoint = ResumableDownload(offset: bodyCount, bytes: nil, validator: bodyValidator, totalLength: expectedLength)
        }
        let retry = core.configuration.retryPolicy
        guard retry.isRetryable(error), retriesDone < retry.maximumRetries else {
            savePartialDownload()
            return fail(error)
        }
        retriesDone += 1
        let delay = retry.delay(beforeRetry: retriesDone, retryAfter: retryAfter)
        phase = .backingOff
        core.releaseDownloadSlot(self)
        queue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self, case .backingOff = self.phase else { return }
            self.phase = .waitingForSlot
            self.core.enqueueDownload(self)
        }
    }

    /// Keeps what arrived of a broken transfer in the disk cache, if the server allows resuming it.
    private func savePartialDownload() {
        guard let disk, policy.writesDisk, let bodyValidator, bodyCount > 0 else { return }
        let body = bodyBytes()
        guard body.count == bodyCount else { return }
        let partial = ResumableDownload(offset: body.count, bytes: body, validator: bodyValidator, totalLength: expectedLength)
        disk.write(key: dataCacheKey, kind: .partial, metadata: partial.metadata, payload: body)
    }

    /// Fails the attempt when the server has been silent for `idleTimeout`, or the attempt has
    /// run for `totalTimeout`. Checks a few times per timeout period.
    private func scheduleTimeoutCheck(attempt id: Int) {
        let configuration = core.configuration
        let period = min(max(min(configuration.idleTimeout, configuration.totalTimeout) / 4, 0.01), 1)
        queue.asyncAfter(deadline: .now() + period) { [weak self] in
            guard let self, case .downloading(let transfer) = self.phase, transfer.id == id else { return }
            let now = Self.uptime
            let idle = Double(now &- transfer.lastActivity) / 1e9, total = Double(now &- transfer.started) / 1e9
            if idle >= configuration.idleTimeout || total >= configuration.totalTimeout {
                return self.attemptFailed(.timedOut, retryAfter: nil)
            }
            self.scheduleTimeoutCheck(attempt: id)
        }
    }

    // MARK: Files

    /// Bytes read per step from a file URL.
    static let fileChunkSize = 1 << 16

    /// Reads a `file:` URL in chunks, as a body.
    private func loadFile() {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: request.url)
        } catch {
            return fail(.network(code: URLError.fileDoesNotExist.rawValue, message: error.localizedDescription))
        }
        defer { handle.closeFile() }
        let size = (try? request.url.resourceValues(forKeys: [.fileSizeKey]))?.fileSize
        phase = .downloading(Transfer(id: 0, task: NoTransfer(), requestTime: Date(), started: Self.uptime,
                                      lastActivity: Self.uptime, receivingBody: true))
        startBody(expectedLength: size)
        while case .downloading = phase {
            let chunk = handle.readData(ofLength: Self.fileChunkSize)
            guard !chunk.isEmpty else { break }
            if firstByte == nil { firstByte = Date() }
            bodyCount += chunk.count
            emit(.bytes(chunk))
        }
        guard case .downloading = phase else { return }
        finish(ResourceOutcome(source: .network, httpStatus: nil, headers: [:], firstByte: firstByte, expiry: nil,
                               matchesCachedCopy: false))
    }

    private struct NoTransfer: DataLoadingTask { func cancel() {} }
}
