@testable import ColorManagement
import ImageCore
import TestSupport
import XCTest

/// Every profile's conversion of its chart against LittleCMS (Pillow's ImageCms) output stored by
/// TestImages/color/make_fixtures.py: within 2 per 8-bit channel for matrix/TRC and gray
/// profiles, 4 for LUT profiles, for both rendering intents; and the fast kernels within 1 of
/// their careful double-precision twin.
final class LittleCMSAccuracyTests: XCTestCase {
    static let profiles: [(name: String, lut: Bool)] = [
        ("AdobeRGB1998", false), ("compatibleWithAdobeRGB1998", false), ("ProPhotoRGB", false),
        ("DisplayP3-v4", false), ("Gray", false), ("Gray-CIE_L", false), ("Gray-v4-para", false),
        ("WideRGB-v4-mAB", true), ("PressCMYK-v2-lut16", true), ("PressCMYK-v2-lut8", true), ("PressCMYK-v4-mAB", true),
        ("USWebCoatedSWOP", true), ("CoatedFOGRA39", true),
    ]

    private func chart(for profile: ICCProfile) -> Image {
        switch profile.colorSpace {
        case .gray: return ColorCharts.gray
        case .cmyk: return ColorCharts.cmyk
        default: return ColorCharts.rgb
        }
    }

    func testEveryProfileMatchesLittleCMS() throws {
        var report: [String] = []
        for (name, lut) in Self.profiles {
            let profile = try ICCProfile(try ColorCharts.profile(name))
            for (intent, label) in DecoderColorOutputTests.intents {
                let input = chart(for: profile)
                guard let converter = try ColorConverter(source: .iccProfile(profile), format: input.format, intent: intent) else {
                    XCTFail("\(name): no conversion"); continue
                }
                let reference = try ColorCharts.reference("\(name)-\(label)")
                let fast = ColorCharts.maximumDifference(converter.convert(input), reference)
                let careful = ColorCharts.maximumDifference(converter.convertCarefully(input), reference)
                report.append("\(name) \(label): fast \(fast), careful \(careful)")
                XCTAssertLessThanOrEqual(fast, lut ? 4 : 2, "\(name) \(label)")
                XCTAssertLessThanOrEqual(careful, lut ? 4 : 2, "\(name) \(label) careful")
            }
        }
        print(report.joined(separator: "\n"))
    }

    func testMatrixAndGrayProfilesGiveTheSamePixelsForEveryIntent() throws {
        for (name, lut) in Self.profiles where !lut {
            let profile = try ICCProfile(try ColorCharts.profile(name))
            let input = chart(for: profile)
            let outputs = try RenderingIntent.allCases.map { intent in
                try XCTUnwrap(try ColorConverter(source: .iccProfile(profile), format: input.format, intent: intent)).convert(input)
            }
            XCTAssertEqual(outputs.count, 3)
            for output in outputs.dropFirst() { XCTAssertEqual(output, outputs[0], name) }
        }
    }

    func testRealPressProfilesDifferBetweenPerceptualAndRelative() throws {
        // The point of the intent: Adobe's press profiles map their black differently (perceptual
        // compensates it to sRGB black, relative keeps the press's lighter black).
        for name in ["USWebCoatedSWOP", "CoatedFOGRA39"] {
            let profile = try ICCProfile(try ColorCharts.profile(name))
            let black = Image(width: 1, height: 1, format: .cmyk8, pixels: [255, 255, 255, 255])
            let perceptual = try XCTUnwrap(try ColorConverter(source: .iccProfile(profile), format: .cmyk8)).convert(black)
            let relative = try XCTUnwrap(try ColorConverter(source: .iccProfile(profile), format: .cmyk8,
                                                            intent: .relativeColorimetric)).convert(black)
            XCTAssertLessThanOrEqual(perceptual.pixels.max() ?? 255, 2, name)
            XCTAssertGreaterThanOrEqual(relative.pixels.min() ?? 0, 20, name)
        }
    }
}
