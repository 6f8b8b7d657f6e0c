import Foundation

/// How the demo's loopback server throttles each body: cut into ``pieces`` equal writes with
/// ``pause`` between them, so every picture takes about the same time whatever its size.
///
/// Default: 36 pieces 40 ms apart, about 1.4 s per picture (the 323 175-byte PNG goes out in
/// 8 978-byte pieces, about 220 KB/s; the 105 408-byte JPEG in 2 928-byte pieces).
struct DemoPacing: Sendable {
    /// Writes per body.
    var pieces: Int
    /// Sleep between two writes.
    var pause: TimeInterval

    /// What `imagefeed demo` uses.
    static let standard = DemoPacing(pieces: 36, pause: 0.04)

    /// Bytes per write for a body of `length` bytes (rounded up, so at most ``pieces`` writes).
    func pieceSize(forBodyLength length: Int) -> Int {
        max(1, (length + pieces - 1) / max(pieces, 1))
    }
}
