// swift-tools-version:6.3
import PackageDescription

// Zero package dependencies and no C targets: everything here is pure Swift.
let package = Package(
    name: "IncrementalImage",
    // What the code truly needs: Swift concurrency (async/await, AsyncThrowingStream) is in the
    // OS from macOS 10.15 / iOS 13 / tvOS 13 / watchOS 6. Nothing newer is used on any path that
    // compiles there (no NSLock.withLock, Mutex, ContinuousClock or FileHandle.read(upToCount:)).
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "Deflate", targets: ["Deflate"]),
        .library(name: "ImageCore", targets: ["ImageCore"]),
        .library(name: "ColorManagement", targets: ["ColorManagement"]),
        .library(name: "PNGCodec", targets: ["PNGCodec"]),
        .library(name: "JPEGCodec", targets: ["JPEGCodec"]),
        .library(name: "GIFCodec", targets: ["GIFCodec"]),
        .library(name: "WebPCodec", targets: ["WebPCodec"]),
        .library(name: "IncrementalImage", targets: ["IncrementalImage"]),
        .library(name: "ImageLoading", targets: ["ImageLoading"]),
        .executable(name: "imagefeed", targets: ["imagefeed"]),
        .executable(name: "benchmark", targets: ["benchmark"]),
    ],
    targets: [
        .target(name: "Deflate"),
        .target(name: "ImageCore"),
        // ICC v2/v4 profiles and conversion to sRGB; the codecs use it on request (DecodingOptions.colorSpace).
        .target(name: "ColorManagement", dependencies: ["ImageCore"]),
        .target(name: "PNGCodec", dependencies: ["ImageCore", "ColorManagement", "Deflate"]),
        .target(name: "JPEGCodec", dependencies: ["ImageCore", "ColorManagement"]),
        .target(name: "GIFCodec", dependencies: ["ImageCore"]),
        .target(name: "WebPCodec", dependencies: ["ImageCore", "ColorManagement"]),
        .executableTarget(name: "imagefeed",
                         dependencies: ["ImageCore", "IncrementalImage", "PNGCodec", "ImageLoading", "LoopbackHTTPServer"]),
        .executableTarget(
            name: "benchmark",
            dependencies: ["Deflate", "ImageCore", "PNGCodec", "JPEGCodec", "GIFCodec", "WebPCodec"],
            path: "Benchmarks/benchmark"
        ),
        // Developer tool: ImageLoader's CPU cost against decoding from memory (Benchmarks/LoaderCost/README.md).
        .executableTarget(
            name: "loader-cost",
            dependencies: ["ImageLoading", "JPEGCodec"],
            path: "Benchmarks/LoaderCost",
            exclude: ["README.md", "make_photos.py"]
        ),
        .target(name: "IncrementalImage", dependencies: ["ImageCore", "ColorManagement", "PNGCodec", "JPEGCodec", "GIFCodec", "WebPCodec"]),
        .target(name: "ImageLoading", dependencies: ["IncrementalImage"]),
        // HTTP/1.1 server on 127.0.0.1 only: the loader tests and `imagefeed demo` serve images with it.
        .target(name: "LoopbackHTTPServer", dependencies: ["Deflate"]),
        // Shared test helpers: fixture paths, manifest reader, SHA-256, seeded RNG.
        .target(name: "TestSupport", dependencies: ["ImageCore"], path: "Tests/TestSupport"),
        .testTarget(name: "IncrementalImageTests", dependencies: ["IncrementalImage", "TestSupport"]),
        .testTarget(name: "ImageLoadingTests",
                    dependencies: ["ImageLoading", "IncrementalImage", "LoopbackHTTPServer", "TestSupport"]),
        .testTarget(name: "DeflateTests", dependencies: ["Deflate", "TestSupport"]),
        .testTarget(name: "ImageCoreTests", dependencies: ["ImageCore", "TestSupport"]),
        .testTarget(name: "ColorManagementTests",
                    dependencies: ["ColorManagement", "PNGCodec", "JPEGCodec", "WebPCodec", "TestSupport"]),
        .testTarget(name: "PNGCodecTests", dependencies: ["PNGCodec", "Deflate", "TestSupport"]),
        .testTarget(name: "JPEGCodecTests", dependencies: ["JPEGCodec", "TestSupport"]),
        .testTarget(name: "GIFCodecTests", dependencies: ["GIFCodec", "TestSupport"]),
        .testTarget(name: "WebPCodecTests", dependencies: ["WebPCodec", "TestSupport"]),
        .testTarget(name: "ImagefeedTests",
                    dependencies: ["imagefeed", "PNGCodec", "JPEGCodec", "ImageLoading", "IncrementalImage", "LoopbackHTTPServer", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
