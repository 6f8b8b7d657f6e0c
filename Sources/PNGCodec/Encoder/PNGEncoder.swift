import Deflate
import ImageCore

/// Writes PNG files (PNG 2nd edition) from an ``Image``: every colour type and bit depth, Adam7
/// on request, with a per-row filter choice and DEFLATE compression.
///
/// The file decodes back to the same ``Image`` (same ``PixelFormat``, same pixels), in the
/// smallest storage that allows it: gray8 whose samples fit 1, 2 or 4 bits is stored at that
/// depth, RGB and RGBA images with at most 256 colours as a palette (with tRNS for RGBA), and
/// 16-bit images stay 16-bit. `cmyk8` images are written as RGB (converted the way
/// `Image.converted(to:)` does). An ICC profile is stored in iCCP and an orientation other than
/// `.up` in an eXIf chunk.
///
/// ```swift
/// let png = PNGEncoder().encode(image)                 // level 6: about libpng's size, faster
/// let quick = PNGEncoder.fast.encode(image)            // level 1: several times faster, a little larger
/// let small = PNGEncoder(compressionLevel: 9, interlaced: true).encode(image)
/// ```
public struct PNGEncoder: Sendable {
    /// DEFLATE level, 0 (stored) ... 9 (smallest). Default 6. Level 1 is the fast mode: one
    /// hash probe per position instead of hash chains (see ``fast``).
    public var compressionLevel: Int
    /// How each row's filter is chosen. Default ``PNGFilterStrategy/adaptive``.
    public var filterStrategy: PNGFilterStrategy
    /// Write Adam7-interlaced rows (PNG 8.2), so a progressive reader shows the whole picture
    /// early. Default false: interlaced files are usually larger.
    public var interlaced: Bool
    /// Store the image in fewer bits when that loses nothing (palette, 1/2/4-bit gray).
    /// Default true; false always writes the image's own format.
    public var reducesColorType: Bool

    /// Makes an encoder.
    public init(compressionLevel: Int = 6, filterStrategy: PNGFilterStrategy = .adaptive,
                interlaced: Bool = false, reducesColorType: Bool = true) {
        self.compressionLevel = compressionLevel
        self.filterStrategy = filterStrategy
        self.interlaced = interlaced
        self.reducesColorType = reducesColorType
    }

    /// The fast mode: level 1, adaptive filters. Several times faster than the default for a
    /// few percent more bytes on photos (README, PNG).
    public static let fast = PNGEncoder(compressionLevel: 1)
    /// The smallest files this encoder makes: level 9, slower.
    public static let smallest = PNGEncoder(compressionLevel: 9)

    /// Largest IDAT data written: 1 MiB.
    static let maxIDATLength = 1 << 20

    /// The PNG file for `image`.
    ///
    /// - Precondition: `image.pixels.count == image.width * image.height * image.format.bytesPerPixel`
    ///   (``Image``'s invariant; the rows are read through pointers).
    public func encode(_ image: Image) -> [UInt8] {
        var file: [UInt8] = []
        encode(image) { (bytes) throws(Never) in file += bytes }
        return file
    }

    /// Writes the PNG file for `image` to `sink` piece by piece, in order, as it is made: the
    /// memory used besides the image is about 1 MiB of rows and 1 MiB of compressed data, never a
    /// second copy of the picture (``encode(_:)`` collects these pieces). Errors `sink` throws
    /// end the encoding and are rethrown.
    ///
    /// ```swift
    /// try PNGEncoder.fast.encode(image) { bytes in try handle.write(contentsOf: bytes) }
    /// ```
    ///
    /// - Precondition: as ``encode(_:)``.
    public func encode<E: Error>(_ image: Image, to sink: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        precondition(image.width >= 0 && image.height >= 0
                     && image.pixels.count == image.width * image.height * image.format.bytesPerPixel,
                     "PNGEncoder: pixels.count does not match width × height × bytesPerPixel")
        let source = image.format == .cmyk8 ? image.converted(to: .rgb8) : image
        let layout = PNGSampleLayout.choose(for: source, reduce: reducesColorType)
        try PNGChunkWriter.writeSignature(to: sink)
        try PNGChunkWriter.writeChunk(.IHDR, ihdr(for: source, layout: layout), to: sink)
        if let profile = source.iccProfile {
            // PNG 11.3.3.3: name, NUL, compression method 0, zlib data.
            try PNGChunkWriter.writeChunk(.iCCP, Array("ICC profile".utf8) + [0, 0] + Deflater.compress(profile, level: compressionLevel), to: sink)
        }
        if source.orientation != .up {
            try PNGChunkWriter.writeChunk(.eXIf, PNGEncoder.exifOrientation(source.orientation), to: sink)
        }
        if case .palette(let palette, _) = layout {
            try PNGChunkWriter.writeChunk(.PLTE, palette.plteData, to: sink)
            if let trns = palette.trnsData { try PNGChunkWriter.writeChunk(.tRNS, trns, to: sink) }
        }
        let deflater = StreamingDeflater(format: .zlib, level: compressionLevel, strategy: .filtered)
        // IDATs of at most 1 MiB, written as soon as that much is compressed: chunk lengths stay
        // far below 2^31 (PNG 5.3) and a streaming reader checks a CRC at least every MiB.
        func writeIDATs(_ all: Bool) throws(E) {
            try deflater.consumeOutput { (stream) throws(E) in
                var start = 0
                while stream.count - start >= PNGEncoder.maxIDATLength || (all && start < stream.count) {
                    let end = min(start + PNGEncoder.maxIDATLength, stream.count)
                    try PNGChunkWriter.writeChunk(.IDAT, UnsafeRawBufferPointer(rebasing: stream[start..<end]), to: sink)
                    start = end
                }
                return start
            }
        }
        try PNGScanlineFilter(strategy: effectiveStrategy(layout))
            .write(source, layout: layout, passes: interlaced ? Adam7Pass.adam7 : [.sequential], to: deflater) { () throws(E) in
                if deflater.outputCount >= PNGEncoder.maxIDATLength { try writeIDATs(false) }
            }
        deflater.finish()
        try writeIDATs(true)
        try PNGChunkWriter.writeChunk(.IEND, [], to: sink)
    }

    /// Palette and sub-byte gray rows are left unfiltered under `.adaptive`, as PNG 12.8
    /// advises (their bytes are indices or packed samples, not smooth values).
    private func effectiveStrategy(_ layout: PNGSampleLayout) -> PNGFilterStrategy {
        filterStrategy == .adaptive && (layout.bitDepth < 8 || layout.colorType == .palette) ? .none : filterStrategy
    }

    /// IHDR data: size, depth, colour type, methods 0, interlace method.
    private func ihdr(for image: Image, layout: PNGSampleLayout) -> [UInt8] {
        var data: [UInt8] = []
        for value in [UInt32(truncatingIfNeeded: image.width), UInt32(truncatingIfNeeded: image.height)] {
            data += (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * $0)) }
        }
        data += [UInt8(layout.bitDepth), layout.colorType.rawValue, 0, 0, interlaced ? 1 : 0]
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
}
