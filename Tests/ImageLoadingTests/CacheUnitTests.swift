import Foundation
@testable import ImageLoading
import IncrementalImage
import TestSupport
import XCTest

/// The cache building blocks on their own: entry format, disk cache, memory LRU, checksum.
final class CacheUnitTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-unit-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    func testFNV1a64MatchesPublishedValues() {
        // Test vectors of the FNV reference code: "" and "a" and "foobar".
        XCTAssertEqual(FNV1a64.hash(UnsafeRawBufferPointer(start: nil, count: 0)), 0xcbf2_9ce4_8422_2325)
        XCTAssertEqual(Array("a".utf8).withUnsafeBytes { FNV1a64.hash($0) }, 0xaf63_dc4c_8601_ec8c)
        XCTAssertEqual(Array("foobar".utf8).withUnsafeBytes { FNV1a64.hash($0) }, 0x8594_4171_f739_67e8)
        XCTAssertEqual(FNV1a64.hex(0xaf), "00000000000000af")
    }

    func testRecordRoundTripsAndHasTheDocumentedLayout() throws {
        let record = DiskCacheRecord(kind: .partial, metadata: ["key": "k", "validator": "\"v1\""], payload: Data([1, 2, 3]))
        let file = record.encoded()
        XCTAssertEqual(Array(file.prefix(4)), Array("IIC1".utf8))
        XCTAssertEqual(file[4], 1)
        let metadata = "key=k\nvalidator=\"v1\"\n"
        XCTAssertEqual(Array(file[8..<12]), [UInt8(metadata.utf8.count), 0, 0, 0])
        XCTAssertEqual(Array(file[16..<24]), [3, 0, 0, 0, 0, 0, 0, 0])
        XCTAssertEqual(file.count, 32 + metadata.utf8.count + 3)
        XCTAssertEqual(DiskCacheRecord(decoding: file), record)
    }

    func testRecordRejectsEveryDamage() {
        let file = DiskCacheRecord(kind: .complete, metadata: ["key": "x"], payload: Data((0..<200).map { UInt8($0) })).encoded()
        // Any single flipped bit, anywhere, is caught (header fields by the length or magic checks).
        for offset in [0, 4, 8, 16, 24, 33, 40, 100, file.count - 1] {
            var damaged = file
            damaged[offset] ^= 0x01
            XCTAssertNil(DiskCacheRecord(decoding: damaged), "flip at \(offset)")
        }
        XCTAssertNil(DiskCacheRecord(decoding: file.prefix(file.count - 1)))
        XCTAssertNil(DiskCacheRecord(decoding: file + Data([0])))
        XCTAssertNil(DiskCacheRecord(decoding: Data()))
    }

    func testRecordWithAbsurdLengthsIsRejectedWithoutOverflow() {
        var file = DiskCacheRecord(kind: .complete, metadata: [:], payload: Data([9])).encoded()
        for index in 16..<24 { file[index] = 0xFF }
        XCTAssertNil(DiskCacheRecord(decoding: file))
    }

    func testDiskCacheWritesAtomicallyAndReadsBack() {
        let cache = DiskCache(directory: directory, sizeLimit: 1 << 20)
        cache.write(key: "a", kind: .complete, metadata: ["x": "1"], payload: Data([1, 2]))
        let record = cache.read(key: "a", kind: .complete)
        XCTAssertEqual(record?.payload, Data([1, 2]))
        XCTAssertEqual(record?.metadata["x"], "1")
        XCTAssertNil(cache.read(key: "a", kind: .partial))
        XCTAssertNil(cache.read(key: "b", kind: .complete))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        XCTAssertEqual(names, [DiskCache.fileName(key: "a", kind: .complete)], "no temporary file is left")
    }

    func testDiskCacheDeletesADamagedEntryOnRead() throws {
        let cache = DiskCache(directory: directory, sizeLimit: 1 << 20)
        cache.write(key: "a", kind: .complete, metadata: [:], payload: Data(repeating: 7, count: 100))
        let url = directory.appendingPathComponent(DiskCache.fileName(key: "a", kind: .complete))
        var bytes = try Data(contentsOf: url)
        bytes[bytes.count - 1] = 8
        try bytes.write(to: url)
        XCTAssertNil(cache.read(key: "a", kind: .complete))
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
        XCTAssertEqual(cache.totalSize, 0)
    }

    func testDiskCacheSweepEvictsTheLeastRecentlyUsed() {
        // Each entry: 32 header + "key=k0\n" (7) + 100 payload = 139 bytes; 300 bytes hold two.
        let cache = DiskCache(directory: directory, sizeLimit: 300)
        cache.write(key: "k0", kind: .complete, metadata: [:], payload: Data(count: 100))
        cache.write(key: "k1", kind: .complete, metadata: [:], payload: Data(count: 100))
        XCTAssertNotNil(cache.read(key: "k0", kind: .complete))  // k0 is now more recent than k1
        cache.write(key: "k2", kind: .complete, metadata: [:], payload: Data(count: 100))
        XCTAssertEqual(cache.totalSize, 278)
        XCTAssertNotNil(cache.read(key: "k0", kind: .complete))
        XCTAssertNil(cache.read(key: "k1", kind: .complete))
        XCTAssertNotNil(cache.read(key: "k2", kind: .complete))
    }

    func testDiskCacheIndexIsRebuiltFromTheFolder() {
        let first = DiskCache(directory: directory, sizeLimit: 1 << 20)
        first.write(key: "k", kind: .complete, metadata: [:], payload: Data(count: 50))
        try? Data([1]).write(to: directory.appendingPathComponent(".tmp-leftover"))
        let second = DiskCache(directory: directory, sizeLimit: 1 << 20)
        XCTAssertEqual(second.totalSize, 32 + 6 + 50)
        XCTAssertEqual(second.read(key: "k", kind: .complete)?.payload.count, 50)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent(".tmp-leftover").path))
    }

    private func key(_ name: String) -> ImageResultKey {
        ImageResultKey(resource: "http://127.0.0.1/\(name)", maxPixelSize: nil, transformID: nil,
                       decodingOptions: DecodingOptions(), appliesOrientation: true)
    }

    private func image(bytes: Int) -> Image {
        Image(width: bytes, height: 1, format: .gray8, pixels: [UInt8](repeating: 1, count: bytes))
    }

    func testMemoryCacheEvictsLeastRecentlyUsedByCost() {
        let cache = MemoryImageCache(costLimit: 100)
        cache.insert(image(bytes: 60), for: key("a"))
        cache.insert(image(bytes: 30), for: key("b"))
        XCTAssertNotNil(cache.image(for: key("a")))  // a is now the most recent
        cache.insert(image(bytes: 30), for: key("c"))
        XCTAssertNil(cache.image(for: key("b")))
        XCTAssertNotNil(cache.image(for: key("a")))
        XCTAssertNotNil(cache.image(for: key("c")))
        XCTAssertEqual(cache.totalCost, 90)
    }

    func testMemoryCacheSkipsAnImageLargerThanTheLimitAndReplacesByKey() {
        let cache = MemoryImageCache(costLimit: 100)
        cache.insert(image(bytes: 40), for: key("a"))
        cache.insert(image(bytes: 101), for: key("b"))
        XCTAssertNil(cache.image(for: key("b")))
        cache.insert(image(bytes: 50), for: key("a"))
        XCTAssertEqual(cache.totalCost, 50)
        XCTAssertEqual(cache.count, 1)
        cache.removeAll()
        XCTAssertEqual(cache.totalCost, 0)
    }

    func testFailedURLMemoryExpires() {
        let memory = FailedURLMemory(duration: 10)
        let url = URL(string: "http://127.0.0.1/x")!
        let start = Date()
        memory.record(.httpStatus(500), for: url, now: start)
        XCTAssertEqual(memory.failure(for: url, now: start.addingTimeInterval(9)), .httpStatus(500))
        XCTAssertNil(memory.failure(for: url, now: start.addingTimeInterval(10)))
    }
}
