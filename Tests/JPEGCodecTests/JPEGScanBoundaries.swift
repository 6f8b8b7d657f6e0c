import Foundation
import ImageCore

/// Byte offsets that split a JPEG file at its scans, found from its markers: in entropy-coded data
/// 0xFF is always followed by 0x00 or RSTn, so every 0xFF 0xDA / 0xFF 0xD9 pair is a real marker.
enum JPEGScanBoundaries {
    /// Offsets of every SOS marker, then of EOI.
    static func markerOffsets(in bytes: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF && (bytes[index + 1] == 0xDA || bytes[index + 1] == 0xD9) { offsets.append(index) }
            index += 1
        }
        return offsets
    }

    /// Offset of the `Ss` byte of the SOS segment at `sosOffset` (after the component selectors).
    static func spectralStartOffset(sosOffset: Int, in bytes: [UInt8]) -> Int {
        let components = Int(bytes[sosOffset + 4])
        return sosOffset + 5 + 2 * components
    }

    /// Peak signal-to-noise ratio of `image` against `reference` in dB (infinity when identical).
    static func psnr(_ image: Image, _ reference: Image) -> Double {
        var squares = 0.0
        for (a, b) in zip(image.pixels, reference.pixels) {
            let difference = Double(a) - Double(b)
            squares += difference * difference
        }
        guard squares > 0 else { return .infinity }
        let meanSquare = squares / Double(reference.pixels.count)
        return 10 * log10(255 * 255 / meanSquare)
    }
}
