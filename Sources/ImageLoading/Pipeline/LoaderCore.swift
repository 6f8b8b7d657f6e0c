import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IncrementalImage

/// The one owner of coordination behind an ``ImageLoader``: which ``DataTask`` serves a
/// resource, which ``DecodeTask`` serves a variant, who holds a download slot or a decoder slot,
/// and the queues waiting for them. Everything here is guarded by one lock (`table`); the tasks
/// do their work on their own serial queues and come back here only to coordinate.
///
/// Lock order: `table` first, then a task's own small lock (subscribers), never the other way
/// round. No lock is held while calling the network, user code or a mailbox.
final class LoaderCore: Sendable {
    let configuration: ImageLoader.Configuration
    let memoryCache: MemoryImageCache
    let diskCache: DiskCache?
    let failures: FailedURLMemory
    let dataLoader: any DataLoading
    /// The loader made here from the configuration (not a caller's), ended with the loader.
    private let ownedSessionLoader: URLSessionDataLoader?
    /// Every decode task's serial queue targets this one, so decoding never uses more threads than cores.
    let decodingQueue = DispatchQueue(label: "ImageLoading.decoding", qos: .userInitiated, attributes: .concurrent)
    /// Every data task's serial queue targets this one (network bookkeeping and disk I/O).
    let networkQueue = DispatchQueue(label: "ImageLoading.network", qos: .userInitiated, attributes: .concurrent)

    private struct Table {
        var dataTasks: [DataKey: DataTask] = [:]
        var decodeTasks: [DecodeKey: DecodeTask] = [:]
        /// The decode tasks fed by each data task (by the data task's identity).
        var consumers: [ObjectIdentifier: [DecodeTask]] = [:]
        var waitingDownloads = DownloadQueue<DataTask>()
        var runningDownloads: Set<ObjectIdentifier> = []
        var waitingDecodes = DownloadQueue<DecodeTask>()
        var runningDecodes: Set<ObjectIdentifier> = []
        var nextSubscriberID = 0
        var prefetches: [URL: (task: DecodeTask, subscriberID: Int)] = [:]
        var isSuspended = false
        var isShutDown = false
    }

    private let table = LockedState(Table())

    init(configuration: ImageLoader.Configuration) {
        self.configuration = configuration
        memoryCache = MemoryImageCache(costLimit: configuration.memoryCacheCostLimit,
                                       countLimit: configuration.memoryCacheCountLimit)
        diskCache = configuration.diskCacheDirectory.map { DiskCache(directory: $0, sizeLimit: configuration.diskCacheSizeLimit) }
        failures = FailedURLMemory(duration: configuration.failureMemoryDuration)
        if let given = configuration.dataLoader {
            dataLoader = given
            ownedSessionLoader = nil
        } else {
            let made = URLSessionDataLoader(
                configuration: configuration.sessionConfiguration, maximumRedirects: configuration.maximumRedirects,
                challengeHandler: configuration.authenticationChallengeHandler,
                allowsInvalidCertificates: configuration.allowsInvalidCertificates)
            dataLoader = made
            ownedSessionLoader = made
        }
    }

    // MARK: Subscribing

    /// Adds a subscriber to the decode task for `request`, creating it (and its data task, unless
    /// one already serves the resource) if needed. Nil after shutdown.
    ///
    /// - Parameter deliveredFromMemory: ``ImageCachePolicy/refreshCached`` found the image in
    ///   memory and already delivered it, so the cached copy need not be decoded.
    func subscribe(_ request: ImageRequest, mailbox: EventMailbox?, deliveredFromMemory: Bool = false)
        -> (task: DecodeTask, subscriberID: Int)? {
        let key = DecodeKey(result: request.resultKey, cachePolicy: request.cachePolicy)
        let subscriber = Subscriber(mailbox: mailbox, priority: request.priority,
                                    wantsPreviews: request.deliversPreviews && mailbox != nil)
        var createdDecode: DecodeTask?, createdData: DataTask?
        let result = table.withLock { table -> (DecodeTask, Int)? in
            guard !table.isShutDown else { return nil }
            let id = table.nextSubscriberID
            table.nextSubscriberID += 1
            if let existing = table.decodeTasks[key], existing.addSubscriber(id: id, subscriber) {
                reprioritise(existing, in: &table)
                return (existing, id)
            }
            let data: DataTask
            if let running = table.dataTasks[key.dataKey] {
                data = running
            } else {
                data = DataTask(core: self, key: key.dataKey, request: request, arrival: id)
                table.dataTasks[key.dataKey] = data
                createdData = data
            }
            let decode = DecodeTask(core: self, key: key, request: request, dataTask: data, arrival: id,
                                    deliveredFromMemory: deliveredFromMemory)
            _ = decode.addSubscriber(id: id, subscriber)
            table.decodeTasks[key] = decode
            table.consumers[ObjectIdentifier(data), default: []].append(decode)
            reprioritise(decode, in: &table)
            createdDecode = decode
            return (decode, id)
        }
        if let createdDecode { createdDecode.dataTask?.attach(createdDecode) }
        createdData?.start()
        return result
    }

    /// Removes a subscriber; the last one leaving cancels the decode task, and the last decode
    /// task leaving a data task cancels the download.
    func unsubscribe(_ task: DecodeTask, subscriberID: Int) {
        let abandoned = table.withLock { table -> Bool in
            guard task.removeSubscriber(id: subscriberID) else {
                reprioritise(task, in: &table)
                return false
            }
            return true
        }
        if abandoned { task.cancel() }
    }

    /// Changes one subscriber's priority (and so maybe its tasks' places in the queues).
    func setPriority(_ priority: ImagePriority, of task: DecodeTask, subscriberID: Int) {
        table.withLock { table in
            task.setPriority(priority, subscriberID: subscriberID)
            reprioritise(task, in: &table)
        }
    }

    /// Moves `task` and its data task in the queues they wait in.
    private func reprioritise(_ task: DecodeTask, in table: inout Table) {
        if table.waitingDecodes.contains(task) { table.waitingDecodes.update(task, priority: task.priority) }
        guard let data = task.dataTask, table.waitingDownloads.contains(data) else { return }
        table.waitingDownloads.update(data, priority: priority(of: data, in: table))
    }

    /// A data task's priority: the highest of its decode tasks'.
    private func priority(of data: DataTask, in table: Table) -> ImagePriority {
        table.consumers[ObjectIdentifier(data)]?.map(\.priority).max() ?? .veryLow
    }

    // MARK: Prefetching

    /// Starts loading `urls` into the caches (no events), unless cached or already prefetching.
    func prefetch(_ urls: [URL], priority: ImagePriority) {
        for url in urls {
            let request = ImageRequest(url: url, priority: priority, deliversPreviews: false)
            if memoryCache.image(for: request.resultKey)?.isFresh == true || failures.failure(for: url) != nil { continue }
            if table.withLock({ $0.prefetches[url] != nil }) { continue }
            guard let (task, id) = subscribe(request, mailbox: nil) else { return }
            // A concurrent prefetch of the same URL may have won the race: keep one subscription.
            let isDuplicate = table.withLock { table -> Bool in
                if table.prefetches[url] != nil { return true }
                table.prefetches[url] = (task, id)
                return false
            }
            if isDuplicate { unsubscribe(task, subscriberID: id) }
        }
    }

    /// Stops prefetching `urls` (loads that someone else also asked for keep going).
    func cancelPrefetch(_ urls: [URL]) {
        for url in urls {
            guard let entry = table.withLock({ $0.prefetches.removeValue(forKey: url) }) else { continue }
            unsubscribe(entry.task, subscriberID: entry.subscriberID)
        }
    }

    // MARK: Download slots

    /// Whether queued downloads may start (running ones go on either way).
    var isSuspended: Bool {
        get { table.withLock { $0.isSuspended } }
        set {
            table.withLock { $0.isSuspended = newValue }
            if !newValue { startWaitingDownloads() }
        }
    }

    /// Puts a data task in the download queue and starts what the free slots allow.
    func enqueueDownload(_ data: DataTask) {
        table.withLock { table in
            guard table.dataTasks[data.key] === data else { return }  // cancelled meanwhile
            table.waitingDownloads.enqueue(data, priority: priority(of: data, in: table), arrival: data.arrival)
        }
        startWaitingDownloads()
    }

    private func startWaitingDownloads() {
        let starting = table.withLock { table -> [DataTask] in
            guard !table.isSuspended else { return [] }
            var tasks: [DataTask] = []
            while table.runningDownloads.count < configuration.maxConcurrentDownloads,
                  let data = table.waitingDownloads.dequeue() {
                table.runningDownloads.insert(ObjectIdentifier(data))
                tasks.append(data)
            }
            return tasks
        }
        for data in starting { data.beginDownload() }
    }

    /// A data task no longer needs its slot (finished, failed, waiting to retry).
    func releaseDownloadSlot(_ data: DataTask) {
        let freed = table.withLock { $0.runningDownloads.remove(ObjectIdentifier(data)) != nil }
        if freed { startWaitingDownloads() }
    }

    /// Whether `data` still holds a download slot (false once cancelled).
    func holdsDownloadSlot(_ data: DataTask) -> Bool {
        table.withLock { $0.runningDownloads.contains(ObjectIdentifier(data)) }
    }

    // MARK: Decoder slots

    /// Asks for a decoder slot; `task.slotGranted()` runs once it has one (maybe at once).
    func requestDecodeSlot(_ task: DecodeTask) {
        table.withLock { table in
            guard table.decodeTasks[task.key] === task, !table.runningDecodes.contains(ObjectIdentifier(task)) else { return }
            table.waitingDecodes.enqueue(task, priority: task.priority, arrival: task.arrival)
        }
        startWaitingDecodes()
    }

    private func startWaitingDecodes() {
        let starting = table.withLock { table -> [DecodeTask] in
            var tasks: [DecodeTask] = []
            while table.runningDecodes.count < configuration.maxConcurrentDecodes, let task = table.waitingDecodes.dequeue() {
                table.runningDecodes.insert(ObjectIdentifier(task))
                tasks.append(task)
            }
            return tasks
        }
        for task in starting { task.slotGranted() }
    }

    // MARK: Ending tasks

    /// A decode task ended (delivered, failed or cancelled): it leaves the table, frees its
    /// decoder slot, and its data task is cancelled if no other decode task reads it.
    /// Returns the subscribers, which the task no longer has.
    @discardableResult
    func decodeTaskEnded(_ task: DecodeTask) -> [Subscriber] {
        var abandonedData: DataTask?
        let subscribers = table.withLock { table -> [Subscriber] in
            if table.decodeTasks[task.key] === task { table.decodeTasks[task.key] = nil }
            table.waitingDecodes.remove(task)
            table.runningDecodes.remove(ObjectIdentifier(task))
            for (url, entry) in table.prefetches where entry.task === task { table.prefetches[url] = nil }
            if let data = task.dataTask {
                let id = ObjectIdentifier(data)
                table.consumers[id]?.removeAll { $0 === task }
                if table.consumers[id]?.isEmpty == true {
                    table.consumers[id] = nil
                    if table.dataTasks[data.key] === data {
                        table.dataTasks[data.key] = nil
                        table.waitingDownloads.remove(data)
                        abandonedData = data
                    }
                }
            }
            return task.takeSubscribers()
        }
        abandonedData?.cancel()
        startWaitingDecodes()
        return subscribers
    }

    /// A data task has its final outcome: later requests for the resource get a new one (which
    /// finds the result in the caches). Its decode tasks still get the outcome.
    func dataTaskEnded(_ data: DataTask) {
        table.withLock { table in
            if table.dataTasks[data.key] === data { table.dataTasks[data.key] = nil }
            table.waitingDownloads.remove(data)
        }
        releaseDownloadSlot(data)
    }

    // MARK: Diagnostics (tests)

    /// Decode tasks in the table (running or waiting).
    var activeJobCount: Int { table.withLock { $0.decodeTasks.count } }

    /// Data tasks in the table (running or waiting).
    var activeDataTaskCount: Int { table.withLock { $0.dataTasks.count } }

    /// Data tasks waiting for a download slot.
    var queuedJobCount: Int { table.withLock { $0.waitingDownloads.count } }

    /// Decode tasks holding a decoder slot.
    var runningDecodeCount: Int { table.withLock { $0.runningDecodes.count } }

    /// The running decode task serving `request`, if any.
    func activeJob(for request: ImageRequest) -> DecodeTask? {
        table.withLock { $0.decodeTasks[DecodeKey(result: request.resultKey, cachePolicy: request.cachePolicy)] }
    }

    /// The data task serving `request`'s resource, if any.
    func activeDataTask(for request: ImageRequest) -> DataTask? {
        table.withLock { $0.dataTasks[DataKey(resource: request.resourceKey, cachePolicy: request.cachePolicy)] }
    }

    /// Cancels every task and ends the network; later subscriptions fail.
    func shutdown() {
        let (decodes, datas) = table.withLock { table -> ([DecodeTask], [DataTask]) in
            let result = (Array(table.decodeTasks.values), Array(table.dataTasks.values))
            table = Table()
            table.isShutDown = true
            return result
        }
        for task in decodes { task.abort() }
        for data in datas { data.cancel() }
        ownedSessionLoader?.invalidate()
    }
}
