import ImageCore

/// Decodes the MCUs of one arithmetic-coded scan (T.81 F.2.4 sequential, G.2 progressive) as
/// bytes arrive, with restarts (statistics, predictions and the decoder reset at each RSTn).
///
/// Like ``ScanDecoder`` it never has to undo a committed MCU. MCUs are decoded in runs while the
/// data bytes buffered ahead (counted by ``ArithmeticDataLookahead``) are at least twice their
/// worst case W (every decision can take 15 bits), or when the segment's end (a marker) or the
/// input's end is buffered. Below that an arithmetic MCU is usually still complete, so one MCU
/// is decoded tentatively from a snapshot (decoder registers, the scan's statistics, its
/// blocks) with a budget of P data bytes, P the largest power of two not above the bytes ahead;
/// if it needed more, the snapshot is put back and the next attempt waits until P doubles.
///
/// So whether an MCU is decoded depends only on the bytes buffered (marker or end, ≥ 2W ahead,
/// or needing ≤ P), never on how they were split: a preview after any piece equals a fresh
/// decode of the same bytes, previews follow the data closely, and the attempts per MCU are
/// O(log W), keeping the work O(total bytes).
///
/// Corrupt data is handled like libjpeg: a run or magnitude that overflows stops the restart
/// interval (its remaining MCUs keep what they had), reported, not thrown; restart markers
/// that are missing or out of order are resynchronised with ``RestartResynchronization``.
final class ArithmeticScanDecoder: ScanEntropyDecoding {
    /// One scan component: its blocks per MCU, quantizers and coding context.
    private struct Slot {
        var h: Int
        var v: Int
        var quantization: UnsafePointer<Int32>
        var context: ArithmeticBlockDecoder.Context
    }

    /// What the buffered bytes allow next.
    private enum Budget {
        /// Every MCU up to the end of the row and interval.
        case unlimited
        /// At most this many MCUs (≥ 1).
        case mcus(Int)
        /// One MCU, tentatively, reading at most this many data bytes.
        case tentative(dataBytes: Int)
        /// Nothing until more bytes arrive.
        case none
    }

    /// DC statistics areas (bins) per table, and AC ones (T.81 F.1.4.4; libjpeg's sizes).
    static let dcBins = 64, acBins = 256
    /// Blocks one MCU can hold (T.81 B.2.3: at most 10).
    private static let maxBlocksPerMCU = 10

    /// How blocks are coded in this scan.
    let coding: ScanCoding
    private let componentCount: Int
    private let slots: UnsafeMutablePointer<Slot>
    /// Per scan component, where its blocks go; the owner updates them between MCU rows.
    let windows: UnsafeMutablePointer<CoefficientWindow>
    /// MCUs per MCU row.
    let mcusPerRow: Int
    /// MCU rows in the scan.
    let mcuRows: Int
    /// Data bytes that are always enough for one MCU.
    let worstCaseMCUBytes: Int

    /// Statistics of all 16 DC and 16 AC tables, then the fixed ½ bin.
    private let statistics: UnsafeMutablePointer<UInt8>
    private static let statisticsBytes = ArithmeticConditioning.tableCount * (dcBins + acBins) + 1
    private let fixedBin: UnsafeMutablePointer<UInt8>
    /// The statistics areas this scan uses (offset, length): reset at restarts, kept in snapshots.
    private let usedAreas: [(offset: Int, count: Int)]
    /// Room for a snapshot of the used statistics and one MCU's blocks and masks.
    private let scratch: UnsafeMutableRawPointer
    private let scratchBytes: Int

    private let restartInterval: Int
    private var restartsToGo: Int
    private var nextRestartNumber = 0
    /// A corrupt code stopped the interval under way (libjpeg's `ct = -1`).
    private var intervalFailed = false
    private var restartSearch = RestartMarkerSearch()
    private var lookahead = ArithmeticDataLookahead()
    /// Tentative decoding waits until this many data bytes are ahead (after an attempt ran short).
    private var retryThreshold = 0
    /// Index of the next MCU to decode.
    private(set) var nextMCU = 0
    private var decoder = ArithmeticDecoder()
    /// Input bytes looked at by this scan: bytes the decoder moved past plus look-ahead.
    private(set) var bytesExamined = 0
    /// Times a run went into decoding MCUs (``ScanEntropyDecoding/mcuBatches``).
    private(set) var mcuBatches = 0
    /// Never known: an arithmetic MCU has no small worst case, so every piece runs the decoder
    /// (its own budget rule keeps that O(n)).
    var waitsForBytesUntil: Int? { nil }
    /// Nothing to remember: with ``waitsForBytesUntil`` nil the caller never buffers past a run.
    func noteMarkerFree(upTo offset: Int) {}
    /// Every MCU decoded counts as begun with data: the binary decoder reads zeros past the data
    /// without telling where it ran out, so an arithmetic file cut inside a progressive scan is
    /// smoothed as if that scan had reached its last decoded MCU (the cut-file references of
    /// TestImages/jpeg-arith check kind and chunking only there).
    var lastGoodMCU: Int { max(nextMCU - 1, 0) }

    /// Sets up a scan; `conditioning` holds the DAC values in force.
    init(scan: ScanHeader, layout: FrameLayout, conditioning: ArithmeticConditioning,
         quantization: [UnsafePointer<Int32>], windows: [CoefficientWindow], restartInterval: Int, coding: ScanCoding) {
        self.coding = coding
        componentCount = scan.components.count
        let frameIndices = scan.components.map(\.frameIndex)
        if scan.isInterleaved {
            mcusPerRow = layout.mcusPerRow
            mcuRows = layout.mcuRows
        } else {
            // T.81 A.2.2: one block per MCU over the component's own blocks.
            let component = layout.components[frameIndices[0]]
            mcusPerRow = component.widthInBlocks
            mcuRows = component.heightInBlocks
        }
        statistics = .allocate(capacity: Self.statisticsBytes)
        statistics.initialize(repeating: 0, count: Self.statisticsBytes)
        fixedBin = statistics + Self.statisticsBytes - 1
        fixedBin.pointee = ArithmeticStateTable.fixedState
        let acBase = ArithmeticConditioning.tableCount * Self.dcBins
        let usesDC: Bool, usesAC: Bool
        // `.sequentialRaw` (12-bit) never reaches this decoder: FrameHeader rejects 12-bit
        // arithmetic frames as unsupported.
        switch coding {
        case .sequential, .sequentialRaw: (usesDC, usesAC) = (true, true)
        case .dcFirst: (usesDC, usesAC) = (true, false)
        case .dcRefinement: (usesDC, usesAC) = (false, false)
        case .acFirst, .acRefinement: (usesDC, usesAC) = (false, true)
        }
        var areas: [(offset: Int, count: Int)] = []
        slots = .allocate(capacity: componentCount)
        for (slot, component) in scan.components.enumerated() {
            let interleaved = scan.isInterleaved
            let frameComponent = layout.components[component.frameIndex]
            let dcOffset = component.dcTable * Self.dcBins, acOffset = acBase + component.acTable * Self.acBins
            if usesDC && !areas.contains(where: { $0.offset == dcOffset }) { areas.append((dcOffset, Self.dcBins)) }
            if usesAC && !areas.contains(where: { $0.offset == acOffset }) { areas.append((acOffset, Self.acBins)) }
            let context = ArithmeticBlockDecoder.Context(
                dcStats: statistics + dcOffset, acStats: statistics + acOffset,
                smallLimit: (1 << conditioning.dcLower[component.dcTable]) >> 1,
                largeLimit: (1 << conditioning.dcUpper[component.dcTable]) >> 1,
                bandSplit: conditioning.acBandSplit[component.acTable])
            (slots + slot).initialize(to: Slot(h: interleaved ? frameComponent.horizontalSampling : 1,
                                               v: interleaved ? frameComponent.verticalSampling : 1,
                                               quantization: quantization[slot], context: context))
        }
        usedAreas = areas
        self.windows = .allocate(capacity: componentCount)
        self.windows.initialize(from: windows, count: componentCount)
        var blocksPerMCU = 0
        for slot in 0..<componentCount { blocksPerMCU += slots[slot].h * slots[slot].v }
        worstCaseMCUBytes = (blocksPerMCU * Self.decisionsPerBlock(coding) * 15 + 7) / 8 + 3
        // Per block: 128 bytes of coefficients and a mask (progressive) or shape byte padded to 8.
        scratchBytes = areas.reduce(0) { $0 + $1.count } + Self.maxBlocksPerMCU * (64 * 2 + 8)
        scratch = .allocate(byteCount: scratchBytes, alignment: 8)
        self.restartInterval = restartInterval
        restartsToGo = restartInterval
    }

    deinit {
        statistics.deallocate()
        slots.deallocate()
        windows.deallocate()
        scratch.deallocate()
    }

    /// The most binary decisions one block can take: a DC difference is at most 1 + 1 + 15 + 14;
    /// each AC position at most an end-of-block and a zero decision, and each coefficient a sign,
    /// 16 magnitude-category and 14 magnitude decisions; a refinement position at most 3.
    private static func decisionsPerBlock(_ coding: ScanCoding) -> Int {
        switch coding {
        case .sequential, .sequentialRaw: return 32 + 33 * 63
        case .dcFirst: return 32
        case .dcRefinement: return 1
        case .acFirst(let start, let end, _): return 33 * (end - start + 1)
        case .acRefinement(let start, let end, _): return 3 * (end - start + 1)
        }
    }

    /// Total MCUs in the scan.
    var mcuCount: Int { mcusPerRow * mcuRows }

    /// Bytes of the last `run` that are used up.
    var consumedBytes: Int { decoder.position }

    /// Arithmetic decoding holds no bits to discard: bytes it did not need before the marker are
    /// found (and counted as extraneous) by the marker search that follows.
    func finishScan() -> (extraneousBytes: Int, atMarker: Bool) { (0, decoder.markerHit) }

    /// Decodes as many MCUs as `bytes` allow (see ``ScanDecoder``'s `run`, which this mirrors).
    func run(bytes: UnsafeRawBufferPointer, streamOffset: Int, inputComplete: Bool,
             report: (ImageDecodingError) -> Void, onMCURow: (Int) -> Void) throws -> ScanDecoder.Step {
        var decoder = self.decoder
        decoder.rebase(on: bytes, inputComplete: inputComplete)
        defer {
            bytesExamined += decoder.position
            self.decoder = decoder
        }
        let zigzag = ZigZag.pointer
        while nextMCU < mcuCount {
            if restartInterval > 0 && restartsToGo == 0 {
                guard processRestart(&decoder, streamOffset: streamOffset, inputComplete: inputComplete, report: report) else {
                    return .needMoreInput
                }
            }
            let row = nextMCU / mcusPerRow
            let column = nextMCU - row * mcusPerRow
            var count = mcusPerRow - column
            if restartInterval > 0 { count = min(count, restartsToGo) }
            var decoded = count
            if !intervalFailed {
                // libjpeg does nothing for the MCUs after a corrupt code until the next restart.
                switch budget(decoder, streamOffset: streamOffset) {
                case .unlimited:
                    mcuBatches += 1
                    decoded = decodeMCUs(row: row, column: column, count: count, &decoder, zigzag: zigzag,
                                         streamOffset: streamOffset, report: report)
                case .mcus(let affordable):
                    mcuBatches += 1
                    decoded = decodeMCUs(row: row, column: column, count: min(count, affordable), &decoder, zigzag: zigzag,
                                         streamOffset: streamOffset, report: report)
                case .tentative(let budget):
                    guard decodeTentatively(row: row, column: column, budget: budget, &decoder, zigzag: zigzag,
                                            streamOffset: streamOffset, report: report) else { return .needMoreInput }
                    decoded = 1
                case .none:
                    return .needMoreInput
                }
                if decoder.ranOutOfData {
                    throw ImageDecodingError(.internal, at: streamOffset + decoder.position,
                                             "arithmetic decoder ran out of buffered bytes inside an MCU")
                }
            }
            nextMCU += decoded
            restartsToGo -= decoded
            if column + decoded == mcusPerRow {
                self.decoder = decoder
                onMCURow(row)
            }
        }
        return .complete
    }

    /// How many MCUs the buffered bytes surely hold.
    private func budget(_ decoder: ArithmeticDecoder, streamOffset: Int) -> Budget {
        if decoder.markerHit || decoder.inputComplete { return .unlimited }
        bytesExamined += lookahead.advance(over: decoder.bytes, streamOffset: streamOffset, position: decoder.position,
                                           dataBytesRead: decoder.dataBytesRead)
        if lookahead.markerFound { return .unlimited }
        let ahead = lookahead.dataBytes - decoder.dataBytesRead
        // Each MCU of the run still has 2W ahead of it.
        if ahead >= 2 * worstCaseMCUBytes { return .mcus((ahead - 2 * worstCaseMCUBytes) / worstCaseMCUBytes + 1) }
        guard ahead >= retryThreshold else { return .none }
        return .tentative(dataBytes: ahead == 0 ? 0 : 1 << (Int.bitWidth - 1 - ahead.leadingZeroBitCount))
    }

    /// Decodes `count` (≥ 1) MCUs of MCU row `row` from column `column`, inside one restart
    /// interval; stops after an MCU with a corrupt code. Returns the MCUs decoded.
    private func decodeMCUs(row: Int, column: Int, count: Int, _ sharedDecoder: inout ArithmeticDecoder,
                            zigzag: UnsafePointer<UInt8>, streamOffset: Int, report: (ImageDecodingError) -> Void) -> Int {
        // A local copy stays in registers; the caller's decoder is written back once.
        var decoder = sharedDecoder
        defer { sharedDecoder = decoder }
        for index in 0..<count {
            if decoder.needsStart { decoder.start() }
            if !decodeMCU(row: row, column: column + index, &decoder, zigzag: zigzag) {
                intervalFailed = true
                report(ImageDecodingError(.invalidData, at: streamOffset + decoder.position,
                                          "corrupt arithmetic-coded data in MCU \(nextMCU + index) of \(mcuCount): a run or magnitude overflows"))
                return index + 1
            }
        }
        return count
    }

    /// One MCU; false when a code overflowed. The coding is switched on once per MCU, so each
    /// case's block loop is compiled on its own.
    @inline(__always)
    private func decodeMCU(row: Int, column: Int, _ decoder: inout ArithmeticDecoder, zigzag: UnsafePointer<UInt8>) -> Bool {
        let fixedBin = self.fixedBin
        switch coding {
        case .sequential, .sequentialRaw:  // see init: no 12-bit arithmetic frame gets this far
            return eachBlock(row: row, column: column) { slot, window, blockRow, blockColumn in
                ArithmeticBlockDecoder.decodeSequential(
                    into: window.block(row: blockRow, column: blockColumn), shape: window.shape(row: blockRow, column: blockColumn),
                    quantization: slots[slot].quantization, &slots[slot].context, fixedBin: fixedBin, &decoder, zigzag: zigzag)
            }
        case .dcFirst(let shift):
            return eachBlock(row: row, column: column) { slot, window, blockRow, blockColumn in
                ArithmeticBlockDecoder.decodeDCFirst(into: window.rawBlock(row: blockRow, column: blockColumn), shift: shift,
                                                     &slots[slot].context, &decoder)
            }
        case .dcRefinement(let shift):
            return eachBlock(row: row, column: column) { _, window, blockRow, blockColumn in
                ArithmeticBlockDecoder.decodeDCRefinement(into: window.rawBlock(row: blockRow, column: blockColumn), shift: shift,
                                                          fixedBin: fixedBin, &decoder)
                return true
            }
        case .acFirst(let start, let end, let shift):
            // AC scans hold one component, one block per MCU.
            let window = windows[0]
            return ArithmeticBlockDecoder.decodeACFirst(
                into: window.rawBlock(row: row, column: column), mask: window.nonZeroMask(row: row, column: column),
                start: start, end: end, shift: shift, slots[0].context, fixedBin: fixedBin, &decoder, zigzag: zigzag)
        case .acRefinement(let start, let end, let shift):
            let window = windows[0]
            return ArithmeticBlockDecoder.decodeACRefinement(
                into: window.rawBlock(row: row, column: column), mask: window.nonZeroMask(row: row, column: column),
                start: start, end: end, shift: shift, slots[0].context, fixedBin: fixedBin, &decoder, zigzag: zigzag)
        }
    }

    /// Runs `body(slot, window, blockRow, blockColumn)` on each block of MCU (`row`, `column`) in
    /// MCU order until it returns false; returns whether every call returned true.
    @inline(__always)
    private func eachBlock(row: Int, column: Int, _ body: (Int, CoefficientWindow, Int, Int) -> Bool) -> Bool {
        for slot in 0..<componentCount {
            let window = windows[slot]
            let h = slots[slot].h, v = slots[slot].v
            for blockRow in row * v..<(row + 1) * v {
                for blockColumn in column * h..<(column + 1) * h where !body(slot, window, blockRow, blockColumn) {
                    return false
                }
            }
        }
        return true
    }

    /// Decodes one MCU from a snapshot; if it read past the buffered bytes, puts everything back,
    /// sets the next attempt's threshold, and returns false.
    private func decodeTentatively(row: Int, column: Int, budget: Int, _ decoder: inout ArithmeticDecoder,
                                   zigzag: UnsafePointer<UInt8>, streamOffset: Int,
                                   report: (ImageDecodingError) -> Void) -> Bool {
        let savedDecoder = decoder
        let savedSlots = (0..<componentCount).map { slots[$0] }
        saveSnapshot(row: row, column: column)
        var pending: [ImageDecodingError] = []
        decoder.beginTentative(dataBytes: budget)
        _ = decodeMCUs(row: row, column: column, count: 1, &decoder, zigzag: zigzag, streamOffset: streamOffset,
                       report: { pending.append($0) })
        decoder.endTentative()
        guard decoder.ranOutOfData else {
            pending.forEach(report)
            retryThreshold = 0
            return true
        }
        decoder = savedDecoder
        for (index, slot) in savedSlots.enumerated() { slots[index] = slot }
        intervalFailed = false
        restoreSnapshot(row: row, column: column)
        retryThreshold = max(2 * budget, 1)
        return false
    }

    /// Copies the used statistics and the MCU's blocks into `scratch`: progressive blocks with
    /// their masks (128 + 8 bytes), sequential ones with their shape
    /// (128 + 1 bytes), as a component coded again writes over what an earlier scan left.
    private func saveSnapshot(row: Int, column: Int) {
        var cursor = scratch
        for area in usedAreas {
            cursor.copyMemory(from: statistics + area.offset, byteCount: area.count)
            cursor += area.count
        }
        _ = eachBlock(row: row, column: column) { _, window, blockRow, blockColumn in
            if coding.isProgressive {
                cursor.copyMemory(from: window.rawBlock(row: blockRow, column: blockColumn), byteCount: 128)
                cursor.storeBytes(of: window.nonZeroMask(row: blockRow, column: blockColumn).pointee, toByteOffset: 128, as: UInt64.self)
                cursor += 136
            } else {
                cursor.copyMemory(from: window.block(row: blockRow, column: blockColumn), byteCount: 128)
                cursor.storeBytes(of: window.shape(row: blockRow, column: blockColumn).pointee, toByteOffset: 128, as: UInt8.self)
                cursor += 136
            }
            return true
        }
    }

    /// Puts back what ``saveSnapshot(row:column:)`` kept.
    private func restoreSnapshot(row: Int, column: Int) {
        var cursor = UnsafeRawPointer(scratch)
        for area in usedAreas {
            UnsafeMutableRawPointer(statistics + area.offset).copyMemory(from: cursor, byteCount: area.count)
            cursor += area.count
        }
        _ = eachBlock(row: row, column: column) { _, window, blockRow, blockColumn in
            if coding.isProgressive {
                UnsafeMutableRawPointer(window.rawBlock(row: blockRow, column: blockColumn)).copyMemory(from: cursor, byteCount: 128)
                window.nonZeroMask(row: blockRow, column: blockColumn).pointee = cursor.loadUnaligned(fromByteOffset: 128, as: UInt64.self)
                cursor += 136
            } else {
                UnsafeMutableRawPointer(window.block(row: blockRow, column: blockColumn)).copyMemory(from: cursor, byteCount: 128)
                window.shape(row: blockRow, column: blockColumn).pointee = cursor.load(fromByteOffset: 128, as: UInt8.self)
                cursor += 136
            }
            return true
        }
    }

    /// Handles the end of a restart interval (libjpeg's `process_restart` for arithmetic data:
    /// no bits to discard; data bytes the decoder did not need are extraneous); returns false
    /// when more input is needed, having kept its progress.
    private func processRestart(_ decoder: inout ArithmeticDecoder, streamOffset: Int, inputComplete: Bool,
                                report: (ImageDecodingError) -> Void) -> Bool {
        let outcome = restartSearch.find(in: decoder.bytes, position: &decoder.position, expected: nextRestartNumber,
                                         streamOffset: streamOffset, inputComplete: inputComplete, report: report)
        guard outcome != .needMoreInput else { return false }
        // Without the marker (one left unread, or the input's end) the interval reads zeros.
        finishRestart(&decoder, atMarker: outcome == .noData, streamOffset: streamOffset)
        return true
    }

    /// Starts the next interval: statistics, predictions and the decoder start afresh (F.1.4.4 / libjpeg).
    private func finishRestart(_ decoder: inout ArithmeticDecoder, atMarker: Bool, streamOffset: Int) {
        nextRestartNumber = (nextRestartNumber + 1) & 7
        restartsToGo = restartInterval
        decoder.reset(atMarker: atMarker)
        for area in usedAreas { (statistics + area.offset).update(repeating: 0, count: area.count) }
        for slot in 0..<componentCount {
            slots[slot].context.dcContext = 0
            slots[slot].context.predictor = 0
        }
        intervalFailed = false
        retryThreshold = 0
        lookahead.restart(at: streamOffset + decoder.position, dataBytesRead: decoder.dataBytesRead)
    }
}
