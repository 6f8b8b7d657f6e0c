import Foundation

/// One file to benchmark.
struct BenchmarkInput {
    /// The path as given on the command line, or the folder as given joined with the path found in it.
    let path: String
    /// What it holds; nil for a file named on the command line whose extension is not known.
    let kind: InputKind?
}

/// Turns the command-line paths into the list of files to benchmark.
enum InputDiscovery {
    /// A path that does not exist.
    struct MissingPathError: Error {
        let path: String
    }

    /// Files named directly are always listed (an unknown extension becomes an error row);
    /// folders are searched recursively for known extensions, in sorted order, skipping hidden files.
    static func inputs(for paths: [String]) throws(MissingPathError) -> [BenchmarkInput] {
        let fileManager = FileManager.default
        var inputs: [BenchmarkInput] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw MissingPathError(path: path)
            }
            guard isDirectory.boolValue else {
                inputs.append(BenchmarkInput(path: path, kind: InputKind(fileName: path)))
                continue
            }
            let folder = path.hasSuffix("/") ? path : path + "/"
            let found = (fileManager.subpaths(atPath: path) ?? []).sorted()
            for relative in found {
                let components = relative.split(separator: "/")
                if components.contains(where: { $0.hasPrefix(".") }) { continue }
                guard let kind = InputKind(fileName: relative) else { continue }
                let full = folder + relative
                var foundIsDirectory: ObjCBool = false
                guard fileManager.fileExists(atPath: full, isDirectory: &foundIsDirectory),
                      !foundIsDirectory.boolValue else { continue }
                inputs.append(BenchmarkInput(path: full, kind: kind))
            }
        }
        return inputs
    }
}
