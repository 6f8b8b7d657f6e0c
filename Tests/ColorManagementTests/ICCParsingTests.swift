@testable import ColorManagement
import ImageCore
import TestSupport
import XCTest

/// ICC.1 parsing: header, tag table, curve types, LUT types, and hostile bytes (every error a
/// clean ``ICCProfileError`` of the right kind).
final class ICCParsingTests: XCTestCase {
    private func s15(_ value: Double) -> [UInt8] {
        let raw = UInt32(bitPattern: Int32((value * 65536).rounded()))
        return [UInt8(raw >> 24), UInt8(truncatingIfNeeded: raw >> 16), UInt8(truncatingIfNeeded: raw >> 8), UInt8(truncatingIfNeeded: raw)]
    }

    private func para(_ type: UInt16, _ parameters: [Double]) -> [UInt8] {
        Array("para".utf8) + [0, 0, 0, 0, UInt8(type >> 8), UInt8(type & 0xFF), 0, 0] + parameters.flatMap(s15)
    }

    private func parse(_ bytes: [UInt8]) throws -> ToneCurve {
        try ToneCurve.parse(ICCDataReader(bytes: bytes), at: 0, end: bytes.count).0
    }

    func testParametricCurvesOfAllFiveTypes() throws {
        let x = 0.6
        XCTAssertEqual(try parse(para(0, [2.2]))(x), pow(x, 2.2), accuracy: 1e-4)
        // Type 1: (a x + b)^g for x ≥ −b/a, else 0.
        let t1 = try parse(para(1, [2.0, 1.5, -0.3]))
        XCTAssertEqual(t1(x), pow(1.5 * x - 0.3, 2), accuracy: 1e-4)
        XCTAssertEqual(t1(0.1), 0)
        // Type 2: (a x + b)^g + c, else c.
        let t2 = try parse(para(2, [2.0, 1.5, -0.3, 0.1]))
        XCTAssertEqual(t2(x), pow(1.5 * x - 0.3, 2) + 0.1, accuracy: 1e-4)
        XCTAssertEqual(t2(0.1), 0.1, accuracy: 1e-4)
        // Type 3 (sRGB): (a x + b)^g for x ≥ d, else c x.
        let srgb = try parse(para(3, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]))
        XCTAssertEqual(srgb(x), SRGB.decode(x), accuracy: 1e-4)
        XCTAssertEqual(srgb(0.02), 0.02 / 12.92, accuracy: 1e-5)
        // Type 4: (a x + b)^g + e for x ≥ d, else c x + f.
        let t4 = try parse(para(4, [2.0, 1.0, 0.0, 0.5, 0.3, 0.05, 0.01]))
        XCTAssertEqual(t4(x), x * x + 0.05, accuracy: 1e-4)
        XCTAssertEqual(t4(0.2), 0.5 * 0.2 + 0.01, accuracy: 1e-4)
    }

    func testCurvIdentityGammaAndTable() throws {
        let head = Array("curv".utf8) + [0, 0, 0, 0]
        XCTAssertEqual(try parse(head + [0, 0, 0, 0]), .identity)
        XCTAssertEqual(try parse(head + [0, 0, 0, 1, 0x01, 0xCD]), .gamma(461.0 / 256))   // u8Fixed8 1.80
        let table = try parse(head + [0, 0, 0, 3, 0, 0, 0x40, 0x00, 0xFF, 0xFF])
        XCTAssertEqual(table(0.25), 16384.0 / 65535 / 2, accuracy: 1e-6)
        XCTAssertEqual(table(0.75), (16384.0 / 65535 + 1) / 2, accuracy: 1e-4)
    }

    func testBadParametricTypeAndShortCurvesThrow() {
        XCTAssertThrowsError(try parse(para(5, [1]))) { XCTAssertEqual(($0 as? ICCProfileError)?.kind, .invalidData) }
        XCTAssertThrowsError(try parse(Array(para(3, [2.4, 1, 0, 1, 0]).prefix(20)))) {
            XCTAssertEqual(($0 as? ICCProfileError)?.kind, .truncated)
        }
        XCTAssertThrowsError(try parse(Array("curv".utf8) + [0, 0, 0, 0, 0, 0, 0, 9, 0, 0])) {
            XCTAssertEqual(($0 as? ICCProfileError)?.kind, .truncated)
        }
    }

    func testHeaderFieldsOfRealProfiles() throws {
        let adobe = try ICCProfile(try ColorCharts.profile("compatibleWithAdobeRGB1998"))
        XCTAssertEqual(adobe.majorVersion, 2)
        XCTAssertEqual(adobe.colorSpace, .rgb)
        XCTAssertEqual(adobe.connectionSpace, .xyz)
        XCTAssertEqual(adobe.deviceClass, .display)
        XCTAssertTrue(adobe.hasTag(ICCSignature("rTRC")))
        let press = try ICCProfile(try ColorCharts.profile("PressCMYK-v4-mAB"))
        XCTAssertEqual(press.majorVersion, 4)
        XCTAssertEqual(press.colorSpace, .cmyk)
        XCTAssertEqual(press.connectionSpace, .lab)
        XCTAssertEqual(press.deviceClass, .output)
        let a2b = try XCTUnwrap(try press.lookupTransform(ICCSignature("A2B0")))
        XCTAssertEqual(a2b.inputChannels, 4)
        XCTAssertEqual(a2b.outputChannels, 3)
        // The Display P3 profile's chad is Bradford D65 → D50: its inverse gives back D65.
        let p3 = try ICCProfile(try ColorCharts.profile("DisplayP3-v4"))
        let white = try p3.sourceWhitePoint()
        XCTAssertEqual(white.x / white.y, 0.3127 / 0.3290, accuracy: 1e-3)
        XCTAssertEqual(white.z / white.y, (1 - 0.3127 - 0.3290) / 0.3290, accuracy: 1e-3)
    }

    func testDamagedHeadersThrowTheRightKind() throws {
        let good = try ColorCharts.profile("DisplayP3-v4")
        func kind(_ bytes: [UInt8]) -> ICCProfileError.Kind? {
            do { _ = try ICCProfile(bytes); return nil } catch { return (error as? ICCProfileError)?.kind }
        }
        XCTAssertEqual(kind(Array(good.prefix(100))), .truncated)
        var signature = good
        signature[36] = 0
        XCTAssertEqual(kind(signature), .invalidData)
        var size = good
        size[0] = 0x7F
        XCTAssertEqual(kind(size), .truncated)
        var tags = good
        tags[128...131] = [0x10, 0, 0, 0]
        XCTAssertEqual(kind(tags), .truncated)
        // A tag pointing past the end fails when it is used.
        var tag = good
        let entry = 132 + 12 * 3            // rXYZ is the fourth tag the fixture script writes
        XCTAssertEqual(ICCSignature(rawValue: UInt32(tag[entry]) << 24 | UInt32(tag[entry + 1]) << 16 | UInt32(tag[entry + 2]) << 8 | UInt32(tag[entry + 3])), ICCSignature("rXYZ"))
        tag[(entry + 4)...(entry + 7)] = [0, 1, 0, 0]
        let profile = try ICCProfile(tag)
        XCTAssertThrowsError(try ColorConverter(source: .iccProfile(profile), format: .rgb8)) {
            XCTAssertEqual(($0 as? ICCProfileError)?.kind, .truncated)
        }
        // A device link is not a source profile; an RGB profile does not fit gray pixels.
        var link = good
        link[12...15] = Array("link".utf8)[...]
        XCTAssertThrowsError(try ColorConverter(source: .iccProfile(try ICCProfile(link)), format: .rgb8)) {
            XCTAssertEqual(($0 as? ICCProfileError)?.kind, .unsupported)
        }
        XCTAssertThrowsError(try ColorConverter(source: .iccProfile(try ICCProfile(good)), format: .gray8)) {
            XCTAssertEqual(($0 as? ICCProfileError)?.kind, .unsupported)
        }
    }

    /// Every truncation and thousands of single-byte changes of every profile: parsing and
    /// building the conversion either work or throw ICCProfileError, and the conversion gives sRGB values.
    func testMutatedProfilesNeverTrap() throws {
        var generator = SeededGenerator(seed: 0x1CC)
        var outcomes = [String: Int]()
        for (name, _) in LittleCMSAccuracyTests.profiles {
            let original = try ColorCharts.profile(name)
            var variants: [[UInt8]] = stride(from: 0, to: original.count, by: max(1, original.count / 64)).map { Array(original.prefix($0)) }
            for _ in 0..<40 {
                var mutated = original
                // Bias towards the header, tag table and tag headers, where structure lives.
                let limit = Int.random(in: 0...1, using: &generator) == 0 ? min(original.count, 400) : original.count
                let offset = Int.random(in: 0..<limit, using: &generator)
                mutated[offset] = UInt8.random(in: 0...255, using: &generator)
                variants.append(mutated)
            }
            for bytes in variants {
                do {
                    // The model is what the converters sample; building their grids for every
                    // variant would only repeat the same evaluation 83 521 times.
                    let profile = try ICCProfile(bytes)
                    if let model = try ConversionModel.make(.iccProfile(profile), intent: .perceptual) {
                        for level in [0.0, 0.3, 1.0] {
                            let rgb = model.rgb([Double](repeating: level, count: model.inputChannels))
                            XCTAssertTrue((0...1).contains(rgb.x) && (0...1).contains(rgb.y) && (0...1).contains(rgb.z))
                        }
                    }
                    outcomes["ok", default: 0] += 1
                } catch let error as ICCProfileError {
                    outcomes[error.kind.rawValue, default: 0] += 1
                }
            }
        }
        XCTAssertGreaterThan(outcomes["ok"] ?? 0, 100)
        XCTAssertGreaterThan(outcomes["truncated"] ?? 0, 100)
    }
}
