import Foundation

/// Locates and reads files under the repository's `TestImages/` folder.
public enum Fixtures {
    /// `TestImages/` of this checkout, found from this source file's path.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // TestSupport
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // repository
        .appendingPathComponent("TestImages")

    /// The URL of `TestImages/<relativePath>`.
    public static func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }

    /// The bytes of `TestImages/<relativePath>`.
    public static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relativePath)))
    }

    /// Relative paths (below `TestImages/<folder>`) of the files in a folder, sorted, not recursive.
    public static func files(in folder: String, withExtension ext: String? = nil) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: url(folder).path)
        return names.filter { ext == nil || $0.hasSuffix("." + ext!) }.sorted().map { folder + "/" + $0 }
    }
}
