/// Jobs waiting for a download slot, taken highest priority first, in arrival order within one
/// priority; priorities can change while waiting.
///
/// The arrival order is the caller's (the order the loads were asked for), not the order of
/// `enqueue` calls: jobs reach the queue from their own serial queues after a cache look-up, so
/// two loads asked for one after the other may enqueue the other way round.
///
/// A plain array: the queue holds tens of jobs, so an O(n) pick is cheaper than keeping a heap
/// consistent through priority changes. Example: enqueue A(normal), B(high), C(normal) → B, A, C.
struct DownloadQueue<Item: AnyObject> {
    private struct Entry {
        let item: Item
        var priority: ImagePriority
        let arrival: Int
    }

    private var entries: [Entry] = []

    /// Items waiting.
    var count: Int { entries.count }

    /// Adds `item` (ignored if already waiting); among equal priorities a smaller `arrival` goes first.
    mutating func enqueue(_ item: Item, priority: ImagePriority, arrival: Int) {
        guard !contains(item) else { return }
        entries.append(Entry(item: item, priority: priority, arrival: arrival))
    }

    /// Whether `item` is waiting.
    func contains(_ item: Item) -> Bool { entries.contains { $0.item === item } }

    /// Changes the priority of a waiting item; its arrival order is kept.
    mutating func update(_ item: Item, priority: ImagePriority) {
        guard let index = entries.firstIndex(where: { $0.item === item }) else { return }
        entries[index].priority = priority
    }

    /// Removes a waiting item; returns whether it was waiting.
    @discardableResult
    mutating func remove(_ item: Item) -> Bool {
        guard let index = entries.firstIndex(where: { $0.item === item }) else { return false }
        entries.remove(at: index)
        return true
    }

    /// Takes the most urgent item.
    mutating func dequeue() -> Item? {
        guard var best = entries.indices.first else { return nil }
        for index in entries.indices.dropFirst() {
            let candidate = entries[index], current = entries[best]
            if candidate.priority > current.priority
                || (candidate.priority == current.priority && candidate.arrival < current.arrival) {
                best = index
            }
        }
        return entries.remove(at: best).item
    }
}
