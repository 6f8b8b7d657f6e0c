import ImageCore

/// Decodes the MCUs of one Huffman-coded scan as bytes arrive (T.81 F.2, with restarts per F.1.2.3).
///
/// It owns what every scan type shares: MCU iteration (interleaved, or one block per MCU for a
/// single component, A.2), restart intervals and resynchronisation, and the rule for when an MCU
/// may be decoded. How each block's bits become coefficients is the ``ScanCoding``: sequential,
/// or progressive DC/AC first and refinement passes (G.1.2) with their EOB runs.
///
/// An MCU is decoded only when it cannot run out of buffered bytes: either ``worstCaseMCUBytes``
/// are buffered besides fill bytes (see ``ScanMarkerLookahead``) before the last multiple of
/// ``decodingStepBytes`` in the stream, or the end of the entropy-coded segment (a marker) is
/// already buffered, or the input is complete. Nothing is ever decoded twice or undone. Both
/// rules depend on the bytes buffered alone, not on how they were split into pieces, so a
/// decoder fed piece by piece stands where a fresh one fed the same bytes at once stands.
///
/// Corrupt data is handled like libjpeg: past a marker the bits read as zeros and the rest of the
/// restart interval is skipped (its blocks keep what they hold: zero, or an earlier scan's);
/// restart markers that are missing or out of order are resynchronised with
/// ``RestartResynchronization``. Such problems are reported, not thrown.
final class ScanDecoder {
    /// What ``run(bytes:streamOffset:inputComplete:report:onMCURow:)`` stopped on.
    enum Step: Equatable {
        /// More bytes are needed to go on.
        case needMoreInput
        /// Every MCU of the scan is decoded.
        case complete
    }

    /// The bit reader loads up to 8 bytes ahead (16 with stuffing).
    static let refillSlackBytes = 16

    /// Without the segment's end buffered, MCUs are decoded as far as the bytes up to the last
    /// stream offset that is a multiple of this allow. Small pieces (a byte at a time, say) then
    /// only get buffered until such an offset arrives, and each run decodes a step's worth of
    /// MCUs: one run per MCU would cost more than decoding it (a gray MCU is about 10 bytes). The
    /// picture lags the data by at most this much more than the ``worstCaseMCUBytes`` it lags by
    /// anyway.
    static let decodingStepBytes = 256

    /// How blocks are coded in this scan.
    let coding: ScanCoding
    /// Components in MCU order.
    private let componentCount: Int
    private let frameIndices: [Int]
    private let horizontalBlocks: [Int]
    private let verticalBlocks: [Int]
    private let dcTables: [HuffmanLookup]
    private let acTables: [HuffmanLookup]
    /// Keeps the tables behind `dcTables`/`acTables` alive.
    private let tableOwners: [HuffmanTable]
    /// Per scan component, its blocks per MCU and DC table, for the DC loops.
    private struct SlotGeometry {
        var h: Int
        var v: Int
        var dc: HuffmanLookup
    }
    private let slotGeometry: UnsafeMutablePointer<SlotGeometry>
    private let predictors: UnsafeMutablePointer<Int32>
    /// Sequential scans: one entry per block of the MCU, pointed at the first MCU of MCU row
    /// `sequentialSlotsRow`.
    private let sequentialSlots: UnsafeMutablePointer<SequentialBlockSlot>
    /// The MCU row whose first MCU `sequentialSlots` point at, or −1: filling them costs about 600
    /// instructions, once per MCU row rather than once per call (fed 1 byte at a time, a call
    /// decodes about one MCU). The windows only move between MCU rows (in `onMCURow`).
    private var sequentialSlotsRow = -1
    /// Blocks per MCU (the entries of `sequentialSlots`).
    private let blocksPerMCU: Int
    /// Per scan component, its latched quantizers.
    private let quantization: [UnsafePointer<Int32>]
    /// Per scan component, where its blocks go; the owner updates them between MCU rows.
    let windows: UnsafeMutablePointer<CoefficientWindow>

    /// MCUs per MCU row.
    let mcusPerRow: Int
    /// MCU rows in the scan.
    let mcuRows: Int
    /// Bytes that are always enough for one MCU.
    let worstCaseMCUBytes: Int

    private let restartInterval: Int
    private var restartsToGo: Int
    private var nextRestartNumber = 0
    /// Progressive AC scans: blocks still covered by the last EOB run (G.1.2.2); reset at restarts.
    private var eobRun = 0
    /// Set when the restart interval under way has run out of data (libjpeg's `insufficient_data`).
    private var insufficientData = false
    /// A restart is being processed and bits are already discarded.
    private var restartInProgress = false
    private var restartSearch = RestartMarkerSearch()
    /// How far ahead of the reader the buffered bytes are known to hold no marker.
    private var lookahead = ScanMarkerLookahead()
    /// Index of the next MCU to decode.
    private(set) var nextMCU = 0
    /// Set when the last ``run(bytes:streamOffset:inputComplete:report:onMCURow:)`` stopped for want
    /// of bytes for the next MCU, with no marker ahead: the stream offset the buffered data must
    /// reach before a run can decode anything (unless a marker arrives first). The decoder's feed
    /// skips running until then (see ``noteMarkerFree(upTo:)``); nil in every other state.
    private(set) var waitsForBytesUntil: Int?
    /// The last MCU begun while the data had not run out (libjpeg's `last_good_iMCU_row`, as an
    /// MCU): block smoothing of an incomplete file treats rows after its iMCU row differently.
    private(set) var lastGoodMCU = 0
    /// libjpeg checks for the data running out before it processes a restart marker, so the first
    /// MCU after a starved restart interval does not count as begun with data.
    private var nextMCUCountsAsGood = true
    private(set) var reader = BitReader()
    /// Input bytes looked at by this scan (for the O(n) counter): bytes the reader moved past
    /// (including restart markers) plus bytes the look-ahead for a marker examined.
    private(set) var bytesExamined = 0
    /// Times ``run(bytes:streamOffset:inputComplete:report:onMCURow:)`` went into decoding MCUs.
    private(set) var mcuBatches = 0

    /// Sets up a scan; `tables` are the DC and AC tables per scan component (in MCU order).
    init(scan: ScanHeader, layout: FrameLayout, dcTables: [HuffmanTable], acTables: [HuffmanTable],
         quantization: [UnsafePointer<Int32>], windows: [CoefficientWindow], restartInterval: Int,
         coding: ScanCoding = .sequential) {
        self.coding = coding
        self.quantization = quantization
        componentCount = scan.components.count
        frameIndices = scan.components.map(\.frameIndex)
        if scan.isInterleaved {
            horizontalBlocks = frameIndices.map { layout.components[$0].horizontalSampling }
            verticalBlocks = frameIndices.map { layout.components[$0].verticalSampling }
            mcusPerRow = layout.mcusPerRow
            mcuRows = layout.mcuRows
        } else {
            // T.81 A.2.2: a single-component scan has one block per MCU and covers only the
            // component's own blocks, not the MCU-aligned padding.
            let component = layout.components[frameIndices[0]]
            horizontalBlocks = [1]
            verticalBlocks = [1]
            mcusPerRow = component.widthInBlocks
            mcuRows = component.heightInBlocks
        }
        self.dcTables = dcTables.map(\.view)
        self.acTables = acTables.map(\.view)
        tableOwners = dcTables + acTables
        slotGeometry = .allocate(capacity: componentCount)
        for slot in 0..<componentCount {
            (slotGeometry + slot).initialize(to: SlotGeometry(h: horizontalBlocks[slot], v: verticalBlocks[slot], dc: self.dcTables[slot]))
        }
        predictors = .allocate(capacity: componentCount)
        predictors.initialize(repeating: 0, count: componentCount)
        self.windows = .allocate(capacity: componentCount)
        self.windows.initialize(from: windows, count: componentCount)
        let blocksPerMCU = zip(horizontalBlocks, verticalBlocks).reduce(0) { $0 + $1.0 * $1.1 }
        self.blocksPerMCU = blocksPerMCU
        sequentialSlots = .allocate(capacity: blocksPerMCU)
        worstCaseMCUBytes = blocksPerMCU * coding.worstCaseBlockBytes + Self.refillSlackBytes
        self.restartInterval = restartInterval
        restartsToGo = restartInterval
    }

    deinit {
        slotGeometry.deallocate()
        predictors.deallocate()
        sequentialSlots.deallocate()
        windows.deallocate()
    }

    /// Total MCUs in the scan.
    var mcuCount: Int { mcusPerRow * mcuRows }

    /// Whether every MCU has been decoded.
    var isComplete: Bool { nextMCU >= mcuCount }

    /// Decodes as many MCUs as `bytes` allow. `bytes` starts at the first byte not consumed yet
    /// (stream offset `streamOffset`); on return, ``consumedBytes`` of them may be dropped.
    /// `onMCURow(row)` runs after each finished MCU row, before the next MCU is decoded, so the owner
    /// can render it and move the windows. Problems that decoding goes past are passed to `report`.
    func run(bytes: UnsafeRawBufferPointer, streamOffset: Int, inputComplete: Bool,
             report: (ImageDecodingError) -> Void, onMCURow: (Int) -> Void) throws -> Step {
        var reader = self.reader
        reader.bytes = bytes
        reader.position = 0
        waitsForBytesUntil = nil
        defer {
            bytesExamined += reader.position
            self.reader = reader
        }
        let zigzag = ZigZag.pointer
        while nextMCU < mcuCount {
            if restartInterval > 0 && restartsToGo == 0 {
                guard processRestart(&reader, streamOffset: streamOffset, inputComplete: inputComplete, report: report) else {
                    return .needMoreInput
                }
            }
            // How many MCUs may be decoded now: all that the buffered bytes surely hold, or every
            // one when the segment's end (a marker) or the input's end is buffered. An MCU may
            // start while ``worstCaseMCUBytes`` besides fill bytes are buffered ahead of the
            // reader: after the first, the run decoders check that themselves (`startLimit`, the
            // last reader position that leaves room), so a byte-fed scan does not come back here
            // for each MCU; with fill bytes ahead (which a later start would not count) the batch
            // is the MCUs that room surely holds.
            var affordable = mcuCount
            var startLimit = Int.max
            if !insufficientData && !reader.markerReached && !inputComplete {
                // Worked on as a local taken out of the property (which keeps an empty one meanwhile,
                // so the local's fill runs are not shared and grow in place): a mutating call on the
                // class property would be an access spanning a call, which keeps a dynamic
                // exclusivity check on every access to it (one per 1-byte feed).
                var ahead = lookahead
                lookahead = ScanMarkerLookahead()
                var examined = 0
                let markerAhead = ahead.markerAhead(in: reader.bytes, from: reader.position, streamOffset: streamOffset,
                                                    examined: &examined)
                bytesExamined += examined
                // Fill bytes (0xFF before 0xFF) hold no bits: worst cases count the other bytes.
                let fill = ahead.fillBytes(from: streamOffset + reader.position)
                lookahead = ahead
                let end = streamOffset + bytes.count
                let usableEnd = markerAhead ? end : end - end % Self.decodingStepBytes
                let available = usableEnd - streamOffset - reader.position - fill
                if available >= worstCaseMCUBytes {
                    if fill == 0 {
                        startLimit = reader.position + available - worstCaseMCUBytes
                    } else {
                        affordable = (available - Self.refillSlackBytes) / (worstCaseMCUBytes - Self.refillSlackBytes)
                    }
                } else if !markerAhead {
                    let needed = streamOffset + reader.position + fill + worstCaseMCUBytes
                    waitsForBytesUntil = (needed + Self.decodingStepBytes - 1) / Self.decodingStepBytes * Self.decodingStepBytes
                    return .needMoreInput
                }
            }
            if insufficientData && coding.storesRawCoefficients {
                // Nothing changes until the next restart (or the scan's end): jump there, so a flood
                // of empty scans over a large image costs nothing per block.
                let skipped = restartInterval > 0 ? min(restartsToGo, mcuCount - nextMCU) : mcuCount - nextMCU
                nextMCU += skipped
                restartsToGo -= skipped
                continue
            }
            let row = nextMCU / mcusPerRow
            let column = nextMCU - row * mcusPerRow
            var decoded = 1
            // Without data the MCU is skipped, as libjpeg skips it: its blocks keep what they hold
            // (zero, or what earlier scans of the components gave them).
            if !insufficientData {
                // A run of MCUs inside this MCU row and restart interval, decoded in one call.
                var count = min(affordable, mcusPerRow - column)
                if restartInterval > 0 { count = min(count, restartsToGo) }
                mcuBatches += 1
                decoded = try decodeMCUs(row: row, column: column, count: count, startLimit: startLimit, reader: &reader,
                                         zigzag: zigzag, streamOffset: streamOffset, report: report)
                if decoded > 1 || nextMCUCountsAsGood { lastGoodMCU = nextMCU + decoded - 1 }
                nextMCUCountsAsGood = true
                if reader.usedInventedBits {
                    if reader.ranOutOfData && !inputComplete {
                        throw ImageDecodingError(.internal, at: streamOffset + reader.position,
                                                 "entropy decoder ran out of buffered bytes inside an MCU")
                    }
                    insufficientData = true
                    let mcu = nextMCU + decoded - 1
                    report(ImageDecodingError(.invalidData, at: streamOffset + reader.position,
                                              reader.ranOutOfData
                                                ? "entropy-coded data ends inside MCU \(mcu) of \(mcuCount)"
                                                : "premature end of entropy-coded segment in MCU \(mcu) of \(mcuCount)"))
                }
            }
            nextMCU += decoded
            restartsToGo -= decoded
            if column + decoded == mcusPerRow {
                self.reader = reader
                onMCURow(row)
                sequentialSlotsRow = -1
            }
        }
        return .complete
    }

    /// Bytes of the last `run` that are used up (the reader never rewinds past them).
    var consumedBytes: Int { reader.position }

    /// Drops the bit reader's buffered bits at the end of the scan; returns extraneous whole bytes
    /// it held, and whether the reader already stopped at a marker (at ``consumedBytes``).
    func finishScan() -> (extraneousBytes: Int, atMarker: Bool) {
        (reader.discardBits(), reader.markerReached)
    }

    /// Decodes `count` (≥ 1) MCUs of MCU row `row` from column `column`, all inside one restart
    /// interval; stops early after an MCU that used invented bits (past a marker or the data), or
    /// that leaves the reader past `startLimit` (the next MCU may not start there). Returns the
    /// MCUs decoded. Kept out of line so the bit-reader helpers inline into it, with
    /// the reader in a local that lives in registers.
    @inline(never)
    private func decodeMCUs(row: Int, column: Int, count: Int, startLimit: Int, reader sharedReader: inout BitReader,
                            zigzag: UnsafePointer<UInt8>, streamOffset: Int,
                            report: (ImageDecodingError) -> Void) throws -> Int {
        var reader = sharedReader
        defer { sharedReader = reader }
        if componentCount == 1 && horizontalBlocks[0] == 1 && verticalBlocks[0] == 1 && coding.storesRawCoefficients {
            // One block per MCU, consecutive in memory: the usual progressive AC scan.
            let window = windows[0]
            let block = window.rawBlock(row: row, column: column)
            let mask = window.nonZeroMask(row: row, column: column)
            // AC scans go through run decoders that keep the reader in registers across blocks;
            // each stops after a block with a problem (handled here) or past the data.
            var done = 0
            while done < count {
                let stop: (decoded: Int, outcome: SequentialBlockDecoder.Outcome)
                switch coding {
                case .acFirst(let start, let end, let shift):
                    stop = ProgressiveBlockDecoder.decodeACFirstRun(
                        blocks: block + done * 64, masks: mask + done, count: count - done, start: start, end: end, shift: shift,
                        ac: acTables[0], eobRun: &eobRun, reader: &reader, zigzag: zigzag, startLimit: startLimit)
                case .acRefinement(let start, let end, let shift):
                    stop = ProgressiveBlockDecoder.decodeACRefinementRun(
                        blocks: block + done * 64, masks: mask + done, count: count - done, start: start, end: end, shift: shift,
                        ac: acTables[0], eobRun: &eobRun, reader: &reader, zigzag: zigzag, startLimit: startLimit)
                default:
                    stop = (1, try decodeBlock(block + done * 64, mask: mask + done, slot: 0, reader: &reader, zigzag: zigzag))
                }
                done += stop.decoded
                if stop.outcome != .decoded {
                    try handle(stop.outcome, mcu: nextMCU + done - 1, at: streamOffset + reader.position, report: report)
                }
                if reader.usedInventedBits || (done < count && reader.position > startLimit) { return done }
            }
            return count
        }
        switch coding {
        case .dcFirst(let shift):
            return try decodeDCFirstMCUs(row: row, column: column, count: count, shift: shift, startLimit: startLimit,
                                         reader: &reader, streamOffset: streamOffset, report: report)
        case .dcRefinement(let shift):
            return decodeDCRefinementMCUs(row: row, column: column, count: count, shift: shift, startLimit: startLimit,
                                          reader: &reader)
        case .sequential:
            return try decodeSequentialMCUs(row: row, column: column, count: count, startLimit: startLimit, reader: &reader,
                                            zigzag: zigzag, streamOffset: streamOffset, report: report)
        default: break
        }
        for index in 0..<count {
            let mcuColumn = column + index
            for slot in 0..<componentCount {
                let window = windows[slot]
                let h = horizontalBlocks[slot], v = verticalBlocks[slot]
                for blockRow in 0..<v {
                    for blockColumn in 0..<h {
                        let blockRowIndex = row * v + blockRow, blockColumnIndex = mcuColumn * h + blockColumn
                        let outcome = try decodeBlock(window.rawBlock(row: blockRowIndex, column: blockColumnIndex),
                                                      mask: window.nonZeroMask(row: blockRowIndex, column: blockColumnIndex),
                                                      slot: slot, reader: &reader, zigzag: zigzag)
                        if outcome != .decoded {
                            try handle(outcome, mcu: nextMCU + index, at: streamOffset + reader.position, report: report)
                        }
                    }
                }
            }
            if reader.usedInventedBits || reader.position > startLimit { return index + 1 }
        }
        return count
    }

    /// Sequential scans (dequantized `Int16` storage with a shape byte per block): points
    /// `sequentialSlots` at the MCU row's first MCU (unless they already do) and lets
    /// ``SequentialBlockDecoder/decodeRun`` go through the run's blocks, handling a bad code or
    /// predictor overflow where it stops.
    private func decodeSequentialMCUs(row: Int, column: Int, count: Int, startLimit: Int, reader: inout BitReader,
                                      zigzag: UnsafePointer<UInt8>, streamOffset: Int,
                                      report: (ImageDecodingError) -> Void) throws -> Int {
        if sequentialSlotsRow != row {
            var entry = 0
            for slot in 0..<componentCount {
                let window = windows[slot]
                let h = horizontalBlocks[slot], v = verticalBlocks[slot]
                let coefficientsPerBlock = window.blockBytes / MemoryLayout<Int16>.stride
                for blockRow in 0..<v {
                    for blockColumn in 0..<h {
                        let blockRowIndex = row * v + blockRow
                        sequentialSlots[entry] = SequentialBlockSlot(
                            block: window.block(row: blockRowIndex, column: blockColumn), blockStep: h * coefficientsPerBlock,
                            shape: window.shape(row: blockRowIndex, column: blockColumn), shapeStep: h,
                            quantization: quantization[slot], dc: dcTables[slot], ac: acTables[slot], predictor: predictors + slot)
                        entry += 1
                    }
                }
            }
            sequentialSlotsRow = row
        }
        // Block indices counted from the row's first MCU.
        let first = column * blocksPerMCU, total = (column + count) * blocksPerMCU
        var next = first
        while true {
            let stop = SequentialBlockDecoder.decodeRun(slots: sequentialSlots, blocksPerMCU: blocksPerMCU, from: next, to: total,
                                                        reader: &reader, zigzag: zigzag, startLimit: startLimit)
            next = stop.next
            if stop.outcome != .decoded {
                try handle(stop.outcome, mcu: nextMCU + (next - 1 - first) / blocksPerMCU, at: streamOffset + reader.position, report: report)
            }
            if next == total { return count }
            // After a whole MCU that used invented bits, stop as the other scan types do; also
            // where the next MCU may not start.
            if next % blocksPerMCU == 0 && (reader.usedInventedBits || reader.position > startLimit) {
                return (next - first) / blocksPerMCU
            }
        }
    }

    /// DC first scans (G.1.2.1): one DC difference per block of every MCU. Each block is one cache
    /// line in a different place, so the loop does nothing else: geometry and tables come from
    /// flat per-slot buffers set up once.
    private func decodeDCFirstMCUs(row: Int, column: Int, count: Int, shift: Int, startLimit: Int, reader sharedReader: inout BitReader,
                                   streamOffset: Int, report: (ImageDecodingError) -> Void) throws -> Int {
        var reader = sharedReader
        defer { sharedReader = reader }
        for index in 0..<count {
            let mcuColumn = column + index
            for slot in 0..<componentCount {
                let geometry = slotGeometry[slot]
                for blockRow in 0..<geometry.v {
                    var block = windows[slot].rawBlock(row: row * geometry.v + blockRow, column: mcuColumn * geometry.h)
                    for _ in 0..<geometry.h {
                        let outcome = ProgressiveBlockDecoder.decodeDCFirst(into: block, shift: shift, dc: geometry.dc,
                                                                            predictor: &predictors[slot], reader: &reader)
                        if outcome != .decoded {
                            try handle(outcome, mcu: nextMCU + index, at: streamOffset + reader.position, report: report)
                        }
                        block += 64
                    }
                }
            }
            if reader.usedInventedBits || reader.position > startLimit { return index + 1 }
        }
        return count
    }

    /// DC refinement scans (G.1.2.1): one bit per block of every MCU.
    private func decodeDCRefinementMCUs(row: Int, column: Int, count: Int, shift: Int, startLimit: Int,
                                        reader sharedReader: inout BitReader) -> Int {
        var reader = sharedReader
        defer { sharedReader = reader }
        for index in 0..<count {
            let mcuColumn = column + index
            for slot in 0..<componentCount {
                let geometry = slotGeometry[slot]
                for blockRow in 0..<geometry.v {
                    var block = windows[slot].rawBlock(row: row * geometry.v + blockRow, column: mcuColumn * geometry.h)
                    for _ in 0..<geometry.h {
                        ProgressiveBlockDecoder.decodeDCRefinement(into: block, shift: shift, reader: &reader)
                        block += 64
                    }
                }
            }
            if reader.usedInventedBits || reader.position > startLimit { return index + 1 }
        }
        return count
    }

    /// One progressive block of scan component `slot` (raw Int16 storage).
    @inline(__always)
    private func decodeBlock(_ block: UnsafeMutablePointer<Int16>, mask: UnsafeMutablePointer<UInt64>, slot: Int,
                             reader: inout BitReader, zigzag: UnsafePointer<UInt8>) throws -> SequentialBlockDecoder.Outcome {
        switch coding {
        case .sequential:
            throw ImageDecodingError(.internal, at: 0, "sequential scan reached the progressive block decoder")
        case .sequentialRaw:
            return RawSequentialBlockDecoder.decode(into: block, dc: dcTables[slot], ac: acTables[slot],
                                                    predictor: &predictors[slot], reader: &reader, zigzag: zigzag)
        case .dcFirst(let shift):
            return ProgressiveBlockDecoder.decodeDCFirst(into: block, shift: shift, dc: dcTables[slot],
                                                         predictor: &predictors[slot], reader: &reader)
        case .dcRefinement(let shift):
            ProgressiveBlockDecoder.decodeDCRefinement(into: block, shift: shift, reader: &reader)
            return .decoded
        case .acFirst(let start, let end, let shift):
            return ProgressiveBlockDecoder.decodeACFirst(into: block, mask: mask, start: start, end: end, shift: shift,
                                                         ac: acTables[slot], eobRun: &eobRun, reader: &reader, zigzag: zigzag)
        case .acRefinement(let start, let end, let shift):
            return ProgressiveBlockDecoder.decodeACRefinement(into: block, mask: mask, start: start, end: end, shift: shift,
                                                              ac: acTables[slot], eobRun: &eobRun, reader: &reader, zigzag: zigzag)
        }
    }

    /// Reports a bad Huffman code (decoding goes on, as in libjpeg) or throws a DC predictor overflow.
    private func handle(_ outcome: SequentialBlockDecoder.Outcome, mcu: Int, at offset: Int,
                        report: (ImageDecodingError) -> Void) throws {
        switch outcome {
        case .decoded: break
        case .badCode:
            report(ImageDecodingError(.invalidData, at: offset, "corrupt entropy-coded data: invalid Huffman code in MCU \(mcu)"))
        case .predictorOverflow:
            throw ImageDecodingError(.invalidData, at: offset, "DC prediction overflows in MCU \(mcu)")
        }
    }

    /// The feeder checked that the bytes before stream offset `offset` hold no marker (no 0xFF among
    /// those appended since the last run, nor just before them), so the look-ahead need not
    /// examine them again.
    func noteMarkerFree(upTo offset: Int) {
        // Through a local, as in `run` (no access to `lookahead` spans a call).
        var ahead = lookahead
        lookahead = ScanMarkerLookahead()
        ahead.noteMarkerFree(upTo: offset)
        lookahead = ahead
    }


    /// Handles the end of a restart interval (T.81 F.1.2.3, libjpeg's `process_restart`); returns
    /// false when more input is needed, having kept its progress.
    private func processRestart(_ reader: inout BitReader, streamOffset: Int, inputComplete: Bool,
                                report: (ImageDecodingError) -> Void) -> Bool {
        var discarded = 0
        if !restartInProgress {
            discarded = reader.discardBits()
            restartInProgress = true
        }
        switch restartSearch.find(in: reader.bytes, position: &reader.position, expected: nextRestartNumber,
                                  streamOffset: streamOffset, inputComplete: inputComplete, extraneousBefore: discarded,
                                  report: report) {
        case .needMoreInput:
            return false
        case .accepted:
            reader.markerReached = false
        case .noData:
            // A marker left unread (or the input's end, like libjpeg's fake EOI): no data follows.
            reader.markerReached = true
        }
        finishRestart(&reader)
        return true
    }

    private func finishRestart(_ reader: inout BitReader) {
        restartInProgress = false
        nextRestartNumber = (nextRestartNumber + 1) & 7
        predictors.update(repeating: 0, count: componentCount)
        eobRun = 0
        restartsToGo = restartInterval
        nextMCUCountsAsGood = !insufficientData
        // libjpeg: a marker left unread means the coming interval has no data, so the flag stays.
        if !reader.markerReached { insufficientData = false }
        reader.ranOutOfData = false
    }
}
