/// One component of a scan and the entropy tables it uses (T.81 B.2.3).
struct ScanComponent: Sendable, Hashable {
    /// Index of the component in the frame header.
    var frameIndex: Int
    /// DC Huffman table selector Tdj as written (0...15); only 0...3 exist, which is checked when
    /// a scan uses the table (libjpeg ignores the selectors a scan does not use, e.g. in a DC
    /// refinement scan).
    var dcTable: Int
    /// AC Huffman table selector Taj as written (0...15), checked like ``dcTable``.
    var acTable: Int
}

/// The SOS segment (T.81 B.2.3).
struct ScanHeader: Sendable, Hashable {
    /// Components in the order their blocks appear in each MCU.
    var components: [ScanComponent]
    /// Start of spectral selection Ss.
    var spectralStart: Int
    /// End of spectral selection Se.
    var spectralEnd: Int
    /// Successive approximation bit position high Ah.
    var approximationHigh: Int
    /// Successive approximation bit position low Al.
    var approximationLow: Int

    /// Whether this scan holds a single component (non-interleaved: one block per MCU).
    var isInterleaved: Bool { components.count > 1 }

    /// Whether Ss, Se, Ah, Al have the values a sequential scan must have (0, 63, 0, 0).
    var hasSequentialParameters: Bool {
        spectralStart == 0 && spectralEnd == 63 && approximationHigh == 0 && approximationLow == 0
    }

    /// Parses the payload of an SOS segment; component selectors are matched to `frame`.
    static func parse(_ reader: inout SegmentReader, frame: FrameHeader) throws -> ScanHeader {
        let count = Int(try reader.u8())
        guard (1...4).contains(count), reader.remaining == 2 * count + 3 else {
            throw reader.invalid("declares \(count) components with \(reader.remaining) bytes left; 1...4 components and 2 bytes each + 3 are required")
        }
        var components: [ScanComponent] = []
        for _ in 0..<count {
            let id = try reader.u8()
            let tables = try reader.u8()
            // The first frame component with this id not already in the scan (as libjpeg matches them).
            guard let index = frame.components.indices.first(where: { index in
                frame.components[index].id == id && !components.contains { $0.frameIndex == index }
            }) else {
                throw reader.invalid("selects component \(id), which the frame does not declare (or the scan lists twice)")
            }
            components.append(ScanComponent(frameIndex: index, dcTable: Int(tables >> 4), acTable: Int(tables & 15)))
        }
        let ss = Int(try reader.u8())
        let se = Int(try reader.u8())
        let a = try reader.u8()
        return ScanHeader(components: components, spectralStart: ss, spectralEnd: se,
                          approximationHigh: Int(a >> 4), approximationLow: Int(a & 15))
    }
}
