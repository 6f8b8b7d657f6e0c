// Shared by the image fuzz targets (compiled into each by run-fuzzer.sh, not by SwiftPM):
// decode one input whole and in pieces and fail loudly on anything that is a bug (split points:
// Tests/TestSupport/FuzzPieces.swift).
import ImageCore

/// Decodes `bytes` through `decoder`, `pieceSize` bytes per feed, and returns the image or the error.
/// Traps (the fuzzer's crash signal) on an inconsistent image, a partial picture that is not whole,
/// or an error that is not an ``ImageDecodingError``.
func fuzzOutcome(_ bytes: UnsafeRawBufferPointer, pieceSize: Int,
                 _ decoder: any IncrementalImageDecoder) -> Result<Image, ImageDecodingError> {
    func isWhole(_ image: Image) -> Bool { image.pixels.count == image.width * image.height * image.format.bytesPerPixel }
    do {
        var start = 0
        while start < bytes.count {
            let end = min(start + pieceSize, bytes.count)
            try decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = end
        }
        let image = try decoder.finish()
        if !isWhole(image) { fatalError("inconsistent image") }
        return .success(image)
    } catch let error as ImageDecodingError {
        // Whatever was decoded stays a whole picture.
        if let partial = decoder.currentImage(), !isWhole(partial) { fatalError("inconsistent partial image") }
        return .failure(error)
    } catch {
        fatalError("not an ImageDecodingError: \(error)")
    }
}

/// Decodes `bytes` whole and in 7-byte pieces with fresh decoders from `makeDecoder`; traps on an
/// `internal` error or when the chunking changed the image or the error kind.
func fuzzCheckChunkingAgrees(_ bytes: UnsafeRawBufferPointer, _ makeDecoder: () -> any IncrementalImageDecoder) {
    let whole = fuzzOutcome(bytes, pieceSize: max(bytes.count, 1), makeDecoder())
    let split = fuzzOutcome(bytes, pieceSize: 7, makeDecoder())
    if case .failure(let error) = whole, error.kind == .internal { fatalError("internal error: \(error)") }
    switch (whole, split) {
    case (.success(let a), .success(let b)) where a == b: break
    case (.failure(let a), .failure(let b)) where a.kind == b.kind: break
    default: fatalError("chunking changed the result: \(whole) vs \(split)")
    }
}
