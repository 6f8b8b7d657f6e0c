// Developer tool (Benchmarks/LoaderCost/README.md).
//
// `loader-cost PORT FOLDER`: loads 20 photos three times: decoded from memory, through
// ImageLoader with previews, and without previews; prints the median CPU time (all threads,
// getrusage) of each and the ratios.
//
// `loader-cost storm PORT FOLDER COUNT`: starts COUNT loads at once (the 20 photos under COUNT
// distinct URLs), two downloads at a time, a 64 MiB memory cache; prints the peak resident size
// (getrusage ru_maxrss) over the baseline taken before, for the bounded-decoders check.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImageLoading
import JPEGCodec
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func usage() -> rusage {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return usage
}

func cpuSeconds() -> Double {
    let now = usage()
    return Double(now.ru_utime.tv_sec + now.ru_stime.tv_sec) + Double(now.ru_utime.tv_usec + now.ru_stime.tv_usec) / 1e6
}

/// Peak resident set in MiB (Linux reports ru_maxrss in KiB).
func peakResidentMiB() -> Double { Double(usage().ru_maxrss) / 1024 }

var arguments = Array(CommandLine.arguments.dropFirst())
let storm = arguments.first == "storm"
if storm { arguments.removeFirst() }
let port = arguments.count > 0 ? arguments[0] : "8765"
let folder = arguments.count > 1 ? arguments[1] : "photos"
let names = (0..<20).map { String(format: "p%02d.jpg", $0) }

if storm {
    let count = arguments.count > 2 ? Int(arguments[2]) ?? 200 : 200
    let baseline = peakResidentMiB()
    let memoryLimit = 64 << 20
    let loader = ImageLoader(configuration: .init(maxConcurrentDownloads: 2, memoryCacheCostLimit: memoryLimit,
                                                  diskCacheDirectory: nil))
    let start = Date()
    let pixels = try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<count {
            let url = URL(string: "http://127.0.0.1:\(port)/\(names[index % names.count])?copy=\(index)")!
            group.addTask { try await loader.image(for: url).image.pixels.count }
        }
        var total = 0
        for try await count in group { total += count }
        return total
    }
    print(String(format: "storm: %d loads in %.1f s, %d decoded bytes in all; peak RSS %.0f MiB over a %.0f MiB baseline "
                 + "(memory cache limit %d MiB, decoders in flight at most %d)",
                 count, Date().timeIntervalSince(start), pixels, peakResidentMiB() - baseline, baseline, memoryLimit >> 20,
                 loader.configuration.maxConcurrentDecodes))
    exit(0)
}

let files = names.map { [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0))) ?? Data()) }
var memory: [Double] = [], loader: [Double] = [], loaderNoPreview: [Double] = []
for _ in 0..<3 {
    var start = cpuSeconds()
    var pixels = 0
    for bytes in files { pixels &+= (try? JPEGDecoder().decode(bytes).pixels.count) ?? 0 }
    memory.append(cpuSeconds() - start)

    for previews in [true, false] {
        let imageLoader = ImageLoader(configuration: .init(maxConcurrentDownloads: 1, diskCacheDirectory: nil))
        start = cpuSeconds()
        var previewCount = 0
        for name in names {
            guard let url = URL(string: "http://127.0.0.1:\(port)/\(name)") else { continue }
            let request = ImageRequest(url: url, deliversPreviews: previews, cachePolicy: .reloadIgnoringCaches)
            for try await event in imageLoader.images(for: request) {
                switch event {
                case .preview: previewCount += 1
                case .completed(let response): pixels &+= response.image.pixels.count
                default: break
                }
            }
        }
        (previews ? { loader.append(cpuSeconds() - start) } : { loaderNoPreview.append(cpuSeconds() - start) })()
        if previews { print("previews delivered: \(previewCount)") }
    }
    print("checksum \(pixels)")
}
func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
print(String(format: "CPU s: memory %.3f, loader+previews %.3f (%.2fx), loader no previews %.3f (%.2fx)",
             median(memory), median(loader), median(loader) / median(memory), median(loaderNoPreview), median(loaderNoPreview) / median(memory)))
