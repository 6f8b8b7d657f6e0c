// libFuzzer entry point for the Inflater (compiled by run-fuzzer.sh, not by SwiftPM).
// Each input is fed whole and again in 3-byte and in 1-byte pieces (the byte-at-a-time path), as
// zlib, raw and gzip; any trap is a bug, and so is a stream whose end only `finish()` finds when
// fed in pieces (bytes may wait undecoded, but never the stream's last).

@_cdecl("LLVMFuzzerTestOneInput")
public func inflateFuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    for format in DeflateFormat.allCases {
        let options = InflateOptions(maxOutputBytes: 1 << 22)
        var whole: [UInt8] = []
        let oneShot = Inflater(format: format, options: options)
        let wholeError: InflateError?
        var wholeEnded = false
        do {
            wholeEnded = try oneShot.feed(bytes) { whole.append(contentsOf: $0) } == .streamEnd
            try oneShot.finish()
            wholeError = nil
        } catch let error as InflateError { wholeError = error } catch { wholeError = nil }

        for pieceSize in [3, 1] {
            var pieces: [UInt8] = []
            let chunked = Inflater(format: format, options: options)
            var chunkedError: InflateError?
            var chunkedEnded = false
            var start = 0
            do {
                while start < size {
                    let end = min(start + pieceSize, size)
                    let status = try chunked.feed(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) { pieces.append(contentsOf: $0) }
                    if status == .streamEnd { chunkedEnded = true }
                    start = end
                }
                try chunked.finish()
            } catch let error as InflateError { chunkedError = error } catch {}
            // Chunking must not change the outcome: same output, same error kind.
            if wholeError?.kind != chunkedError?.kind || (wholeError == nil && whole != pieces) {
                fatalError("\(pieceSize)-byte pieces changed the result for \(format): \(String(describing: wholeError)) vs \(String(describing: chunkedError))")
            }
            if wholeEnded && chunkedError == nil && !chunkedEnded {
                fatalError("\(pieceSize)-byte pieces never reported the stream's end for \(format); only finish() found it")
            }
        }
    }
    return 0
}
