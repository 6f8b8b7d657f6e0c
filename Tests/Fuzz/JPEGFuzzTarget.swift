// libFuzzer entry point for the JPEG decoder (compiled by run-fuzzer.sh, not by SwiftPM).
// Each input is decoded whole and again in 7-byte pieces, at full and 1/4 scale; any trap
// is a bug, and so is an outcome that depends on the chunking or an `internal` error.
import ImageCore
import JPEGCodec

@_cdecl("LLVMFuzzerTestOneInput")
public func jpegFuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    for scale in [ScaleFactor.full, .quarter] {
        let options = DecodingOptions(limits: Limits(maxPixels: 1 << 22, maxDimension: 1 << 14,
                                                     maxMetadataBytes: 1 << 20, maxScans: 100),
                                      scale: scale)
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
    let decoder = JPEGDecoder(options: options)
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
