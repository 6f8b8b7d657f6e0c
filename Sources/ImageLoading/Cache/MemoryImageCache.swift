import Foundation
import IncrementalImage

/// Decoded images, least recently used evicted first, bounded by their pixel bytes and count.
///
/// A dictionary gives O(1) lookup; a doubly linked list keeps the use order (head = most recent).
/// Example: limit 100 bytes holding A (60) and B (30); inserting C (30) evicts A, the least
/// recently used, leaving B and C (60 bytes).
///
/// Each entry keeps the HTTP expiry of the bytes it was decoded from: a stale entry is still
/// returned (for ``ImageCachePolicy/refreshCached`` and ``ImageLoader/cachedImage(for:)``) but
/// marked, and loads revalidate instead of using it.
final class MemoryImageCache: Sendable {
    /// A hit: the image and whether it is still fresh.
    struct Hit {
        var image: Image
        var isFresh: Bool
    }

    private final class Node {
        let key: ImageResultKey
        let image: Image
        let cost: Int
        let expiry: Date?
        /// The dictionary owns every node; `older` is weak so the two links never form a cycle.
        var newer: Node?
        weak var older: Node?
        init(key: ImageResultKey, image: Image, cost: Int, expiry: Date?) {
            self.key = key
            self.image = image
            self.cost = cost
            self.expiry = expiry
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
    /// Largest number of images kept.
    let countLimit: Int
    private let storage = LockedState(Storage())

    init(costLimit: Int, countLimit: Int = .max) {
        self.costLimit = costLimit
        self.countLimit = countLimit
    }

    /// The cost of an image: its pixel bytes.
    static func cost(of image: Image) -> Int { image.pixels.count }

    /// The image for `key`, marking it most recently used.
    func image(for key: ImageResultKey, now: Date = Date()) -> Hit? {
        storage.withLock { storage in
            guard let node = storage.nodes[key] else { return nil }
            Self.unlink(node, from: &storage)
            Self.pushNewest(node, into: &storage)
            return Hit(image: node.image, isFresh: node.expiry.map { now < $0 } ?? true)
        }
    }

    /// Stores `image` (fresh until `expiry`, nil: for ever), evicting least recently used entries
    /// to stay within the limits. An image larger than the cost limit is not stored.
    func insert(_ image: Image, for key: ImageResultKey, expiry: Date? = nil) {
        let cost = Self.cost(of: image)
        storage.withLock { storage in
            if let old = storage.nodes[key] { Self.remove(old, from: &storage) }
            guard cost <= costLimit, countLimit > 0 else { return }
            let node = Node(key: key, image: image, cost: cost, expiry: expiry)
            storage.nodes[key] = node
            Self.pushNewest(node, into: &storage)
            storage.totalCost += cost
            while storage.totalCost > costLimit || storage.nodes.count > countLimit, let victim = storage.oldest {
                Self.remove(victim, from: &storage)
            }
        }
    }

    /// Removes every entry of `resource` (all its variants).
    func removeAll(resource: String) {
        storage.withLock { storage in
            for node in storage.nodes.values where node.key.resource == resource { Self.remove(node, from: &storage) }
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

    private static func remove(_ node: Node, from storage: inout Storage) {
        unlink(node, from: &storage)
        storage.nodes[node.key] = nil
        storage.totalCost -= node.cost
    }

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
