/// The frame header at the start of the first partition (RFC 6386 sections 9.2–9.11 and 19.2):
/// segmentation, loop filter, partition count, quantisers, coefficient probabilities, skip
/// probability. Key frames only (WebP has no others).
struct VP8FrameHeader {
    /// Section 9.3: segment-based adjustments.
    struct Segmentation {
        var enabled = false
        var updateMap = false
        /// Values are absolute (true) or deltas from the frame's (false).
        var absoluteValues = true
        var quantizer = [Int](repeating: 0, count: 4)
        var filterLevel = [Int](repeating: 0, count: 4)
        /// Tree probabilities of the per-macroblock segment id.
        var treeProbabilities: [Int] = [255, 255, 255]
    }

    /// Section 9.6: loop filter type and strength.
    struct LoopFilter {
        var simple = false
        var level = 0
        var sharpness = 0
        var useDeltas = false
        var referenceDeltas = [Int](repeating: 0, count: 4)
        var modeDeltas = [Int](repeating: 0, count: 4)
    }

    var segmentation = Segmentation()
    var filter = LoopFilter()
    /// Number of DCT token partitions: 1, 2, 4 or 8.
    var partitionCount = 1
    /// Dequantisation factors per segment.
    var quantizers: [VP8Quantizer] = []
    /// Coefficient probabilities, indexed as ``VP8Tables/defaultCoefficientProbabilities``.
    var coefficientProbabilities = VP8Tables.defaultCoefficientProbabilities
    /// Probability that a macroblock has no non-zero coefficient, if the flag is coded.
    var skipProbability: Int?

    /// Reads the header from the first partition (libwebp's `VP8GetHeaders` order).
    static func read(_ reader: inout VP8BoolDecoder, _ data: UnsafePointer<UInt8>, _ received: Int) -> VP8FrameHeader {
        var header = VP8FrameHeader()
        _ = reader.readBool(128, data, received)  // colour space (section 9.2), unused
        _ = reader.readBool(128, data, received)  // clamping type, decoders always clamp
        var segmentation = Segmentation()
        segmentation.enabled = reader.readBool(128, data, received)
        if segmentation.enabled {
            segmentation.updateMap = reader.readBool(128, data, received)
            if reader.readBool(128, data, received) {  // update segment feature data
                segmentation.absoluteValues = reader.readBool(128, data, received)
                for s in 0..<4 { segmentation.quantizer[s] = reader.readOptionalSigned(7, data, received) }
                for s in 0..<4 { segmentation.filterLevel[s] = reader.readOptionalSigned(6, data, received) }
            }
            if segmentation.updateMap {
                for i in 0..<3 {
                    segmentation.treeProbabilities[i] = reader.readBool(128, data, received) ? reader.readLiteral(8, data, received) : 255
                }
            }
        }
        header.segmentation = segmentation

        var filter = LoopFilter()
        filter.simple = reader.readBool(128, data, received)
        filter.level = reader.readLiteral(6, data, received)
        filter.sharpness = reader.readLiteral(3, data, received)
        filter.useDeltas = reader.readBool(128, data, received)
        if filter.useDeltas, reader.readBool(128, data, received) {
            for i in 0..<4 where reader.readBool(128, data, received) {
                filter.referenceDeltas[i] = reader.readSignedLiteral(6, data, received)
            }
            for i in 0..<4 where reader.readBool(128, data, received) {
                filter.modeDeltas[i] = reader.readSignedLiteral(6, data, received)
            }
        }
        header.filter = filter
        header.partitionCount = 1 << reader.readLiteral(2, data, received)

        // Section 9.6: base quantiser index and deltas.
        let base = reader.readLiteral(7, data, received)
        let y1DC = reader.readOptionalSigned(4, data, received)
        let y2DC = reader.readOptionalSigned(4, data, received)
        let y2AC = reader.readOptionalSigned(4, data, received)
        let uvDC = reader.readOptionalSigned(4, data, received)
        let uvAC = reader.readOptionalSigned(4, data, received)
        for s in 0..<4 {
            var q = base
            if segmentation.enabled {
                q = segmentation.quantizer[s] + (segmentation.absoluteValues ? 0 : base)
            } else if s > 0 {
                header.quantizers.append(header.quantizers[0])
                continue
            }
            header.quantizers.append(VP8Quantizer(index: q, y1DC: y1DC, y2DC: y2DC, y2AC: y2AC, uvDC: uvDC, uvAC: uvAC))
        }

        _ = reader.readBool(128, data, received)  // refresh_entropy_probs: meaningless for one frame
        // Section 13.4: coefficient probability updates.
        for i in 0..<header.coefficientProbabilities.count
        where reader.readBool(Int(VP8Tables.coefficientUpdateProbabilities[i]), data, received) {
            header.coefficientProbabilities[i] = UInt8(reader.readLiteral(8, data, received))
        }
        if reader.readBool(128, data, received) { header.skipProbability = reader.readLiteral(8, data, received) }
        return header
    }
}

/// Dequantisation factors of one segment (RFC 6386 section 14.1, with libwebp's rounding of
/// the Y2 AC factor: `x * 155 / 100` computed as `(x * 101581) >> 16`, at least 8).
struct VP8Quantizer {
    /// [DC, AC] for luma, luma DC (Y2) and chroma blocks.
    let y1: (dc: Int32, ac: Int32)
    let y2: (dc: Int32, ac: Int32)
    let uv: (dc: Int32, ac: Int32)

    init(index q: Int, y1DC: Int, y2DC: Int, y2AC: Int, uvDC: Int, uvAC: Int) {
        func clip(_ value: Int, _ limit: Int) -> Int { min(max(value, 0), limit) }
        let dc = VP8Tables.dcQuantizer, ac = VP8Tables.acQuantizer
        y1 = (dc[clip(q + y1DC, 127)], ac[clip(q, 127)])
        y2 = (dc[clip(q + y2DC, 127)] * 2, max((ac[clip(q + y2AC, 127)] * 101_581) >> 16, 8))
        uv = (dc[clip(q + uvDC, 117)], ac[clip(q + uvAC, 127)])
    }
}
