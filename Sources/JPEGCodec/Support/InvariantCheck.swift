/// Checks an invariant the decoder keeps by construction (a bit count in range, a block row inside
/// its window). Compiled in only when the build defines `JPEG_INVARIANT_CHECKS`, as the fuzz build
/// does (`Tests/Fuzz/run-fuzzer.sh` passes `-D JPEG_INVARIANT_CHECKS`): a broken invariant then
/// traps where it breaks instead of reading the wrong memory later. Release and test builds pay nothing.
@inline(__always)
func jpegInvariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    #if JPEG_INVARIANT_CHECKS
    if !condition() { fatalError("JPEGCodec invariant broken: \(message())") }
    #endif
}
