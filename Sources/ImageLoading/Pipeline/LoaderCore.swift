import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IncrementalImage

/// The shared machinery behind an ``ImageLoader``: the table of running jobs (for coalescing),
/// the download slots and their priority queue, the URL session, the caches.
///
/// Locking: `table` guards the job table; each job guards its own state. When both are needed
/// the table lock is taken first, never the other way round. No lock is held while calling
/// URLSession, user code or a mailbox.
final class LoaderCore: Sendable {
    let configuration: ImageLoader.Configuration
    let memoryCache: MemoryImageCache
    let diskCache: DiskCache?
    let failures: FailedURLMemory
    let session: URLSession
    /// Every job's serial queue targets this one, so decoding never uses more threads than cores.
    let decodingQueue = DispatchQueue(label: "ImageLoading.decoding", qos: .userInitiated, attributes: .concurrent)

    private struct JobTable {
        var jobs: [JobKey: ImageJob] = [:]
        var jobsByTask: [Int: ImageJob] = [:]
        var waiting = DownloadQueue<ImageJob>()
        /// Jobs holding a download slot.
        var running: Set<ObjectIdentifier> = []
        var nextSubscriberID = 0
        var prefetches: [URL: (job: ImageJob, subscriberID: Int)] = [:]
        var isShutDown = false
    }

    private let table = LockedState(JobTable())

    init(configuration: ImageLoader.Configuration) {
        self.configuration = configuration
        memoryCache = MemoryImageCache(costLimit: configuration.memoryCacheCostLimit)
        diskCache = configuration.diskCacheDirectory.map { DiskCache(directory: $0, sizeLimit: configuration.diskCacheSizeLimit) }
        failures = FailedURLMemory(duration: configuration.failureMemoryDuration)
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        // The loader caches on its own; URLCache would hide requests from it (and from tests).
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // Backstops only: each job runs its own idle and total timers (see ImageJob).
        sessionConfiguration.timeoutIntervalForRequest = configuration.idleTimeout + 5
        sessionConfiguration.timeoutIntervalForResource = configuration.totalTimeout + 5
        sessionConfiguration.httpMaximumConnectionsPerHost = max(configuration.maxConcurrentDownloads, 1)
        let delegate = SessionDelegate()
        let delegateQueue = OperationQueue()
        delegateQueue.name = "ImageLoading.session"
        delegateQueue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: delegateQueue)
        delegate.core = self
    }

    // MARK: Subscribing

    /// Adds a subscriber to the job for `request`, creating and starting the job if none runs.
    /// Returns nil after shutdown.
    func subscribe(_ request: ImageRequest, mailbox: EventMailbox?) -> (job: ImageJob, subscriberID: Int)? {
        let key = JobKey(result: request.resultKey, cachePolicy: request.cachePolicy)
        let subscriber = Subscriber(mailbox: mailbox, priority: request.priority, wantsPreviews: request.deliversPreviews && mailbox != nil)
        var created: ImageJob?
        let result = table.withLock { table -> (ImageJob, Int)? in
            guard !table.isShutDown else { return nil }
            let id = table.nextSubscriberID
            table.nextSubscriberID += 1
            if let existing = table.jobs[key], existing.addSubscriber(id: id, subscriber) {
                if table.waiting.contains(existing) { table.waiting.update(existing, priority: existing.priority) }
                return (existing, id)
            }
            let job = ImageJob(core: self, key: key, request: request)
            _ = job.addSubscriber(id: id, subscriber)
            table.jobs[key] = job
            created = job
            return (job, id)
        }
        created?.start()
        return result
    }

    /// Removes a subscriber; the last one leaving cancels the job (download and decoding).
    func unsubscribe(_ job: ImageJob, subscriberID: Int) {
        var freedSlot = false
        let abandoned = table.withLock { table -> Bool in
            guard job.removeSubscriber(id: subscriberID) else {
                if table.waiting.contains(job) { table.waiting.update(job, priority: job.priority) }
                return false
            }
            freedSlot = remove(job, from: &table)
            return true
        }
        if abandoned { job.cancel() }
        if freedSlot { startWaitingDownloads() }
    }

    /// Changes one subscriber's priority (and so maybe the job's place in the queue).
    func setPriority(_ priority: ImagePriority, of job: ImageJob, subscriberID: Int) {
        table.withLock { table in
            job.setPriority(priority, subscriberID: subscriberID)
            if table.waiting.contains(job) { table.waiting.update(job, priority: job.priority) }
        }
    }

    // MARK: Prefetching

    /// Starts loading `urls` into the caches (no events), unless cached or already prefetching.
    func prefetch(_ urls: [URL], priority: ImagePriority) {
        for url in urls {
            let request = ImageRequest(url: url, priority: priority, deliversPreviews: false)
            if memoryCache.image(for: request.resultKey) != nil || failures.failure(for: url) != nil { continue }
            if table.withLock({ $0.prefetches[url] != nil }) { continue }
            guard let (job, id) = subscribe(request, mailbox: nil) else { return }
            // A concurrent prefetch of the same URL may have won the race: keep one subscription.
            let isDuplicate = table.withLock { table -> Bool in
                if table.prefetches[url] != nil { return true }
                table.prefetches[url] = (job, id)
                return false
            }
            if isDuplicate { unsubscribe(job, subscriberID: id) }
        }
    }

    /// Stops prefetching `urls` (loads that someone else also asked for keep going).
    func cancelPrefetch(_ urls: [URL]) {
        for url in urls {
            guard let entry = table.withLock({ $0.prefetches.removeValue(forKey: url) }) else { continue }
            unsubscribe(entry.job, subscriberID: entry.subscriberID)
        }
    }

    // MARK: Download slots

    /// Puts a job in the download queue and starts what the free slots allow.
    func enqueueDownload(_ job: ImageJob) {
        table.withLock { table in
            guard table.jobs[job.key] === job else { return }  // cancelled meanwhile
            table.waiting.enqueue(job, priority: job.priority)
        }
        startWaitingDownloads()
    }

    private func startWaitingDownloads() {
        let starting = table.withLock { table -> [ImageJob] in
            var jobs: [ImageJob] = []
            while table.running.count < configuration.maxConcurrentDownloads, let job = table.waiting.dequeue() {
                table.running.insert(ObjectIdentifier(job))
                jobs.append(job)
            }
            return jobs
        }
        for job in starting { job.beginDownload() }
    }

    /// Makes a data task for a job that holds a slot, registered so callbacks find the job;
    /// nil if the job lost its slot meanwhile (cancelled). The caller resumes it.
    func makeTask(for job: ImageJob, request: URLRequest) -> URLSessionDataTask? {
        let task = session.dataTask(with: request)
        let registered = table.withLock { table -> Bool in
            guard table.running.contains(ObjectIdentifier(job)) else { return false }
            table.jobsByTask[task.taskIdentifier] = job
            return true
        }
        return registered ? task : nil
    }

    /// The job that owns a task, if it is still running.
    func job(forTask identifier: Int) -> ImageJob? {
        table.withLock { $0.jobsByTask[identifier] }
    }

    /// A task ended (finished, failed or cancelled): its slot is freed and the job told.
    func downloadDidComplete(taskIdentifier: Int, error: (any Error)?) {
        var freedSlot = false
        let job = table.withLock { table -> ImageJob? in
            guard let job = table.jobsByTask.removeValue(forKey: taskIdentifier) else { return nil }
            freedSlot = table.running.remove(ObjectIdentifier(job)) != nil
            return job
        }
        job?.downloadDidComplete(error: error)
        if freedSlot { startWaitingDownloads() }
    }

    // MARK: Ending jobs

    /// Takes a finished job out of every table and returns its subscribers, which it no longer
    /// has (so none can be added or removed any more).
    func retire(_ job: ImageJob) -> [Subscriber] {
        var freedSlot = false
        let subscribers = table.withLock { table -> [Subscriber] in
            freedSlot = remove(job, from: &table)
            return job.takeSubscribers()
        }
        if freedSlot { startWaitingDownloads() }
        return subscribers
    }

    /// Removes `job` from the table, the queue, the slots and the prefetches; returns whether it held a slot.
    private func remove(_ job: ImageJob, from table: inout JobTable) -> Bool {
        if table.jobs[job.key] === job { table.jobs[job.key] = nil }
        table.waiting.remove(job)
        for (url, entry) in table.prefetches where entry.job === job { table.prefetches[url] = nil }
        return table.running.remove(ObjectIdentifier(job)) != nil
    }

    /// Jobs in the table (running or waiting), for tests and diagnostics.
    var activeJobCount: Int { table.withLock { $0.jobs.count } }

    /// Jobs waiting for a download slot (for tests and diagnostics).
    var queuedJobCount: Int { table.withLock { $0.waiting.count } }

    /// The running job serving `request`, if any (for tests and diagnostics).
    func activeJob(for request: ImageRequest) -> ImageJob? {
        table.withLock { $0.jobs[JobKey(result: request.resultKey, cachePolicy: request.cachePolicy)] }
    }

    /// Cancels every job and ends the session; later subscriptions fail.
    func shutdown() {
        let jobs = table.withLock { table -> [ImageJob] in
            table.isShutDown = true
            let jobs = Array(table.jobs.values)
            table = JobTable()
            table.isShutDown = true
            return jobs
        }
        for job in jobs { job.abort() }
        session.invalidateAndCancel()
    }
}
