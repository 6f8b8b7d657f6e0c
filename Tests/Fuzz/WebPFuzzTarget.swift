// libFuzzer entry point for the WebP decoder (compiled by run-fuzzer.sh, not by SwiftPM).
// The first two input bytes choose the split points, the rest is the file: it is decoded whole
// and again in pieces whose sizes come from those two bytes (1–64 bytes, varying), pulling
// animation frames after every piece. Any trap is a bug, and so is an `internal` error or an
// outcome (image, error kind, frames) that depends on the chunking.
import ImageCore
import WebPCodec

/// The image or error, and the frames pulled, of one decode of `file` in `pieces`.
private func webpOutcome(_ file: UnsafeRawBufferPointer, pieces: [Range<Int>]) -> (Result<Image, ImageDecodingError>, [AnimationFrame], ImageDecodingError?) {
    let options = DecodingOptions(limits: Limits(maxPixels: 1 << 22, maxDimension: 1 << 14, maxMetadataBytes: 1 << 20))
    let decoder = WebPDecoder(options: options)
    var frames: [AnimationFrame] = []
    var frameError: ImageDecodingError?
    func pull() {
        guard frameError == nil else { return }
        do {
            while let frame = try decoder.nextFrame() {
                if frame.image.pixels.count != frame.image.width * frame.image.height * 4 { fatalError("inconsistent frame") }
                frames.append(frame)
            }
        } catch let error as ImageDecodingError {
            frameError = error
        } catch {
            fatalError("not an ImageDecodingError: \(error)")
        }
    }
    do {
        for piece in pieces {
            try decoder.feed(UnsafeRawBufferPointer(rebasing: file[piece]))
            pull()
        }
        let image = try decoder.finish()
        pull()
        if image.pixels.count != image.width * image.height * image.format.bytesPerPixel { fatalError("inconsistent image") }
        return (.success(image), frames, frameError)
    } catch let error as ImageDecodingError {
        pull()
        if let partial = decoder.currentImage(),
           partial.pixels.count != partial.width * partial.height * partial.format.bytesPerPixel {
            fatalError("inconsistent partial image")
        }
        return (.failure(error), frames, frameError)
    } catch {
        fatalError("not an ImageDecodingError: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func webpFuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let all = UnsafeRawBufferPointer(start: data, count: size)
    let file = UnsafeRawBufferPointer(rebasing: all[2...])
    // Split points: a small linear congruential sequence seeded by the first two bytes.
    let pieces = fuzzPieces(seed: UInt32(all[0]) << 8 | UInt32(all[1]), count: file.count)
    let whole = webpOutcome(file, pieces: [0..<file.count])
    let split = webpOutcome(file, pieces: pieces)
    if case .failure(let error) = whole.0, error.kind == .internal { fatalError("internal error: \(error)") }
    switch (whole.0, split.0) {
    case (.success(let a), .success(let b)) where a == b: break
    case (.failure(let a), .failure(let b)) where a.kind == b.kind: break
    default: fatalError("chunking changed the result: \(whole.0) vs \(split.0)")
    }
    if whole.1 != split.1 || whole.2?.kind != split.2?.kind { fatalError("chunking changed the frames") }
    return 0
}
