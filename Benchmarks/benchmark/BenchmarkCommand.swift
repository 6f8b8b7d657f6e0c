import Foundation

/// The whole program: parse, find inputs, measure each, report. Returns the exit status.
enum BenchmarkCommand {
    static func run(_ arguments: [String]) -> Int32 {
        let options: BenchmarkOptions
        do {
            guard let parsed = try BenchmarkOptions.parse(arguments) else {
                print(BenchmarkOptions.usage)
                return 0
            }
            options = parsed
        } catch {
            printError("benchmark: \(error.message)\n\n\(BenchmarkOptions.usage)")
            return 2
        }

        let paths = options.paths.isEmpty ? [BenchmarkOptions.defaultPath] : options.paths
        let inputs: [BenchmarkInput]
        do {
            inputs = try InputDiscovery.inputs(for: paths)
        } catch {
            let hint = options.paths.isEmpty
                ? " (the default folder; run from the package root, or name files or folders to benchmark)" : ""
            printError("benchmark: no such file or folder: \(error.path)\(hint)")
            return 2
        }
        if inputs.isEmpty {
            printError("benchmark: no .zlib, .gz, .deflate, .png, .jpg, .jpeg, .gif or .webp files under \(paths.joined(separator: ", "))")
            return 2
        }

        let benchmark = FileBenchmark(
            timer: SampleTimer(repeatCount: options.repeatCount, minimumSampleSeconds: options.minimumSampleSeconds),
            chunkSize: options.chunkSize, takePreviews: options.takePreviews, encodePNGLevel: options.encodePNGLevel,
            streaming: options.streaming, checksum: options.checksum, decodingOptions: options.decodingOptions)
        if options.json {
            let results = inputs.map(benchmark.run)
            print(JSONReport.render(results))
        } else {
            var table = TableReport(inputs: inputs)
            table.printHeader(options: options)
            for input in inputs {
                table.add(benchmark.run(input))
                fflush(nil)   // rows appear as they are measured, even through a pipe
            }
            table.printFooter()
        }
        return 0
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
