import Foundation
import ImageCore

/// Converters built from ICC profiles, kept for the next image with the same profile: building
/// one samples a LUT profile 35 937 (RGB) or 83 521 (CMYK) times, which costs as much as
/// converting a few hundred thousand pixels, and a photo library or a web page often repeats
/// one profile (a camera's, a press profile) across many files.
///
/// Keyed by the profile's bytes, the pixel format, the intent and the CMYK inversion; the least
/// recently used entry goes first. Thread-safe: decoders on several threads share ``shared``.
final class ConverterCache: @unchecked Sendable {
    private struct Key: Equatable {
        var profile: [UInt8]
        var format: PixelFormat
        var intent: RenderingIntent
        var cmykIsInverted: Bool
    }

    /// The cache every decoder's ``SRGBOutputStage`` uses: four converters, at most about 2 MB
    /// (a CMYK grid is 17⁴ × 3 × 2 bytes = 501 KB).
    static let shared = ConverterCache(capacity: 4)

    private let capacity: Int
    private let lock = NSLock()
    /// Most recently used last. Guarded by `lock`.
    private var entries: [(key: Key, converter: ColorConverter)] = []
    /// Converters built (misses), for tests. Guarded by `lock`.
    private var buildCount = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Converters this cache has built so far.
    var builds: Int {
        lock.lock()
        defer { lock.unlock() }
        return buildCount
    }

    /// The converter for `profile` (its bytes) and `format`: from the cache, or parsed and built
    /// (outside the lock, so a slow build never blocks other lookups). Throws what
    /// ``ICCProfile/init(_:)`` and ``ColorConverter/init(source:format:intent:cmykIsInverted:)``
    /// throw; failures are not cached.
    func converter(profile: [UInt8], format: PixelFormat, intent: RenderingIntent,
                   cmykIsInverted: Bool) throws -> ColorConverter? {
        let key = Key(profile: profile, format: format, intent: intent, cmykIsInverted: cmykIsInverted)
        lock.lock()
        if let index = entries.firstIndex(where: { $0.key == key }) {
            let entry = entries.remove(at: index)
            entries.append(entry)
            lock.unlock()
            return entry.converter
        }
        lock.unlock()
        guard let converter = try ColorConverter(source: .iccProfile(try ICCProfile(profile)), format: format,
                                                 intent: intent, cmykIsInverted: cmykIsInverted) else { return nil }
        lock.lock()
        defer { lock.unlock() }
        buildCount += 1
        if !entries.contains(where: { $0.key == key }) {
            if entries.count == capacity { entries.removeFirst() }
            entries.append((key, converter))
        }
        return converter
    }
}
