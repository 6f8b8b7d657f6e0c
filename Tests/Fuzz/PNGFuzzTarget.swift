// libFuzzer entry point for the PNG decoder (compiled by run-fuzzer.sh, not by SwiftPM).
// Each input is decoded whole and again in 7-byte pieces, with checksums on and off; any trap
// is a bug, and so is an outcome that depends on the chunking or an `internal` error.
// APNG: the frames are pulled after `finish()` (whole) and after every piece (split); both must
// give the same frames and the same animation error kind, every frame whole, at most 2 bytes
// examined per input byte.
import ImageCore
import PNGCodec

/// What an animated decode produced: every frame pulled and the animation's error.
private struct APNGFuzzOutcome: Equatable {
    var frames: [AnimationFrame] = []
    var frameError: ImageDecodingError.Kind?
}

private func decodeAnimation(_ bytes: UnsafeRawBufferPointer, pieceSize: Int, options: DecodingOptions) -> APNGFuzzOutcome {
    let decoder = PNGDecoder(options: options)
    var outcome = APNGFuzzOutcome()
    func pull() {
        guard outcome.frameError == nil else { return }
        do {
            while let frame = try decoder.nextFrame() { outcome.frames.append(frame) }
        } catch let error as ImageDecodingError {
            if error.kind == .internal { fatalError("internal error in a frame: \(error)") }
            outcome.frameError = error.kind
        } catch {
            fatalError("not an ImageDecodingError: \(error)")
        }
    }
    var start = 0
    while start < bytes.count {
        let end = min(start + pieceSize, bytes.count)
        guard (try? decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))) != nil else { break }
        if pieceSize < bytes.count { pull() }
        start = end
    }
    _ = try? decoder.finish()
    pull()
    for frame in outcome.frames {
        let image = frame.image, region = frame.regionImage
        if image.pixels.count != image.width * image.height * image.format.bytesPerPixel
            || region.pixels.count != region.width * region.height * region.format.bytesPerPixel {
            fatalError("frame \(frame.index) is not whole")
        }
    }
    if decoder.inputBytesExamined > 2 * bytes.count + 16 { fatalError("examined \(decoder.inputBytesExamined) bytes of \(bytes.count)") }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func pngFuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    for verify in [true, false] {
        let options = DecodingOptions(limits: Limits(maxPixels: 1 << 22, maxDimension: 1 << 14,
                                                     maxMetadataBytes: 1 << 20, maxInflateOutput: 1 << 22),
                                      verifyChecksums: verify)
        fuzzCheckChunkingAgrees(bytes) { PNGDecoder(options: options) }
        let whole = decodeAnimation(bytes, pieceSize: max(size, 1), options: options)
        let split = decodeAnimation(bytes, pieceSize: 7, options: options)
        if whole != split { fatalError("chunking changed the animation: \(whole.frames.count) frames, \(String(describing: whole.frameError)) vs \(split.frames.count), \(String(describing: split.frameError))") }
    }
    return 0
}
