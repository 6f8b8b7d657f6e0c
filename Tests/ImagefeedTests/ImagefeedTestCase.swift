import Foundation
import ImageCore
import PNGCodec
import XCTest

/// Base of the command tests: a scratch folder per test, removed afterwards, and file helpers.
class ImagefeedTestCase: XCTestCase {
    /// This test's own temporary folder.
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("imagefeed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The path of `name` in the scratch folder.
    func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    /// The bytes of a file.
    func read(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The picture in a PNG file the command wrote.
    func decodePNG(_ path: String) throws -> Image { try PNGDecoder().decode(try read(path)) }
}
