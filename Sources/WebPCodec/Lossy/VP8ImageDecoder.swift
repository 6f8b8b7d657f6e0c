/// Decodes one VP8 key frame (RFC 6386) from a `VP8 ` chunk payload that arrives over time,
/// handing out finished RGBA rows (fancy upsampling, libwebp's YUV→RGB).
///
/// Incremental and O(n): payload bytes are kept (the token partitions follow each other in the
/// file, and a row reads from partition `row % count`). The first partition (modes and
/// header) is parsed once it has all arrived. A macroblock row is parsed only when its token
/// partition might hold it; if the bytes run out inside the row, the row's contexts are restored
/// and it is retried once its partition has twice as many bytes (or is complete), so retries
/// cost at most twice the row's bytes. Parsed rows are reconstructed, loop-filtered and
/// converted at once; RGB rows are final 8 rows behind the filtered luma (the next row's filter
/// and the chroma upsampling reach that far).
final class VP8ImageDecoder {
    let width: Int
    let height: Int
    let macroblocksWide: Int
    let macroblocksHigh: Int
    /// Receives each finished row once, in order: (y, its luma, and its chroma upsampled to
    /// full width), `width` samples each.
    var rowSink: (Int, UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>) -> Void = { _, _, _, _ in }
    /// Rows handed to ``rowSink``.
    private(set) var emittedRows = 0
    /// Where in the payload (from its first byte, the frame tag) the last error was found.
    private(set) var errorPosition = 0
    /// Partition bytes the boolean decoders have read, counting every retried row again
    /// (the O(n) proof: at most about twice the data).
    private(set) var bytesExamined = 0

    private let tag: VP8FrameTag
    private let payloadSize: Int
    private var data: [UInt8] = []

    private enum Stage {
        case firstPartition
        case partitionSizes(VP8FrameHeader, modeReader: VP8BoolDecoder)
        case rows(RowState)
        case complete
    }
    private var stage = Stage.firstPartition

    /// Everything needed while rows are decoded.
    ///
    /// `@exclusivity(unchecked)`: only the decoder's own methods touch this state, one call at a
    /// time, and none hands out overlapping accesses; the runtime's dynamic exclusivity checks
    /// (`swift_beginAccess` on every macroblock's field access) cost 7 % of a lossy decode.
    private final class RowState {
        let header: VP8FrameHeader
        let residuals: VP8ResidualReader
        @exclusivity(unchecked) var modeReader: VP8BoolDecoder
        @exclusivity(unchecked) var tokenReaders: [VP8BoolDecoder]
        @exclusivity(unchecked) var contexts: VP8RowContexts
        @exclusivity(unchecked) var row: VP8MacroblockRow
        @exclusivity(unchecked) var nextRow = 0
        /// Bytes received when the current row last ran out of data (0: not tried yet).
        @exclusivity(unchecked) var starvedAt = 0
        let strengths: [[VP8LoopFilter.Strength]]  // [segment][is 4×4]
        /// The 16 Y2 coefficients of the macroblock being parsed.
        let dcScratch = UnsafeMutablePointer<Int16>.allocate(capacity: 16)
        /// 384 dequantised coefficients per macroblock of the row: 16 luma blocks, 4 U, 4 V, 16 each.
        let coefficients: UnsafeMutablePointer<Int16>
        /// ``VP8Tables/keyFrameSubblockModeProbabilities`` in memory owned here (no array access
        /// in the mode loop).
        let subblockModeProbabilities: UnsafeMutablePointer<UInt8>
        deinit {
            dcScratch.deallocate()
            coefficients.deallocate()
            subblockModeProbabilities.deallocate()
        }
        let filterType: Int  // 0 none, 1 simple, 2 normal

        init(header: VP8FrameHeader, modeReader: VP8BoolDecoder, tokenReaders: [VP8BoolDecoder], macroblocks: Int) {
            self.header = header
            residuals = VP8ResidualReader(probabilities: header.coefficientProbabilities)
            self.modeReader = modeReader
            self.tokenReaders = tokenReaders
            contexts = VP8RowContexts(macroblocks: macroblocks)
            row = VP8MacroblockRow(macroblocks: macroblocks)
            coefficients = .allocate(capacity: macroblocks * 384)
            coefficients.initialize(repeating: 0, count: macroblocks * 384)
            let table = VP8Tables.keyFrameSubblockModeProbabilities
            subblockModeProbabilities = .allocate(capacity: table.count)
            subblockModeProbabilities.initialize(from: table, count: table.count)
            filterType = header.filter.level == 0 ? 0 : header.filter.simple ? 1 : 2
            strengths = VP8ImageDecoder.filterStrengths(header)
        }
    }

    private let planes: VP8Planes
    private var lumaStride: Int { planes.lumaStride }
    private var chromaStride: Int { planes.chromaStride }

    init(tag: VP8FrameTag, payloadSize: Int) {
        self.tag = tag
        self.payloadSize = payloadSize
        width = tag.width
        height = tag.height
        macroblocksWide = (width + 15) >> 4
        macroblocksHigh = (height + 15) >> 4
        planes = VP8Planes(macroblocksWide: macroblocksWide, macroblocksHigh: macroblocksHigh)
    }

    var isComplete: Bool {
        if case .complete = stage { return true }
        return false
    }

    /// Bytes of the payload received (the 10-byte frame tag included).
    var received: Int { data.count + VP8FrameTag.byteCount }

    /// Takes the next payload bytes (after the 10-byte frame tag) and decodes what they allow.
    /// `force` retries a row that ran out of data even if its partition has not doubled since
    /// (the input has ended: whatever the bytes allow must be decoded, as in one piece).
    func run(window: UnsafeRawBufferPointer, force: Bool = false) throws(VP8LFailure) {
        data.append(contentsOf: window)
        while true {
            switch stage {
            case .complete:
                return
            case .firstPartition:
                let size = tag.firstPartitionSize
                guard size <= payloadSize - VP8FrameTag.byteCount else {
                    throw .invalid("VP8 first partition of \(size) bytes runs past the chunk of \(payloadSize)")
                }
                guard data.count >= size else { return }
                var reader = VP8BoolDecoder(start: 0, end: size)
                let header = data.withUnsafeBufferPointer { VP8FrameHeader.read(&reader, $0.baseAddress!, data.count) }
                bytesExamined += reader.position
                guard !reader.endOfData else {
                    errorPosition = VP8FrameTag.byteCount + size
                    throw .invalid("VP8 frame header runs past the first partition")
                }
                stage = .partitionSizes(header, modeReader: reader)
            case .partitionSizes(let header, let modeReader):
                let tableStart = tag.firstPartitionSize
                let tableSize = 3 * (header.partitionCount - 1)
                let dataEnd = payloadSize - VP8FrameTag.byteCount
                guard tableStart + tableSize < dataEnd else {
                    errorPosition = VP8FrameTag.byteCount + tableStart
                    throw .invalid("VP8 data ends before its \(header.partitionCount) token partitions")
                }
                guard data.count >= tableStart + tableSize else { return }
                // RFC 6386 9.5: 3-byte sizes of all partitions but the last; libwebp clamps them to the data.
                var readers: [VP8BoolDecoder] = []
                var start = tableStart + tableSize
                for p in 0..<(header.partitionCount - 1) {
                    let at = tableStart + 3 * p
                    let size = min(Int(data[at]) | Int(data[at + 1]) << 8 | Int(data[at + 2]) << 16, dataEnd - start)
                    readers.append(VP8BoolDecoder(start: start, end: start + size))
                    start += size
                }
                guard start < dataEnd else {
                    errorPosition = VP8FrameTag.byteCount + tableStart
                    throw .invalid("VP8 partition sizes leave no data for the last partition")
                }
                readers.append(VP8BoolDecoder(start: start, end: dataEnd))
                stage = .rows(RowState(header: header, modeReader: modeReader, tokenReaders: readers, macroblocks: macroblocksWide))
            case .rows(let state):
                while state.nextRow < macroblocksHigh {
                    let partition = state.nextRow % state.tokenReaders.count
                    let reader = state.tokenReaders[partition]
                    let available = data.count
                    if available < reader.end {
                        // Not all of the partition is here: try only once there is something new
                        // and, after a failed try, twice as much as then.
                        guard available > reader.position else { return }
                        if !force, state.starvedAt > 0, available - reader.position < 2 * (state.starvedAt - reader.position) { return }
                        if force, state.starvedAt == available { return }
                    }
                    guard try parseRow(state) else {
                        state.starvedAt = available
                        return
                    }
                    state.starvedAt = 0
                    reconstructRow(state, y: state.nextRow)
                    if state.filterType > 0 { filterRow(state, y: state.nextRow) }
                    let isLast = state.nextRow == macroblocksHigh - 1
                    emitRows(through: isLast ? height : min(height, 16 * (state.nextRow + 1) - 8))
                    state.nextRow += 1
                }
                stage = .complete
            }
        }
    }

    // MARK: - Parsing

    /// Parses modes and residuals of row `state.nextRow`; false (with every context restored)
    /// if its token partition ran out of received bytes.
    private func parseRow(_ state: RowState) throws(VP8LFailure) -> Bool {
        let saved = (state.modeReader, state.tokenReaders, state.contexts)
        let partition = state.nextRow % state.tokenReaders.count
        let received = data.count
        let header = state.header
        var ok = true
        var failure: VP8LFailure?
        var tokenBytesRead = 0
        data.withUnsafeBufferPointer { buffer in
            guard let bytes = buffer.baseAddress else { ok = false; return }
            var modes = state.modeReader
            var leftModes: [UInt8] = [0, 0, 0, 0]
            for x in 0..<macroblocksWide { parseModes(&modes, bytes, received, state, x: x, leftModes: &leftModes) }
            state.modeReader = modes
            if modes.endOfData { errorPosition = VP8FrameTag.byteCount + modes.end; failure = .invalid("VP8 first partition ends before the modes of row \(state.nextRow)"); return }

            var tokens = state.tokenReaders[partition]
            defer { tokenBytesRead = tokens.position - saved.1[partition].position }
            var leftNonZero: UInt8 = 0
            var leftNonZeroDC: UInt8 = 0
            for x in 0..<macroblocksWide {
                let skipFlag = header.skipProbability != nil && state.row.skipped[x]
                if skipFlag {
                    state.contexts.nonZeroAbove[x] = 0
                    leftNonZero = 0
                    if !state.row.isSubblockPredicted[x] {
                        state.contexts.nonZeroDCAbove[x] = 0
                        leftNonZeroDC = 0
                    }
                    state.row.nonZeroLuma[x] = 0
                    state.row.nonZeroChroma[x] = 0
                    (state.coefficients + x * 384).update(repeating: 0, count: 384)
                } else {
                    let empty = parseResiduals(&tokens, bytes, received, state, x: x,
                                               leftNonZero: &leftNonZero, leftNonZeroDC: &leftNonZeroDC)
                    state.row.skipped[x] = empty
                }
                if tokens.starved { ok = false; return }
                if tokens.endOfData {
                    errorPosition = VP8FrameTag.byteCount + tokens.end
                    failure = .invalid("VP8 token partition \(partition) ends inside macroblock \(x) of row \(state.nextRow)")
                    return
                }
            }
            state.tokenReaders[partition] = tokens
        }
        bytesExamined += state.modeReader.position - saved.0.position + tokenBytesRead
        if let failure { throw failure }
        if !ok {
            (state.modeReader, state.tokenReaders, state.contexts) = saved
        }
        return ok
    }

    /// Section 19.3 / libwebp `ParseIntraMode`: segment, skip flag, luma and chroma modes.
    ///
    /// On a local copy of the decoder, written back once, and with no nested function capturing
    /// it: its fields then stay in registers (see ``VP8ResidualReader/readMacroblock``).
    private func parseModes(_ modeReader: inout VP8BoolDecoder, _ bytes: UnsafePointer<UInt8>, _ received: Int,
                            _ state: RowState, x: Int, leftModes: inout [UInt8]) {
        let header = state.header
        var reader = modeReader
        defer { modeReader = reader }
        if header.segmentation.updateMap {
            let probs = header.segmentation.treeProbabilities
            state.row.segments[x] = !reader.readBool(probs[0], bytes, received)
                ? (reader.readBool(probs[1], bytes, received) ? 1 : 0)
                : (reader.readBool(probs[2], bytes, received) ? 3 : 2)
        } else {
            state.row.segments[x] = 0
        }
        if let skipProbability = header.skipProbability {
            state.row.skipped[x] = reader.readBool(skipProbability, bytes, received)
        } else {
            state.row.skipped[x] = false
        }
        let isSubblock = !reader.readBool(145, bytes, received)
        state.row.isSubblockPredicted[x] = isSubblock
        if !isSubblock {
            // 16×16 mode tree; its sub-block context value is the matching 4×4 mode.
            let mode: UInt8 = reader.readBool(156, bytes, received) ? (reader.readBool(128, bytes, received) ? 1 : 3)
                : (reader.readBool(163, bytes, received) ? 2 : 0)
            state.row.lumaModes[x * 16] = mode
            for k in 0..<4 {
                state.contexts.modesAbove[x * 4 + k] = mode
                leftModes[k] = mode
            }
        } else {
            do {
                let table = state.subblockModeProbabilities
                for by in 0..<4 {
                    var left = Int(leftModes[by])
                    for bx in 0..<4 {
                        let above = Int(state.contexts.modesAbove[x * 4 + bx])
                        // Contexts are modes 0–9: p + 8 stays inside the 10 × 10 × 9 table.
                        let p = table + (above &* 10 &+ left) &* 9
                        let mode: Int
                        if !reader.readBool(Int(p[0]), bytes, received) { mode = 0 }
                        else if !reader.readBool(Int(p[1]), bytes, received) { mode = 1 }
                        else if !reader.readBool(Int(p[2]), bytes, received) { mode = 2 }
                        else if !reader.readBool(Int(p[3]), bytes, received) {
                            mode = !reader.readBool(Int(p[4]), bytes, received) ? 3
                                : (!reader.readBool(Int(p[5]), bytes, received) ? 4 : 5)
                        } else {
                            mode = !reader.readBool(Int(p[6]), bytes, received) ? 6
                                : (!reader.readBool(Int(p[7]), bytes, received) ? 7
                                    : (!reader.readBool(Int(p[8]), bytes, received) ? 8 : 9))
                        }
                        state.contexts.modesAbove[x * 4 + bx] = UInt8(mode)
                        state.row.lumaModes[x * 16 + by * 4 + bx] = UInt8(mode)
                        left = mode
                    }
                    leftModes[by] = UInt8(left)
                }
            }
        }
        state.row.chromaModes[x] = !reader.readBool(142, bytes, received) ? 0
            : (!reader.readBool(114, bytes, received) ? 2 : (reader.readBool(183, bytes, received) ? 1 : 3))
    }

    /// libwebp `ParseResiduals`; returns whether the macroblock has no coefficient at all.
    private func parseResiduals(_ reader: inout VP8BoolDecoder, _ bytes: UnsafePointer<UInt8>, _ received: Int,
                                _ state: RowState, x: Int, leftNonZero: inout UInt8, leftNonZeroDC: inout UInt8) -> Bool {
        var context = VP8ResidualReader.NonZeroContext(above: state.contexts.nonZeroAbove[x], left: leftNonZero,
                                                       aboveDC: state.contexts.nonZeroDCAbove[x], leftDC: leftNonZeroDC)
        let codes = state.residuals.readMacroblock(
            &reader, bytes, received, quantizer: state.header.quantizers[Int(state.row.segments[x])],
            hasY2: !state.row.isSubblockPredicted[x], context: &context,
            coefficients: state.coefficients + x * 384, dcScratch: state.dcScratch)
        state.contexts.nonZeroAbove[x] = context.above
        state.contexts.nonZeroDCAbove[x] = context.aboveDC
        leftNonZero = context.left
        leftNonZeroDC = context.leftDC
        state.row.nonZeroLuma[x] = UInt32(truncatingIfNeeded: codes >> 32)
        state.row.nonZeroChroma[x] = UInt32(truncatingIfNeeded: codes)
        return codes == 0
    }

    // MARK: - Reconstruction

    /// Offsets of the 16 luma sub-blocks in the work area (libwebp `kScan`).
    private static let subblockOffsets: [Int] = (0..<16).map { ($0 & 3) * 4 + ($0 >> 2) * 4 * 32 }

    /// Predicts and adds the residuals of every macroblock of row `y` (libwebp `ReconstructRow`).
    private func reconstructRow(_ state: RowState, y mbY: Int) {
        let s = VP8Planes.workStride
        let o = VP8Planes.workOrigin
        let topLuma = planes.topY, topU = planes.topU, topV = planes.topV
        let lumaPlane = planes.y, chromaU = planes.u, chromaV = planes.v
        let lumaStride = self.lumaStride, chromaStride = self.chromaStride
        do {
            let yDst = planes.workY + o, uDst = planes.workU + o, vDst = planes.workV + o
            // Left edge of the first macroblock: 129; top edge of the first row: 127.
            for j in 0..<16 { yDst[j * s - 1] = 129 }
            for j in 0..<8 { uDst[j * s - 1] = 129; vDst[j * s - 1] = 129 }
            if mbY > 0 {
                yDst[-1 - s] = 129; uDst[-1 - s] = 129; vDst[-1 - s] = 129
            } else {
                (yDst - s - 1).update(repeating: 127, count: 16 + 4 + 1)
                (uDst - s - 1).update(repeating: 127, count: 8 + 1)
                (vDst - s - 1).update(repeating: 127, count: 8 + 1)
            }
            for mbX in 0..<macroblocksWide {
                if mbX > 0 {
                    // The previous macroblock's right columns become this one's left (with the
                    // corner), four bytes per row as one word.
                    @inline(__always) func copyWord(_ base: UnsafeMutablePointer<UInt8>, from: Int, to: Int) {
                        UnsafeMutableRawPointer(base + to).storeBytes(
                            of: UnsafeRawPointer(base + from).loadUnaligned(as: UInt32.self), as: UInt32.self)
                    }
                    for j in -1..<16 { copyWord(yDst, from: j &* s &+ 12, to: j &* s &- 4) }
                    for j in -1..<8 {
                        copyWord(uDst, from: j &* s &+ 4, to: j &* s &- 4)
                        copyWord(vDst, from: j &* s &+ 4, to: j &* s &- 4)
                    }
                }
                if mbY > 0 {
                    VP8IntraPredictor.copyRow(yDst - s, from: topLuma + mbX * 16, count: 16)
                    VP8IntraPredictor.copyRow(uDst - s, from: topU + mbX * 8, count: 8)
                    VP8IntraPredictor.copyRow(vDst - s, from: topV + mbX * 8, count: 8)
                }
                let coefficients = state.coefficients + mbX * 384
                let nonZeroLuma = state.row.nonZeroLuma[mbX]
                if state.row.isSubblockPredicted[mbX] {
                    let topRight = yDst - s + 16
                    if mbY > 0 {
                        if mbX >= macroblocksWide - 1 {
                            topRight.update(repeating: topLuma[mbX * 16 + 15], count: 4)
                        } else {
                            for k in 0..<4 { topRight[k] = topLuma[(mbX + 1) * 16 + k] }
                        }
                    }
                    // Sub-blocks on the right column below the first use the macroblock's top-right too.
                    for r in 1...3 { for k in 0..<4 { topRight[4 * r * s + k] = topRight[k] } }
                    for n in 0..<16 {
                        let dst = yDst + Self.subblockOffsets[n]
                        VP8IntraPredictor.predictSubblock(mode: Int(state.row.lumaModes[mbX * 16 + n]), dst: dst)
                        VP8Transform.add(kind: nonZeroLuma >> (30 - 2 * UInt32(n)) & 3, coefficients + n * 16, dst, stride: s)
                    }
                } else {
                    VP8IntraPredictor.predictBlock(mode: Int(state.row.lumaModes[mbX * 16]), size: 16, dst: yDst,
                                                   hasTop: mbY > 0, hasLeft: mbX > 0)
                    for n in 0..<16 {
                        VP8Transform.add(kind: nonZeroLuma >> (30 - 2 * UInt32(n)) & 3, coefficients + n * 16,
                                         yDst + Self.subblockOffsets[n], stride: s)
                    }
                }
                let chromaMode = Int(state.row.chromaModes[mbX])
                VP8IntraPredictor.predictBlock(mode: chromaMode, size: 8, dst: uDst, hasTop: mbY > 0, hasLeft: mbX > 0)
                VP8IntraPredictor.predictBlock(mode: chromaMode, size: 8, dst: vDst, hasTop: mbY > 0, hasLeft: mbX > 0)
                let nonZeroChroma = state.row.nonZeroChroma[mbX]
                // Each block by its own kind (libwebp's DoUVTransform picks one transform for all four;
                // the exact shortcuts give the same pixels). Block n's kind is at bits 6 − 2n (U), 14 − 2n (V).
                if nonZeroChroma != 0 {
                    for n in 0..<4 {
                        let offset = (n & 1) * 4 + (n >> 1) * 4 * s, shift = 6 - 2 * UInt32(n)
                        VP8Transform.add(kind: nonZeroChroma >> shift & 3, coefficients + 256 + n * 16, uDst + offset, stride: s)
                        VP8Transform.add(kind: nonZeroChroma >> (shift + 8) & 3, coefficients + 320 + n * 16, vDst + offset, stride: s)
                    }
                }
                // Unfiltered bottom rows for the next macroblock row's prediction.
                if mbY < macroblocksHigh - 1 {
                    VP8IntraPredictor.copyRow(topLuma + mbX * 16, from: yDst + 15 * s, count: 16)
                    VP8IntraPredictor.copyRow(topU + mbX * 8, from: uDst + 7 * s, count: 8)
                    VP8IntraPredictor.copyRow(topV + mbX * 8, from: vDst + 7 * s, count: 8)
                }
                // Into the planes.
                let lumaBase = mbY * 16 * lumaStride + mbX * 16
                for j in 0..<16 { VP8IntraPredictor.copyRow(lumaPlane + lumaBase + j * lumaStride, from: yDst + j * s, count: 16) }
                let chromaBase = mbY * 8 * chromaStride + mbX * 8
                for j in 0..<8 {
                    VP8IntraPredictor.copyRow(chromaU + chromaBase + j * chromaStride, from: uDst + j * s, count: 8)
                    VP8IntraPredictor.copyRow(chromaV + chromaBase + j * chromaStride, from: vDst + j * s, count: 8)
                }
            }
        }
    }

    // MARK: - Loop filter

    /// libwebp `PrecomputeFilterStrengths`: per segment and prediction kind.
    static func filterStrengths(_ header: VP8FrameHeader) -> [[VP8LoopFilter.Strength]] {
        let filter = header.filter
        return (0..<4).map { segment in
            var baseLevel = filter.level
            if header.segmentation.enabled {
                baseLevel = header.segmentation.filterLevel[segment]
                if !header.segmentation.absoluteValues { baseLevel += filter.level }
            }
            return (0...1).map { isSubblock in
                var level = baseLevel
                if filter.useDeltas {
                    level += filter.referenceDeltas[0]
                    if isSubblock == 1 { level += filter.modeDeltas[0] }
                }
                level = min(max(level, 0), 63)
                var strength = VP8LoopFilter.Strength()
                strength.filterInner = isSubblock == 1
                guard level > 0 else { return strength }
                var interior = level
                if filter.sharpness > 0 {
                    interior >>= filter.sharpness > 4 ? 2 : 1
                    interior = min(interior, 9 - filter.sharpness)
                }
                interior = max(interior, 1)
                strength.interiorLimit = interior
                strength.limit = 2 * level + interior
                strength.hevThreshold = level >= 40 ? 2 : level >= 15 ? 1 : 0
                return strength
            }
        }
    }

    /// Filters every macroblock of row `y` in order.
    private func filterRow(_ state: RowState, y mbY: Int) {
        do {
            for mbX in 0..<macroblocksWide {
                let isSubblock = state.row.isSubblockPredicted[mbX]
                var strength = state.strengths[Int(state.row.segments[mbX])][isSubblock ? 1 : 0]
                if !state.row.skipped[mbX] { strength.filterInner = true }
                VP8LoopFilter.filterMacroblockLanes(
                    y: planes.y + mbY * 16 * lumaStride + mbX * 16, yStride: lumaStride,
                    u: planes.u + mbY * 8 * chromaStride + mbX * 8,
                    v: planes.v + mbY * 8 * chromaStride + mbX * 8, uvStride: chromaStride,
                    strength: strength, simple: state.filterType == 1, hasLeft: mbX > 0, hasTop: mbY > 0)
            }
        }
    }

    // MARK: - Output

    /// Upsamples the chroma of rows `emittedRows ..< end` and hands them out: rows 2k − 1 and 2k
    /// together when both are in the range (they mix the same two chroma rows), others alone.
    private func emitRows(through end: Int) {
        guard end > emittedRows else { return }
        let chromaHeight = (height + 1) >> 1
        let yPlane = planes.y, uPlane = planes.u, vPlane = planes.v
        let chromaStride = self.chromaStride, lumaStride = self.lumaStride, width = self.width
        let u = planes.upsampled, v = u + width, uLower = v + width, vLower = uLower + width
        var r = emittedRows
        while r < end {
            if r & 1 == 1, r + 1 < end {
                // Rows r and r + 1 < height: chroma rows (r − 1) / 2 and (r + 1) / 2 < chromaHeight.
                let top = (r - 1) >> 1, bottom = (r + 1) >> 1
                VP8YUVConverter.upsamplePair(top: uPlane + top * chromaStride, bottom: uPlane + bottom * chromaStride,
                                             width: width, upper: u, lower: uLower)
                VP8YUVConverter.upsamplePair(top: vPlane + top * chromaStride, bottom: vPlane + bottom * chromaStride,
                                             width: width, upper: v, lower: vLower)
                rowSink(r, yPlane + r * lumaStride, u, v)
                rowSink(r + 1, yPlane + (r + 1) * lumaStride, uLower, vLower)
                r += 2
            } else {
                let (near, far) = VP8YUVConverter.chromaRows(forRow: r, chromaHeight: chromaHeight)
                VP8YUVConverter.upsampleRow(near: uPlane + near * chromaStride, far: uPlane + far * chromaStride,
                                            width: width, out: u)
                VP8YUVConverter.upsampleRow(near: vPlane + near * chromaStride, far: vPlane + far * chromaStride,
                                            width: width, out: v)
                rowSink(r, yPlane + r * lumaStride, u, v)
                r += 1
            }
        }
        emittedRows = end
    }
}
