#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Encoded images (and partial downloads) in a directory, bounded in total size.
///
/// - File names are the FNV-1a 64 hash of the key (`3f2a…9c.img`, `….part`); the key is also
///   stored inside the entry and compared on read, so a hash collision reads as a miss.
/// - Writes are atomic: a temporary file in the same directory, renamed over the entry.
/// - Every read checks the entry's length and checksum (``DiskCacheRecord``); a damaged entry is
///   deleted and reported as a miss, never returned.
/// - When the total passes ``sizeLimit``, least recently used entries are deleted until it fits.
///   Use order survives restarts through the files' modification dates, touched on every hit.
///
/// All file work runs under one lock: entries are small and serialising keeps the index exact.
final class DiskCache: Sendable {
    /// Where the entries live.
    let directory: URL
    /// Largest total of entry file sizes, in bytes.
    let sizeLimit: Int

    private struct IndexEntry {
        var size: Int
        /// Larger is more recent.
        var lastUse: UInt64
    }

    private struct Index {
        var loaded = false
        var entries: [String: IndexEntry] = [:]
        var totalSize = 0
        var clock: UInt64 = 0
    }

    private let index = LockedState(Index())
    private static let temporaryPrefix = ".tmp-"

    init(directory: URL, sizeLimit: Int) {
        self.directory = directory
        self.sizeLimit = sizeLimit
    }

    /// The file name of an entry.
    static func fileName(key: String, kind: DiskCacheRecord.Kind) -> String {
        var hasher = FNV1a64()
        hasher.update(key)
        return FNV1a64.hex(hasher.value) + (kind == .complete ? ".img" : ".part")
    }

    /// The entry for `key`, if present and intact (a damaged one is deleted).
    func read(key: String, kind: DiskCacheRecord.Kind) -> DiskCacheRecord? {
        let name = Self.fileName(key: key, kind: kind)
        return index.withLock { index in
            loadIfNeeded(&index)
            guard index.entries[name] != nil else { return nil }
            let url = directory.appendingPathComponent(name)
            guard let file = try? Data(contentsOf: url), let record = DiskCacheRecord(decoding: file),
                  record.kind == kind, record.metadata["key"] == key else {
                remove(name, from: &index)
                return nil
            }
            index.clock += 1
            index.entries[name]?.lastUse = index.clock
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
            return record
        }
    }

    /// Stores an entry atomically, then sweeps to the size limit.
    func write(key: String, kind: DiskCacheRecord.Kind, metadata: [String: String], payload: Data) {
        var fields = metadata
        fields["key"] = key
        let file = DiskCacheRecord(kind: kind, metadata: fields, payload: payload).encoded()
        let name = Self.fileName(key: key, kind: kind)
        index.withLock { index in
            loadIfNeeded(&index)
            let temporary = directory.appendingPathComponent(Self.temporaryPrefix + UUID().uuidString)
            guard (try? file.write(to: temporary)) != nil else { return }
            let target = directory.appendingPathComponent(name)
            // rename(2) replaces the target atomically: a reader sees the old entry or the new one.
            guard rename(temporary.path, target.path) == 0 else {
                try? FileManager.default.removeItem(at: temporary)
                return
            }
            if let old = index.entries[name] { index.totalSize -= old.size }
            index.clock += 1
            index.entries[name] = IndexEntry(size: file.count, lastUse: index.clock)
            index.totalSize += file.count
            sweep(&index)
        }
    }

    /// Deletes an entry if present.
    func remove(key: String, kind: DiskCacheRecord.Kind) {
        index.withLock { index in
            loadIfNeeded(&index)
            remove(Self.fileName(key: key, kind: kind), from: &index)
        }
    }

    /// Deletes every entry.
    func removeAll() {
        index.withLock { index in
            loadIfNeeded(&index)
            for name in Array(index.entries.keys) { remove(name, from: &index) }
        }
    }

    /// Bytes used by entries.
    var totalSize: Int {
        index.withLock { index in
            loadIfNeeded(&index)
            return index.totalSize
        }
    }

    private func remove(_ name: String, from index: inout Index) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        if let entry = index.entries.removeValue(forKey: name) { index.totalSize -= entry.size }
    }

    /// Deletes least recently used entries until the total fits the limit.
    private func sweep(_ index: inout Index) {
        guard index.totalSize > sizeLimit else { return }
        let oldestFirst = index.entries.sorted { $0.value.lastUse < $1.value.lastUse }.map(\.key)
        for name in oldestFirst where index.totalSize > sizeLimit {
            remove(name, from: &index)
        }
    }

    /// Builds the index from the directory on first use, ordering entries by modification date
    /// and deleting temporary files a crash left behind.
    private func loadIfNeeded(_ index: inout Index) {
        guard !index.loaded else { return }
        index.loaded = true
        let manager = FileManager.default
        try? manager.createDirectory(at: directory, withIntermediateDirectories: true)
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let files = (try? manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys)) ?? []
        var found: [(name: String, size: Int, date: Date)] = []
        for url in files {
            let name = url.lastPathComponent
            if name.hasPrefix(Self.temporaryPrefix) {
                try? manager.removeItem(at: url)
                continue
            }
            guard name.hasSuffix(".img") || name.hasSuffix(".part"),
                  let values = try? url.resourceValues(forKeys: Set(keys)) else { continue }
            found.append((name, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast))
        }
        for entry in found.sorted(by: { $0.date < $1.date }) {
            index.clock += 1
            index.entries[entry.name] = IndexEntry(size: entry.size, lastUse: index.clock)
            index.totalSize += entry.size
        }
        sweep(&index)
    }
}
