import ImageCore

/// A parsed fcTL chunk (APNG spec, "fcTL: The Frame Control Chunk"), 26 bytes:
///
/// ```
/// offset  0  sequence_number  4 bytes      offset 16  y_offset    4 bytes
///         4  width            4 bytes             20  delay_num   2 bytes
///         8  height           4 bytes             22  delay_den   2 bytes
///        12  x_offset         4 bytes             24  dispose_op  1 byte (0 none, 1 background, 2 previous)
///                                                 25  blend_op    1 byte (0 source, 1 over)
/// ```
struct FrameControl: Equatable {
    /// The chunk's place in the sequence shared by fcTL and fdAT chunks (from 0, no gaps).
    let sequenceNumber: UInt32
    /// The frame's rectangle; inside the canvas (checked by ``parse(_:chunk:canvasWidth:canvasHeight:)``).
    let region: FrameRegion
    /// Delay numerator.
    let delayNumerator: Int
    /// Delay denominator as stored (0 means 100: "hundredths of a second").
    let delayDenominator: Int
    /// `dispose_op`.
    let disposal: FrameDisposal
    /// `blend_op`.
    let blend: FrameBlend
    /// File offset of the chunk (its length field).
    let chunkOffset: Int

    /// fcTL data is exactly 26 bytes.
    static let length = 26

    /// How long the frame shows, in seconds: `delay_num / delay_den`, a denominator of 0 read as 100.
    var duration: Double { Double(delayNumerator) / Double(delayDenominator == 0 ? 100 : delayDenominator) }

    /// Parses and checks fcTL data: a width and height of at least 1, offsets and sizes within
    /// 31 bits, the region inside the canvas, known dispose and blend values. Each error carries
    /// the offset of the field that is wrong.
    static func parse(_ data: UnsafeRawBufferPointer, chunk: ChunkHeader, canvasWidth: Int, canvasHeight: Int) throws -> FrameControl {
        let at = chunk.dataOffset
        guard data.count == length else {
            throw ImageDecodingError(.invalidData, at: chunk.offset, "APNG fcTL is \(data.count) bytes long, expected \(length)")
        }
        let width = Int(readUInt32(data, 4)), height = Int(readUInt32(data, 8))
        let x = Int(readUInt32(data, 12)), y = Int(readUInt32(data, 16))
        for (value, name, field) in [(width, "width", 4), (height, "height", 8)] where value < 1 || value > ChunkHeader.maxLength {
            throw ImageDecodingError(.invalidData, at: at + field, "APNG fcTL declares frame \(name) \(value); it must be 1 ... 2^31-1")
        }
        // Each value is below 2^32, so the sums cannot overflow an Int.
        guard x + width <= canvasWidth else {
            throw ImageDecodingError(.invalidData, at: at + 12,
                                     "APNG frame x_offset \(x) + width \(width) reaches past the canvas width \(canvasWidth)")
        }
        guard y + height <= canvasHeight else {
            throw ImageDecodingError(.invalidData, at: at + 16,
                                     "APNG frame y_offset \(y) + height \(height) reaches past the canvas height \(canvasHeight)")
        }
        let disposal: FrameDisposal
        switch data[24] {
        case 0: disposal = .none
        case 1: disposal = .background
        case 2: disposal = .previous
        default:
            throw ImageDecodingError(.invalidData, at: at + 24, "APNG fcTL declares dispose_op \(data[24]); only 0, 1 and 2 exist")
        }
        let blend: FrameBlend
        switch data[25] {
        case 0: blend = .source
        case 1: blend = .over
        default:
            throw ImageDecodingError(.invalidData, at: at + 25, "APNG fcTL declares blend_op \(data[25]); only 0 and 1 exist")
        }
        return FrameControl(sequenceNumber: readUInt32(data, 0), region: FrameRegion(x: x, y: y, width: width, height: height),
                            delayNumerator: Int(readUInt16(data, 20)), delayDenominator: Int(readUInt16(data, 22)),
                            disposal: disposal, blend: blend, chunkOffset: chunk.offset)
    }
}
