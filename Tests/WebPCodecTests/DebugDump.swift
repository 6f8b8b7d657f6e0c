import Foundation
import ImageCore
import WebPCodec
import XCTest
final class DebugDump: XCTestCase {
    func testDump() throws {
        guard let name = ProcessInfo.processInfo.environment["WEBP_DUMP"] else { return }
        let image = try WebPFixtures.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: name))))
        try Data(image.pixels).write(to: URL(fileURLWithPath: "/tmp/webp_dump.raw"))
    }
    func testCrasher() throws {
        guard let name = ProcessInfo.processInfo.environment["WEBP_CRASH"] else { return }
        let all = [UInt8](try Data(contentsOf: URL(fileURLWithPath: name)))
        let file = Array(all[2...])
        var state = UInt32(all[0]) << 8 | UInt32(all[1])
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0
        while start < file.count {
            state = state &* 1_103_515_245 &+ 12_345
            let length = Int(state >> 16) % 64 + 1
            pieces.append(file[start..<min(start + length, file.count)])
            start += length
        }
        let decoder = WebPDecoder()
        for p in pieces { try decoder.feed(p); print("fed to", p.endIndex, "rows", decoder.status.progress?.completedRows ?? -1) }
        print(try decoder.finish().width)
    }
}
