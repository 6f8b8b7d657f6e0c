// libFuzzer entry point for the GIF decoder (compiled by run-fuzzer.sh, not by SwiftPM).
// The first byte says how many split points follow (0–7), each 2 bytes (little-endian, taken
// modulo the rest's length); the rest is the GIF. It is decoded whole (frames pulled after
// `finish()`) and in the pieces the split points cut (frames pulled after every piece, as a
// player does). Any trap is a bug, and so is an `internal` error, a frame or picture that is not
// whole, more than 2 bytes examined per input byte, or a result that depends on the chunking.
import GIFCodec
import ImageCore

/// What one decode produced: every frame pulled, the default picture, and the last error thrown.
private struct GIFFuzzOutcome: Equatable {
    var frames: [AnimationFrame] = []
    var picture: Image?
    var lastError: ImageDecodingError.Kind?
}

private func decode(_ pieces: [UnsafeRawBufferPointer], pullWhileFeeding: Bool) -> GIFFuzzOutcome {
    let decoder = GIFDecoder(options: DecodingOptions(limits: Limits(maxPixels: 1 << 20, maxDimension: 1 << 12)))
    var outcome = GIFFuzzOutcome()
    func attempt(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return true
        } catch let error as ImageDecodingError {
            if error.kind == .internal { fatalError("internal error: \(error)") }
            outcome.lastError = error.kind
            return false
        } catch {
            fatalError("not an ImageDecodingError: \(error)")
        }
    }
    func pull() -> Bool {
        attempt { while let frame = try decoder.nextFrame() { outcome.frames.append(frame) } }
    }
    var fed = true
    for piece in pieces where fed {
        fed = attempt { try decoder.feed(piece) } && (!pullWhileFeeding || pull())
    }
    _ = attempt { _ = try decoder.finish() }
    _ = pull()
    outcome.picture = decoder.currentImage()
    for frame in outcome.frames {
        let image = frame.image, region = frame.regionImage
        if image.pixels.count != image.width * image.height * 4 || region.pixels.count != region.width * region.height * 4 {
            fatalError("frame \(frame.index) is not whole")
        }
    }
    if let picture = outcome.picture, picture.pixels.count != picture.width * picture.height * picture.format.bytesPerPixel {
        fatalError("picture is not whole")
    }
    let total = pieces.reduce(0) { $0 + $1.count }
    if decoder.inputBytesExamined > 2 * total + 16 { fatalError("examined \(decoder.inputBytesExamined) bytes of \(total)") }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func gifFuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let all = UnsafeRawBufferPointer(start: data, count: size)
    guard size >= 1 else { return 0 }
    let splitCount = Int(all[0] & 7)
    let headerSize = 1 + 2 * splitCount
    guard size >= headerSize else { return 0 }
    let gif = UnsafeRawBufferPointer(rebasing: all[headerSize...])
    var cuts = (0..<splitCount).map { k -> Int in
        let value = Int(all[1 + 2 * k]) | Int(all[2 + 2 * k]) << 8
        return gif.isEmpty ? 0 : value % gif.count
    }
    cuts = Array(Set(cuts + [0, gif.count])).sorted()
    var pieces: [UnsafeRawBufferPointer] = []
    for (start, end) in zip(cuts, cuts.dropFirst()) { pieces.append(UnsafeRawBufferPointer(rebasing: gif[start..<end])) }
    let whole = decode([gif], pullWhileFeeding: false)
    let split = decode(pieces, pullWhileFeeding: true)
    if whole != split { fatalError("chunking changed the result: \(whole.frames.count) frames, \(String(describing: whole.lastError)) vs \(split.frames.count) frames, \(String(describing: split.lastError))") }
    return 0
}
