import IncrementalImage

/// Decoded images, least recently used evicted first, bounded by their pixel bytes.
///
/// A dictionary gives O(1) lookup; a doubly linked list keeps the use order (head = most recent).
/// Example: limit 100 bytes holding A (60) and B (30); inserting C (30) evicts A, the least
/// recently used, leaving B and C (60 bytes).
final class MemoryImageCache: Sendable {
    private final class Node {
        let key: ImageResultKey
        let image: Image
        let cost: Int
        /// The dictionary owns every node; `older` is weak so the two links never form a cycle.
        var newer: Node?
        weak var older: Node?
        init(key: ImageResultKey, image: Image, cost: Int) {
            self.key = key
            self.image = image
            self.cost = cost
        }
    }

    private struct Storage {
        var nodes: [ImageResultKey: Node] = [:]
        var newest: Node?
        var oldest: Node?
        var totalCost = 0
    }

    /// Largest total of pixel bytes kept.
    let costLimit: Int
    private let storage = LockedState(Storage())

    init(costLimit: Int) { self.costLimit = costLimit }

    /// The cost of an image: its pixel bytes.
    static func cost(of image: Image) -> Int { image.pixels.count }

    /// The image for `key`, marking it most recently used.
    func image(for key: ImageResultKey) -> Image? {
        storage.withLock { storage in
            guard let node = storage.nodes[key] else { return nil }
            Self.unlink(node, from: &storage)
            Self.pushNewest(node, into: &storage)
            return node.image
        }
    }

    /// Stores `image`, evicting least recently used entries to stay within ``costLimit``.
    /// An image larger than the limit is not stored.
    func insert(_ image: Image, for key: ImageResultKey) {
        let cost = Self.cost(of: image)
        storage.withLock { storage in
            if let old = storage.nodes.removeValue(forKey: key) {
                Self.unlink(old, from: &storage)
                storage.totalCost -= old.cost
            }
            guard cost <= costLimit else { return }
            let node = Node(key: key, image: image, cost: cost)
            storage.nodes[key] = node
            Self.pushNewest(node, into: &storage)
            storage.totalCost += cost
            while storage.totalCost > costLimit, let victim = storage.oldest {
                Self.unlink(victim, from: &storage)
                storage.nodes[victim.key] = nil
                storage.totalCost -= victim.cost
            }
        }
    }

    /// Removes everything.
    func removeAll() {
        storage.withLock { storage in
            storage = Storage()
        }
    }

    /// Pixel bytes held.
    var totalCost: Int { storage.withLock { $0.totalCost } }

    /// Entries held.
    var count: Int { storage.withLock { $0.nodes.count } }

    private static func unlink(_ node: Node, from storage: inout Storage) {
        let newer = node.newer, older = node.older
        newer?.older = older
        older?.newer = newer
        if storage.newest === node { storage.newest = older }
        if storage.oldest === node { storage.oldest = newer }
        node.newer = nil
        node.older = nil
    }

    private static func pushNewest(_ node: Node, into storage: inout Storage) {
        node.older = storage.newest
        storage.newest?.newer = node
        storage.newest = node
        if storage.oldest == nil { storage.oldest = node }
    }
}
