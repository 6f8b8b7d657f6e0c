import Foundation
@testable import imagefeed
@testable import ImageLoading
import IncrementalImage
import PNGCodec
import TestSupport
import XCTest

/// `imagefeed demo` end to end: the bundled pictures over the loopback server, the frames and
/// the contact sheet, checked against the layout rule and the frame files themselves.
final class DemoCommandTests: ImagefeedTestCase {

    /// What the one-shot decoder makes of a bundled picture, or nil when this build calls it unsupported.
    private func oneShot(_ asset: DemoAsset) throws -> Image? {
        do {
            return try ImageSource.decode(try Fixtures.bytes("demo/" + asset.fileName))
        } catch let error as ImageDecodingError where error.kind == .unsupported {
            return nil
        }
    }

    func testDemoWritesEveryFrameTheFinalsAndAContactSheetLaidOutByTheRule() throws {
        let out = scratch.appendingPathComponent("demo")
        let options = try DemoCommandOptions(parsing: ["--out", out.path])
        // Fewer pieces than the real demo (the debug build decodes and encodes slowly), and pauses
        // long enough that a loaded machine (a full parallel test run at load 16 once went without
        // a single preview at 30 ms) still decodes a piece before the next one arrives.
        let pacing = DemoPacing(pieces: 6, pause: 0.2)
        let result = try XCTUnwrap(CommandRunner.run(timeout: 60) { console in
            DemoCommand(options: options, console: console, pacing: pacing).run()
        })
        XCTAssertEqual(result.status, 0, "\(result.errors)")
        XCTAssertTrue(result.errors.isEmpty, "\(result.errors)")

        // Each picture either loaded (final equal to the one-shot decode) or was skipped because
        // this build cannot decode it yet.
        var loaded: [(asset: DemoAsset, final: Image)] = []
        for asset in DemoAsset.all {
            let folder = out.appendingPathComponent(asset.name)
            guard let expected = try oneShot(asset) else {
                XCTAssertTrue(result.output.contains { $0.hasPrefix("skipped: \(asset.fileName): ") }, "\(result.output)")
                continue
            }
            let final = try decodePNG(folder.appendingPathComponent("final.png").path)
            XCTAssertEqual(final, expected, asset.name)
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("frame-0001.png").path),
                          "\(asset.name): at least one preview on a throttled link")
            loaded.append((asset, final))
        }
        XCTAssertTrue(loaded.contains { $0.asset.name == "adam7-png" }, "PNG is always decodable")

        // The sheet lists its cells per row ("  row NAME: frame-0001.png, …, final").
        let rowLines = result.output.filter { $0.hasPrefix("  row ") }
        XCTAssertEqual(rowLines.count, loaded.count)
        var cells: [[Image]] = []
        var rowHeights: [Int] = []
        for (line, picture) in zip(rowLines, loaded) {
            let prefix = "  row \(picture.asset.name): "
            XCTAssertTrue(line.hasPrefix(prefix), line)
            let names = line.dropFirst(prefix.count).components(separatedBy: ", ")
            XCTAssertEqual(names.first, "frame-0001.png", "a row starts with the first preview")
            XCTAssertEqual(names.last, "final", "a row ends with the final image")
            XCTAssertLessThanOrEqual(names.count, ContactSheetLayout.maxColumns)
            let folder = out.appendingPathComponent(picture.asset.name)
            cells.append(try names.map { name in
                try name == "final" ? picture.final : decodePNG(folder.appendingPathComponent(name).path)
            })
            // Cells are `cellWidth` wide, as high as the picture's aspect ratio makes them.
            let width = ContactSheetLayout.cellWidth
            rowHeights.append(Int((Double(picture.final.height * width) / Double(picture.final.width)).rounded()))
        }

        // Size from the rule: a gap around and between everything.
        let gap = ContactSheetLayout.gap, cellWidth = ContactSheetLayout.cellWidth
        let columns = cells.map(\.count).max() ?? 0
        let sheet = try decodePNG(out.appendingPathComponent("contact-sheet.png").path)
        XCTAssertEqual(sheet.width, gap + columns * (cellWidth + gap))
        XCTAssertEqual(sheet.height, gap + rowHeights.reduce(0) { $0 + $1 + gap })
        XCTAssertEqual(sheet.format, .rgb8)

        // Every cell holds its frame, shrunk; the gaps are background.
        var top = gap
        for (row, frames) in cells.enumerated() {
            for (column, frame) in frames.enumerated() {
                let left = gap + column * (cellWidth + gap)
                let expected = ThumbnailScaler.scale(frame, width: cellWidth, height: rowHeights[row], background: ContactSheet.background)
                XCTAssertEqual(crop(sheet, x: left, y: top, width: cellWidth, height: rowHeights[row]), expected.pixels,
                               "row \(row), cell \(column)")
            }
            top += rowHeights[row] + gap
        }
        XCTAssertEqual(crop(sheet, x: 0, y: 0, width: sheet.width, height: gap),
                       [UInt8](repeating: ContactSheet.background, count: sheet.width * gap * 3), "the top margin is blank")
    }

    func testDemoRejectsInputsAndUnknownOptions() throws {
        for arguments in [["demo", "picture.png"], ["demo", "--out"], ["demo", "--fast"]] {
            let result = try XCTUnwrap(CommandRunner.run(arguments))
            XCTAssertEqual(result.status, 2, "\(arguments)")
        }
    }

    /// The rgb8 samples of a rectangle of `image`.
    private func crop(_ image: Image, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        var samples: [UInt8] = []
        for row in y..<(y + height) {
            let start = (row * image.width + x) * 3
            samples += image.pixels[start..<(start + width * 3)]
        }
        return samples
    }
}
