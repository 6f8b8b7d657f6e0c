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
        fuzzCheckChunkingAgrees(bytes) { PNGDecoder(options: options) }
    }
    return 0
}
