// libFuzzer entry point for the JPEG decoder (compiled by run-fuzzer.sh with
// -D JPEG_INVARIANT_CHECKS, not by SwiftPM). The first two input bytes choose the split points
// (pieces of 1–64 bytes from a sequence they seed) and whether a preview is drawn after every
// piece; the rest is the file. It is decoded whole and in those pieces, at full and 1/4 scale:
// any trap (including a broken invariant) is a bug, and so is an `internal` error or an outcome
// (image, error kind, last picture) that depends on the chunking. Fed whole on two threads with
// every scan allowed onto the worker (`minimumHandOverBytes` 1), the image or error (kind, offset,
// message), the warnings and the last picture must be the one thread's.
import ImageCore
import JPEGCodec

/// The image or error, and the last picture, of one decode of `file` in `pieces`.
private func jpegOutcome(_ file: UnsafeRawBufferPointer, pieces: [Range<Int>], previews: Bool,
                         options: DecodingOptions, warnings: UnsafeMutablePointer<[ImageDecodingError]>? = nil)
    -> (Result<Image, ImageDecodingError>, Image?) {
    func isWhole(_ image: Image) -> Bool { image.pixels.count == image.width * image.height * image.format.bytesPerPixel }
    let decoder = JPEGDecoder(options: options)
    decoder.minimumHandOverBytes = 1
    defer { warnings?.pointee = decoder.warnings }
    do {
        for piece in pieces {
            try decoder.feed(UnsafeRawBufferPointer(rebasing: file[piece]))
            if previews, let preview = decoder.currentImage(), !isWhole(preview) { fatalError("inconsistent preview") }
        }
        let image = try decoder.finish()
        if !isWhole(image) { fatalError("inconsistent image") }
        return (.success(image), image)
    } catch let error as ImageDecodingError {
        let partial = decoder.currentImage()
        if let partial, !isWhole(partial) { fatalError("inconsistent partial image") }
        return (.failure(error), partial)
    } catch {
        fatalError("not an ImageDecodingError: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func jpegFuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let all = UnsafeRawBufferPointer(start: data, count: size)
    let file = UnsafeRawBufferPointer(rebasing: all[2...])
    // Split points: a small linear congruential sequence seeded by the first two bytes; the low
    // bit of the first byte asks for a preview after every piece.
    let pieces = fuzzPieces(seed: UInt32(all[0]) << 8 | UInt32(all[1]), count: file.count)
    let previews = all[0] & 1 == 1
    for scale in [ScaleFactor.full, .quarter] {
        let options = DecodingOptions(limits: Limits(maxPixels: 1 << 22, maxDimension: 1 << 14,
                                                     maxMetadataBytes: 1 << 20, maxScans: 100),
                                      scale: scale)
        var oneThreadWarnings: [ImageDecodingError] = [], twoThreadWarnings: [ImageDecodingError] = []
        let whole = jpegOutcome(file, pieces: [0..<file.count], previews: false, options: options, warnings: &oneThreadWarnings)
        let split = jpegOutcome(file, pieces: pieces, previews: previews, options: options)
        if case .failure(let error) = whole.0, error.kind == .internal { fatalError("internal error: \(error)") }
        switch (whole.0, split.0) {
        case (.success(let a), .success(let b)) where a == b: break
        case (.failure(let a), .failure(let b)) where a.kind == b.kind: break
        default: fatalError("chunking changed the result: \(whole.0) vs \(split.0)")
        }
        if whole.1 != split.1 { fatalError("chunking changed the last picture") }
        var twoThreads = options
        twoThreads.maximumThreads = 2
        let two = jpegOutcome(file, pieces: [0..<file.count], previews: false, options: twoThreads, warnings: &twoThreadWarnings)
        switch (whole.0, two.0) {
        case (.success(let a), .success(let b)) where a == b: break
        case (.failure(let a), .failure(let b)) where a.kind == b.kind && a.offset == b.offset && a.message == b.message: break
        default: fatalError("two threads changed the result: \(whole.0) vs \(two.0)")
        }
        if whole.1 != two.1 { fatalError("two threads changed the last picture") }
        if oneThreadWarnings.map(\.description) != twoThreadWarnings.map(\.description) { fatalError("two threads changed the warnings") }
    }
    return 0
}
