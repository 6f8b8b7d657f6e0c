import Deflate
import ImageCore

/// Writes PNG files (PNG 2nd edition) from an ``Image``: 8- and 16-bit gray, gray + alpha,
/// RGB and RGBA, non-interlaced, with a per-row filter choice and DEFLATE compression.
///
/// `cmyk8` images are written as RGB (converted the way `Image.converted(to:)` does).
/// An ICC profile is stored in iCCP and an orientation other than `.up` in an eXIf chunk,
/// so decoding the file gives back the same ``Image``.
///
/// ```swift
/// let png = PNGEncoder().encode(image)
/// ```
public struct PNGEncoder: Sendable {
    /// DEFLATE level, 0 (stored) ... 9 (smallest). Default 6.
    public var compressionLevel: Int
    /// How each row's filter is chosen. Default ``PNGFilterStrategy/adaptive``.
    public var filterStrategy: PNGFilterStrategy

    /// Makes an encoder.
    public init(compressionLevel: Int = 6, filterStrategy: PNGFilterStrategy = .adaptive) {
        self.compressionLevel = compressionLevel
        self.filterStrategy = filterStrategy
    }

    /// Largest IDAT data written: 1 MiB.
    static let maxIDATLength = 1 << 20

    /// The PNG file for `image`.
    public func encode(_ image: Image) -> [UInt8] {
        let source = image.format == .cmyk8 ? image.converted(to: .rgb8) : image
        var writer = PNGChunkWriter()
        writer.writeSignature()
        writer.writeChunk(.IHDR, PNGEncoder.ihdr(for: source))
        if let profile = source.iccProfile {
            // PNG 11.3.3.3: name, NUL, compression method 0, zlib data.
            writer.writeChunk(.iCCP, Array("ICC profile".utf8) + [0, 0] + Deflater.compress(profile, level: compressionLevel))
        }
        if source.orientation != .up {
            writer.writeChunk(.eXIf, PNGEncoder.exifOrientation(source.orientation))
        }
        let filtered = filterRows(source)
        let stream = Deflater.compress(filtered, format: .zlib, level: compressionLevel)
        // Several IDATs of at most 1 MiB: chunk lengths stay far below 2^31 (PNG 5.3) and a
        // streaming reader checks a CRC at least every MiB.
        var start = 0
        repeat {
            let end = min(start + PNGEncoder.maxIDATLength, stream.count)
            writer.writeChunk(.IDAT, Array(stream[start..<end]))
            start = end
        } while start < stream.count
        writer.writeChunk(.IEND, [])
        return writer.bytes
    }

    /// IHDR data: size, depth, colour type, methods 0, no interlace.
    private static func ihdr(for image: Image) -> [UInt8] {
        let colorType: PNGColorType
        switch image.format {
        case .gray8, .gray16: colorType = .gray
        case .grayAlpha8, .grayAlpha16: colorType = .grayAlpha
        case .rgb8, .rgb16, .cmyk8: colorType = .rgb
        case .rgba8, .rgba16: colorType = .rgba
        }
        var data: [UInt8] = []
        for value in [UInt32(truncatingIfNeeded: image.width), UInt32(truncatingIfNeeded: image.height)] {
            data += (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * $0)) }
        }
        data += [UInt8(image.format.bytesPerSample * 8), colorType.rawValue, 0, 0, 0]
        return data
    }

    /// A minimal big-endian TIFF with one IFD entry, Orientation (EXIF 4.6.4, tag 0x0112, SHORT).
    private static func exifOrientation(_ orientation: Orientation) -> [UInt8] {
        [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,   // "MM", 42, IFD0 at 8
         0x00, 0x01,                                       // one entry
         0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01,   // tag 0x0112, SHORT, count 1
         0x00, orientation.rawValue, 0x00, 0x00,           // value
         0x00, 0x00, 0x00, 0x00]                           // no next IFD
    }

    /// Every row with its filter-type byte in front (PNG 7.3).
    private func filterRows(_ image: Image) -> [UInt8] {
        let rowBytes = image.bytesPerRow
        let stride = image.format.bytesPerPixel
        var output = [UInt8](repeating: 0, count: (rowBytes + 1) * image.height)
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        var candidates = [UInt8](repeating: 0, count: rowBytes * FilterType.allCases.count)
        image.pixels.withUnsafeBufferPointer { pixels in
            zeros.withUnsafeBufferPointer { zeroRow in
                output.withUnsafeMutableBufferPointer { out in
                    candidates.withUnsafeMutableBufferPointer { scratch in
                        guard let base = pixels.baseAddress, let zero = zeroRow.baseAddress,
                              let target = out.baseAddress, let trial = scratch.baseAddress else { return }
                        for y in 0..<image.height {
                            let row = base + y * rowBytes
                            let prior = y == 0 ? zero : row - rowBytes
                            let line = target + y * (rowBytes + 1)
                            if let type = fixedFilter {
                                line[0] = type.rawValue
                                RowFilter.apply(type, row: row, prior: prior, output: line + 1, count: rowBytes, stride: stride)
                            } else {
                                let type = chooseFilter(row: row, prior: prior, scratch: trial, count: rowBytes, stride: stride)
                                line[0] = type.rawValue
                                (line + 1).update(from: trial + Int(type.rawValue) * rowBytes, count: rowBytes)
                            }
                        }
                    }
                }
            }
        }
        return output
    }

    /// The filter for every row, or nil for a per-row choice.
    private var fixedFilter: FilterType? {
        switch filterStrategy {
        case .none: return FilterType.none
        case .fixed(let raw): return FilterType(rawValue: raw) ?? FilterType.none
        case .adaptive: return nil
        }
    }

    /// Tries every filter into `scratch` (one row each, in type order) and returns the one with the lowest cost.
    private func chooseFilter(row: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>, scratch: UnsafeMutablePointer<UInt8>,
                              count: Int, stride: Int) -> FilterType {
        var best = FilterType.none, bestCost = Int.max
        for type in FilterType.allCases {
            let trial = scratch + Int(type.rawValue) * count
            RowFilter.apply(type, row: row, prior: prior, output: trial, count: count, stride: stride)
            let cost = RowFilter.cost(trial, count: count)
            if cost < bestCost { best = type; bestCost = cost }
        }
        return best
    }
}
