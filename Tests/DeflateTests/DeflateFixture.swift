import Foundation
import Deflate
import TestSupport

/// One stream of `TestImages/deflate/` (made by `make_fixtures.py`) and what it must inflate to.
struct DeflateFixture: Sendable {
    /// File name inside `TestImages/deflate/`.
    var name: String
    /// From the extension: `.zlib`, `.gz` or `.deflate`.
    var format: DeflateFormat
    /// SHA-256 (hex) of the decompressed bytes.
    var sha256: String
    /// Length of the decompressed bytes.
    var size: Int

    /// The compressed bytes.
    func bytes() throws -> [UInt8] { try Fixtures.bytes("deflate/" + name) }

    private struct Expected: Decodable {
        var sha256: String
        var size: Int
    }

    /// Every fixture listed in `expected.json`, sorted by name.
    static func all() throws -> [DeflateFixture] {
        let data = try Data(contentsOf: Fixtures.url("deflate/expected.json"))
        let expected = try JSONDecoder().decode([String: Expected].self, from: data)
        return expected.keys.sorted().compactMap { name in
            guard let format = format(ofFileNamed: name), let entry = expected[name] else { return nil }
            return DeflateFixture(name: name, format: format, sha256: entry.sha256, size: entry.size)
        }
    }

    /// The fixture called `name`.
    static func named(_ name: String) throws -> DeflateFixture {
        guard let fixture = try all().first(where: { $0.name == name }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
        }
        return fixture
    }

    /// `.zlib` → zlib, `.gz` → gzip, `.deflate` → raw.
    static func format(ofFileNamed name: String) -> DeflateFormat? {
        if name.hasSuffix(".zlib") { return .zlib }
        if name.hasSuffix(".gz") { return .gzip }
        if name.hasSuffix(".deflate") { return .raw }
        return nil
    }
}
