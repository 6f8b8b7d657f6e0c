import Foundation
import WebPCodec
import XCTest
final class DebugDump: XCTestCase {
    func testDump() throws {
        guard let name = ProcessInfo.processInfo.environment["WEBP_DUMP"] else { return }
        let image = try WebPFixtures.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: name))))
        try Data(image.pixels).write(to: URL(fileURLWithPath: "/tmp/webp_dump.raw"))
    }
}
