@testable import ColorManagement
import ImageCore
import TestSupport
import XCTest

/// The process-wide cache of converters built from ICC profiles.
final class ConverterCacheTests: XCTestCase {
    func testSameProfileFormatAndIntentIsBuiltOnce() throws {
        let cache = ConverterCache(capacity: 2)
        let press = try ColorCharts.profile("PressCMYK-v2-lut8")
        let first = try XCTUnwrap(try cache.converter(profile: press, format: .cmyk8, intent: .perceptual, cmykIsInverted: true))
        let again = try XCTUnwrap(try cache.converter(profile: press, format: .cmyk8, intent: .perceptual, cmykIsInverted: true))
        XCTAssertEqual(cache.builds, 1)
        XCTAssertEqual(again.convert(ColorCharts.cmyk), first.convert(ColorCharts.cmyk))
        // Another intent, another inversion: other converters.
        _ = try cache.converter(profile: press, format: .cmyk8, intent: .relativeColorimetric, cmykIsInverted: true)
        _ = try cache.converter(profile: press, format: .cmyk8, intent: .perceptual, cmykIsInverted: false)
        XCTAssertEqual(cache.builds, 3)
    }

    func testLeastRecentlyUsedGoesFirst() throws {
        let cache = ConverterCache(capacity: 2)
        let p3 = try ColorCharts.profile("DisplayP3-v4"), adobe = try ColorCharts.profile("AdobeRGB1998")
        let gray = try ColorCharts.profile("Gray")
        _ = try cache.converter(profile: p3, format: .rgb8, intent: .perceptual, cmykIsInverted: false)
        _ = try cache.converter(profile: adobe, format: .rgb8, intent: .perceptual, cmykIsInverted: false)
        _ = try cache.converter(profile: p3, format: .rgb8, intent: .perceptual, cmykIsInverted: false)   // hit: P3 is newest
        _ = try cache.converter(profile: gray, format: .gray8, intent: .perceptual, cmykIsInverted: false) // evicts Adobe
        XCTAssertEqual(cache.builds, 3)
        _ = try cache.converter(profile: p3, format: .rgb8, intent: .perceptual, cmykIsInverted: false)
        XCTAssertEqual(cache.builds, 3)
        _ = try cache.converter(profile: adobe, format: .rgb8, intent: .perceptual, cmykIsInverted: false)
        XCTAssertEqual(cache.builds, 4)
    }

    func testBrokenProfilesThrowEveryTimeAndAreNotCached() throws {
        let cache = ConverterCache(capacity: 2)
        var broken = try ColorCharts.profile("DisplayP3-v4")
        broken[36] = UInt8(ascii: "x")   // 'acsp' signature
        for _ in 0..<2 {
            XCTAssertThrowsError(try cache.converter(profile: broken, format: .rgb8, intent: .perceptual, cmykIsInverted: false)) {
                XCTAssertEqual(($0 as? ICCProfileError)?.kind, .invalidData)
            }
        }
        XCTAssertEqual(cache.builds, 0)
    }
}
