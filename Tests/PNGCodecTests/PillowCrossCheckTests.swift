import Foundation
import ImageCore
import PNGCodec
import TestSupport
import XCTest

/// Our PNG files read by other decoders: Pillow (8-bit formats and 16-bit gray) and, when
/// imagecodecs is installed too, libpng itself (every format). Also compares file sizes with
/// Pillow's default PNG save. Skipped, with a message, when python3 or Pillow is missing:
/// `swift test` never needs Python.
final class PillowCrossCheckTests: XCTestCase {
    /// Reads each PNG named on the command line; prints `name pillow=<sha256|-> libpng=<sha256|->`.
    /// With `--save-sizes`, the files are raw RGB/RGBA dumps "name width height mode" to save with Pillow.
    private static let readerScript = """
    import sys, hashlib
    from PIL import Image
    try:
        import imagecodecs, numpy
    except ImportError:
        imagecodecs = None
    for path in sys.argv[1:]:
        pillow = '-'
        im = Image.open(path)
        depth = open(path, 'rb').read()[24]   # IHDR bit depth: Pillow reduces 16-bit colour to 8 bits
        if depth == 8 and im.mode in ('L', 'LA', 'RGB', 'RGBA'):
            pillow = hashlib.sha256(im.tobytes()).hexdigest()
        elif im.mode == 'I;16':
            data = im.tobytes()   # little-endian: swap to the big-endian order of our pixels
            pillow = hashlib.sha256(bytes(b for i in range(0, len(data), 2) for b in (data[i + 1], data[i]))).hexdigest()
        libpng = '-'
        if imagecodecs is not None:
            a = imagecodecs.png_decode(open(path, 'rb').read())
            if a.dtype == numpy.uint16:
                a = a.astype('>u2')
            libpng = hashlib.sha256(a.tobytes()).hexdigest()
        print(path, 'pillow=' + pillow, 'libpng=' + libpng)
    """

    /// Saves raw pixels with Pillow's defaults and prints the PNG size: args are triples path width height.
    private static let saverScript = """
    import sys, io
    from PIL import Image
    args = sys.argv[1:]
    for i in range(0, len(args), 4):
        path, w, h, mode = args[i], int(args[i + 1]), int(args[i + 2]), args[i + 3]
        im = Image.frombytes(mode, (w, h), open(path, 'rb').read())
        out = io.BytesIO()
        im.save(out, format='PNG')
        print(path, len(out.getvalue()))
    """

    private var scratch: URL!

    override func setUpWithError() throws {
        guard Self.pillowAvailable else {
            throw XCTSkip("python3 with Pillow is not installed: the Pillow cross-read is skipped (pip install pillow)")
        }
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("png-crosscheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }

    private static let pillowAvailable: Bool = (try? python(["-c", "import PIL"]))?.status == 0

    /// Runs python3 with `arguments`; returns exit status and standard output.
    private static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testPillowAndLibpngReadOurFilesAsTheSamePixels() throws {
        var expected: [String: (PixelFormat, String)] = [:]
        var paths: [String] = []
        for format in EncoderRoundTripTests.encodableFormats {
            for (width, height) in [(1, 1), (33, 17)] {
                let image = EncoderRoundTripTests.sampleImage(width: width, height: height, format: format, seed: 42)
                let path = scratch.appendingPathComponent("\(format)-\(width)x\(height).png").path
                // The image's own format (no palette or low-bit gray), which the script compares
                // per format; the reduced layouts are checked by Benchmarks/png_encoder_crosscheck.py.
                try Data(PNGEncoder(reducesColorType: false).encode(image)).write(to: URL(fileURLWithPath: path))
                expected[path] = (format, Digest.sha256(image.pixels))
                paths.append(path)
            }
        }
        let result = try Self.python(["-c", Self.readerScript] + paths)
        XCTAssertEqual(result.status, 0)
        var pillowChecked = 0, libpngChecked = 0
        for line in result.output.split(separator: "\n") {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 3, let (format, hash) = expected[fields[0]] else { XCTFail("unexpected output: \(line)"); continue }
            let pillow = String(fields[1].dropFirst("pillow=".count)), libpng = String(fields[2].dropFirst("libpng=".count))
            if pillow != "-" { XCTAssertEqual(pillow, hash, "Pillow reads \(fields[0])"); pillowChecked += 1 }
            if libpng != "-" { XCTAssertEqual(libpng, hash, "libpng reads \(fields[0])"); libpngChecked += 1 }
            // Pillow keeps 8-bit formats and 16-bit gray exactly; 16-bit colour it reduces, so it is not compared.
            if [.gray8, .grayAlpha8, .rgb8, .rgba8, .gray16].contains(format) { XCTAssertNotEqual(pillow, "-", fields[0]) }
        }
        XCTAssertEqual(pillowChecked, 10)
        if libpngChecked == 0 { print("PillowCrossCheckTests: imagecodecs not installed, libpng read-back not checked") }
        else { XCTAssertEqual(libpngChecked, 16) }
    }

    func testOurPhotoFilesAreAtMost1Point3TimesPillowsDefaultSave() throws {
        let photos: [(String, PixelFormat, String)] = [("extras/photo_900x600_adam7.png", .rgb8, "RGB"),
                                                       ("extras/rgba16_photo.png", .rgba8, "RGBA")]
        var arguments: [String] = []
        var ours: [String: Int] = [:]
        for (name, format, mode) in photos {
            let image = try PNGDecoder(options: DecodingOptions(preferredFormat: format))
                .decode(try Fixtures.bytes("corpus/png/" + name))
            let raw = scratch.appendingPathComponent((name as NSString).lastPathComponent + ".raw").path
            try Data(image.pixels).write(to: URL(fileURLWithPath: raw))
            arguments += [raw, String(image.width), String(image.height), mode]
            ours[raw] = PNGEncoder().encode(image).count
        }
        let result = try Self.python(["-c", Self.saverScript] + arguments)
        XCTAssertEqual(result.status, 0)
        let lines = result.output.split(separator: "\n")
        XCTAssertEqual(lines.count, photos.count)
        for line in lines {
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count == 2, let pillowSize = Int(fields[1]), let ourSize = ours[fields[0]] else {
                XCTFail("unexpected output: \(line)"); continue
            }
            let ratio = Double(ourSize) / Double(pillowSize)
            print("PillowCrossCheckTests: \(fields[0]): ours \(ourSize) bytes, Pillow \(pillowSize) bytes, ratio \(ratio)")
            XCTAssertLessThanOrEqual(ratio, 1.3, fields[0])
        }
    }
}
