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
        fuzzCheckChunkingAgrees(bytes) { JPEGDecoder(options: options) }
    }
    return 0
}
