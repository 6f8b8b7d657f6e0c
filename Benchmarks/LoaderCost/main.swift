// Loads 20 photos three times: decoded from memory, through ImageLoader with previews, and
// without previews; prints the median CPU time (all threads, getrusage) of each and the ratios.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ImageLoading
import JPEGCodec
import Glibc

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

let port = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "8765"
let folder = CommandLine.arguments.count > 2 ? CommandLine.arguments[2] : "photos"
let names = (0..<20).map { String(format: "p%02d.jpg", $0) }
let files = names.map { [UInt8](try! Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0))) }

var memory: [Double] = [], loader: [Double] = [], loaderNoPreview: [Double] = []
for _ in 0..<3 {
    var start = cpuSeconds()
    var pixels = 0
    for bytes in files { pixels &+= try! JPEGDecoder().decode(bytes).pixels.count }
    memory.append(cpuSeconds() - start)

    for previews in [true, false] {
        let imageLoader = ImageLoader(configuration: .init(maxConcurrentDownloads: 1, diskCacheDirectory: nil))
        start = cpuSeconds()
        var previewCount = 0
        for name in names {
            let request = ImageRequest(url: URL(string: "http://127.0.0.1:\(port)/\(name)")!, deliversPreviews: previews,
                                       cachePolicy: .reloadIgnoringCaches)
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
