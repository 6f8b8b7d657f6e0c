// libFuzzer entry point for the PNG decoder (compiled by run-fuzzer.sh, not by SwiftPM).
// Each input is decoded whole and again in 7-byte pieces, with checksums on and off; any trap
// is a bug, and so is an outcome that depends on the chunking or an `internal` error.
import ImageCore
import PNGCodec

@_cdecl("LLVMFuzzerTestOneInput")
public func pngFuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    for verify in [true, false] {
        let options = DecodingOptions(limits: Limits(maxPixels: 1 << 22, maxDimension: 1 << 14,
                                                     maxMetadataBytes: 1 << 20, maxInflateOutput: 1 << 22),
                                      verifyChecksums: verify)
        let whole = outcome(bytes, pieceSize: max(size, 1), options: options)
        let split = outcome(bytes, pieceSize: 7, options: options)
        if case .failure(let error) = whole, error.kind == .internal { fatalError("internal error: \(error)") }
        switch (whole, split) {
        case (.success(let a), .success(let b)) where a == b: break
        case (.failure(let a), .failure(let b)) where a.kind == b.kind: break
        default: fatalError("chunking changed the result: \(whole) vs \(split)")
        }
    }
    return 0
}

private func outcome(_ bytes: UnsafeRawBufferPointer, pieceSize: Int, options: DecodingOptions) -> Result<Image, ImageDecodingError> {
    let decoder = PNGDecoder(options: options)
    do {
        var start = 0
        while start < bytes.count {
            let end = min(start + pieceSize, bytes.count)
            try decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            start = end
        }
        let image = try decoder.finish()
        if image.pixels.count != image.width * image.height * image.format.bytesPerPixel { fatalError("inconsistent image") }
        return .success(image)
    } catch let error as ImageDecodingError {
        // Whatever was decoded stays a whole picture.
        if let partial = decoder.currentImage(), partial.pixels.count != partial.width * partial.height * partial.format.bytesPerPixel {
            fatalError("inconsistent partial image")
        }
        return .failure(error)
    } catch {
        fatalError("not an ImageDecodingError: \(error)")
    }
}
