import ImageCore

/// Decodes one Huffman-coded lossless scan (T.81 Annex H) as bytes arrive, exactly as
/// libjpeg-turbo 3's jdlhuff.c, jddiffct.c and jdlossls.c do.
///
/// Each MCU holds H × V sample differences per component (one sample for a single-component
/// scan). Differences of one iMCU row go to a buffer; when the row is complete they are
/// undifferenced (``LosslessPrediction``) into the picture's planes. As in libjpeg, prediction
/// restarts (first-row mode, predictor 2^(P−Pt−1)) for every component at the scan's start, at
/// each restart marker and at each MCU row begun after the data ran out, and such a restart
/// applies from the first row of the iMCU row being undifferenced; the rows after the data ran
/// out have zero differences. The restart interval must be a whole number of MCU rows.
///
/// An MCU is decoded only when its worst case is buffered (or the segment's end is), so nothing
/// is decoded twice: O(total bytes) however the input is split.
final class LosslessScanDecoder {
    /// What ``run(bytes:streamOffset:inputComplete:report:)`` stopped on.
    enum Step: Equatable {
        case needMoreInput
        case complete
    }

    /// One component of the scan.
    private struct Slot {
        var component: Int
        var h: Int
        var v: Int
        var table: HuffmanLookup
        /// The iMCU row's differences: `v` rows of `stride` values.
        var differences: UnsafeMutablePointer<Int32>
        var stride: Int
    }

    private let picture: LosslessPicture
    private let slots: [Slot]
    private let slotCount: Int
    /// Every slot has one sample per MCU (H = V = 1 or a single-component scan).
    private let oneSamplePerComponent: Bool
    /// Per slot its table, and the first difference of the MCU row being decoded.
    private let tables: UnsafeMutablePointer<HuffmanLookup>
    private let rowStarts: UnsafeMutablePointer<UnsafeMutablePointer<Int32>>
    /// Per slot, its one-read table (``LosslessDifferenceTable``), kept alive by `differenceTables`.
    private let fastTables: UnsafeMutablePointer<UnsafePointer<Int32>>
    private let differenceTables: [LosslessDifferenceTable]
    /// The bits the one-read tables are indexed by.
    private let indexBits: Int
    private let tableOwners: [HuffmanTable]
    private let interleaved: Bool
    private let predictor: Int
    private let pointTransform: Int
    /// Per frame component: its next row is undifferenced in first-row mode.
    private var firstRowMode: [Bool]
    let mcusPerRow: Int
    /// MCU rows in the scan.
    let mcuRows: Int
    private let worstCaseMCUBytes: Int
    private let restartInterval: Int
    private var restartsToGo: Int
    private var nextRestartNumber = 0
    private var insufficientData = false
    private var restartInProgress = false
    private var extraneousBytes = 0
    /// How far ahead of the reader the buffered bytes are known to hold no marker.
    private var lookahead = ScanMarkerLookahead()
    /// Index of the next MCU to decode.
    private(set) var nextMCU = 0
    private(set) var reader = BitReader()
    private(set) var bytesExamined = 0

    /// Sets up a scan of `scan.components` (tables in scan order); throws `invalidData` for
    /// parameters libjpeg rejects (Ss, Se, Ah, Al, a restart interval that is not whole MCU rows).
    init(scan: ScanHeader, picture: LosslessPicture, tables: [HuffmanTable], restartInterval: Int, at offset: Int) throws {
        let geometry = picture.geometry
        guard (1...7).contains(scan.spectralStart), scan.spectralEnd == 0, scan.approximationHigh == 0,
              scan.approximationLow < geometry.precision else {
            throw ImageDecodingError(.invalidData, at: offset,
                                     "lossless scan declares Ss=\(scan.spectralStart) Se=\(scan.spectralEnd) Ah=\(scan.approximationHigh) Al=\(scan.approximationLow); predictors are 1...7, Se and Ah 0, Al below the precision \(geometry.precision)")
        }
        self.picture = picture
        predictor = scan.spectralStart
        pointTransform = scan.approximationLow
        interleaved = scan.isInterleaved
        if interleaved {
            mcusPerRow = (geometry.width + geometry.maxHorizontalSampling - 1) / geometry.maxHorizontalSampling
            mcuRows = geometry.iMCURows
        } else {
            let component = geometry.components[scan.components[0].frameIndex]
            mcusPerRow = component.width
            mcuRows = component.height
        }
        guard restartInterval % max(mcusPerRow, 1) == 0 else {
            throw ImageDecodingError(.invalidData, at: offset,
                                     "lossless restart interval \(restartInterval) is not a multiple of the \(mcusPerRow) MCUs in a row")
        }
        var slots: [Slot] = []
        var samplesPerMCU = 0
        for (index, component) in scan.components.enumerated() {
            let layout = geometry.components[component.frameIndex]
            let (h, v) = interleaved ? (layout.horizontalSampling, layout.verticalSampling) : (1, 1)
            let stride = interleaved ? mcusPerRow * h : mcusPerRow
            let rows = layout.verticalSampling
            let buffer = UnsafeMutablePointer<Int32>.allocate(capacity: max(stride * rows, 1))
            buffer.initialize(repeating: 0, count: max(stride * rows, 1))
            slots.append(Slot(component: component.frameIndex, h: h, v: v, table: tables[index].view,
                              differences: buffer, stride: stride))
            samplesPerMCU += h * v
        }
        self.slots = slots
        slotCount = slots.count
        oneSamplePerComponent = slots.allSatisfy { $0.h == 1 && $0.v == 1 }
        self.tables = .allocate(capacity: slots.count)
        self.tables.initialize(from: slots.map(\.table), count: slots.count)
        let indexBits = LosslessDifferenceTable.indexBits(components: slots.count)
        differenceTables = slots.map { LosslessDifferenceTable($0.table, indexBits: indexBits) }
        self.indexBits = indexBits
        fastTables = .allocate(capacity: slots.count)
        fastTables.initialize(from: differenceTables.map { UnsafePointer($0.entries) }, count: slots.count)
        rowStarts = .allocate(capacity: slots.count)
        rowStarts.initialize(from: slots.map(\.differences), count: slots.count)
        tableOwners = tables
        // A 16-bit code and 15 extra bits per sample, doubled for stuffing, and the reader's slack.
        worstCaseMCUBytes = samplesPerMCU * 8 + ScanDecoder.refillSlackBytes
        self.restartInterval = restartInterval
        restartsToGo = restartInterval
        firstRowMode = Array(repeating: true, count: geometry.components.count)
        for slot in slots { picture.pointTransforms[slot.component] = pointTransform }
    }

    deinit {
        slots.forEach { $0.differences.deallocate() }
        tables.deallocate()
        fastTables.deallocate()
        rowStarts.deallocate()
    }

    var mcuCount: Int { mcusPerRow * mcuRows }

    /// Bytes of the last `run` that are used up.
    var consumedBytes: Int { reader.position }

    /// Drops the reader's buffered bits at the end of the scan; returns the whole bytes dropped.
    func finishScan() -> Int { reader.discardBits() }

    /// Decodes as many MCUs as `bytes` allow (`bytes` starts at stream offset `streamOffset`).
    func run(bytes: UnsafeRawBufferPointer, streamOffset: Int, inputComplete: Bool,
             report: (ImageDecodingError) -> Void) throws -> Step {
        var reader = self.reader
        reader.bytes = bytes
        reader.position = 0
        defer {
            bytesExamined += reader.position
            self.reader = reader
        }
        while nextMCU < mcuCount {
            let row = nextMCU / mcusPerRow, column = nextMCU - row * mcusPerRow
            if column == 0 {
                if restartInterval > 0 && restartsToGo == 0 {
                    guard processRestart(&reader, streamOffset: streamOffset, inputComplete: inputComplete, report: report) else {
                        return .needMoreInput
                    }
                }
                if insufficientData {
                    // libjpeg: a row begun without data has zero differences and restarts prediction.
                    zeroDifferences(mcuRow: row)
                    restartPrediction()
                    nextMCU += mcusPerRow
                    restartsToGo -= mcusPerRow
                    finishedMCURow(row)
                    continue
                }
            }
            var affordable = mcusPerRow - column
            if !reader.markerReached && !inputComplete {
                // A local counter, not `&bytesExamined`: an inout class property nested in the
                // `lookahead` access makes both keep dynamic exclusivity checks.
                var examined = 0
                let markerAhead = lookahead.markerAhead(in: reader.bytes, from: reader.position, streamOffset: streamOffset,
                                                        examined: &examined)
                bytesExamined += examined
                // Fill bytes (0xFF before 0xFF) hold no bits: worst cases count the other bytes.
                let available = bytes.count - reader.position - lookahead.fillBytes(from: streamOffset + reader.position)
                if available >= worstCaseMCUBytes {
                    affordable = min(affordable, (available - ScanDecoder.refillSlackBytes) / (worstCaseMCUBytes - ScanDecoder.refillSlackBytes))
                } else if !markerAhead {
                    return .needMoreInput
                }
            }
            if decodeMCUs(row: row, columns: column..<(column + affordable), reader: &reader) {
                report(ImageDecodingError(.invalidData, at: streamOffset + reader.position,
                                          "corrupt entropy-coded data: invalid Huffman code in MCU row \(row)"))
            }
            if reader.usedInventedBits && !insufficientData {
                if reader.ranOutOfData && !inputComplete {
                    throw ImageDecodingError(.internal, at: streamOffset + reader.position,
                                             "lossless decoder ran out of buffered bytes inside an MCU")
                }
                insufficientData = true
                report(ImageDecodingError(.invalidData, at: streamOffset + reader.position,
                                          "premature end of entropy-coded data in MCU row \(row) of \(mcuRows)"))
            }
            nextMCU += affordable
            restartsToGo -= affordable
            if column + affordable == mcusPerRow { finishedMCURow(row) }
        }
        return .complete
    }

    /// Decodes the differences of MCUs `columns` of MCU row `row`; returns whether a code was
    /// invalid. Kept out of line with the reader in a local, so it lives in registers.
    @inline(never)
    private func decodeMCUs(row: Int, columns: Range<Int>, reader sharedReader: inout BitReader) -> Bool {
        var reader = sharedReader
        defer { sharedReader = reader }
        var badCode = false
        let bits = indexBits
        // Where this MCU row's differences go: a single-component MCU row is one sample row.
        for s in 0..<slots.count {
            let slot = slots[s]
            let rowInIMCU = interleaved ? 0 : row % picture.geometry.components[slot.component].verticalSampling
            rowStarts[s] = slot.differences + rowInIMCU * slot.stride
        }
        if slotCount == 1 && oneSamplePerComponent {
            let destination = rowStarts[0], fast = fastTables[0], table = tables[0]
            for column in columns { destination[column] = Self.difference(fast, bits, table, &reader, &badCode) }
            return badCode
        }
        if slotCount == 3 && oneSamplePerComponent {
            // Interleaved colour without subsampling: the tables and rows in locals (registers).
            let (d0, d1, d2) = (rowStarts[0], rowStarts[1], rowStarts[2])
            let (f0, f1, f2) = (fastTables[0], fastTables[1], fastTables[2])
            let (t0, t1, t2) = (tables[0], tables[1], tables[2])
            for column in columns {
                d0[column] = Self.difference(f0, bits, t0, &reader, &badCode)
                d1[column] = Self.difference(f1, bits, t1, &reader, &badCode)
                d2[column] = Self.difference(f2, bits, t2, &reader, &badCode)
            }
            return badCode
        }
        if oneSamplePerComponent {
            // The usual case (gray, or interleaved components without subsampling): one sample each.
            for column in columns {
                for s in 0..<slotCount { rowStarts[s][column] = Self.difference(fastTables[s], bits, tables[s], &reader, &badCode) }
            }
            return badCode
        }
        for column in columns {
            for s in 0..<slotCount {
                let slot = slots[s]
                for blockRow in 0..<slot.v {
                    let destination = rowStarts[s] + blockRow * slot.stride + column * slot.h
                    for blockColumn in 0..<slot.h { destination[blockColumn] = Self.difference(fastTables[s], bits, slot.table, &reader, &badCode) }
                }
            }
        }
        return badCode
    }

    /// One sample difference (T.81 H.1.2.2): a size 0...16, then that many extra bits (none for 16,
    /// which means 32768), in one table read when the code and its bits are short
    /// (``LosslessDifferenceTable``), else the code first and then its bits. A code that is no code
    /// reads as size 0 and sets `badCode`.
    @inline(__always)
    private static func difference(_ fast: UnsafePointer<Int32>, _ indexBits: Int, _ table: HuffmanLookup, _ reader: inout BitReader,
                                   _ badCode: inout Bool) -> Int32 {
        if reader.bitCount < 32 { reader.refillBelow32() }
        let entry = fast[reader.peek(indexBits)]
        if entry != 0 {
            reader.consume(Int(entry & 0xFF))
            return entry >> 8
        }
        // Code, then extra bits: at most 16 + 15 bits, and 32 are buffered unless a marker (or the
        // end of the data) stopped the refill, where the careful path would not load more either.
        let (size, length) = BitReader.symbol(atTopOf: reader.accumulator, table)
        if size >= 1 && size <= 15 {
            reader.consume(length)
            let raw = Int32(truncatingIfNeeded: reader.peek(size))
            reader.consume(size)
            return BitReader.extend(raw, size: size)
        }
        if size == 16 {
            reader.consume(length)
            return 32768
        }
        let (value, after, bad) = slowDifference(table, reader)
        reader = after
        if bad { badCode = true }
        return value
    }

    /// The two-step path of ``difference(_:_:_:_:_:)``: kept out of line, taking and returning the
    /// reader by value so the callers' readers stay in registers.
    @inline(never)
    private static func slowDifference(_ table: HuffmanLookup, _ start: BitReader) -> (Int32, BitReader, Bool) {
        var reader = start
        var size = reader.decodeSymbol(table)
        let bad = size < 0
        if bad { size = 0 }
        switch size {
        case 0: return (0, reader, bad)
        case 16: return (32768, reader, bad)
        default: return (reader.receiveExtended(size), reader, bad)
        }
    }

    /// Zeroes MCU row `row`'s differences in the buffer.
    private func zeroDifferences(mcuRow row: Int) {
        for slot in slots {
            let rowInIMCU = interleaved ? 0 : row % picture.geometry.components[slot.component].verticalSampling
            (slot.differences + rowInIMCU * slot.stride).update(repeating: 0, count: slot.v * slot.stride)
        }
    }

    /// libjpeg's `start_pass_lossless`: every component's next row is a first row.
    private func restartPrediction() {
        for c in firstRowMode.indices { firstRowMode[c] = true }
    }

    /// After MCU row `row`: when it completes an iMCU row, undifferences that row's samples into
    /// the picture (only the rows inside each component, as libjpeg's `last_row_height`).
    private func finishedMCURow(_ row: Int) {
        let geometry = picture.geometry
        let iMCURow: Int
        if interleaved {
            iMCURow = row
        } else {
            let v = geometry.components[slots[0].component].verticalSampling
            guard (row + 1) % v == 0 || row == mcuRows - 1 else { return }
            iMCURow = row / v
        }
        for slot in slots {
            let component = geometry.components[slot.component]
            let first = iMCURow * component.verticalSampling
            let rows = first..<min(first + component.verticalSampling, component.height)
            let plane = picture.planes[slot.component]
            for y in rows {
                let output = plane + y * component.width
                let above = y > 0 ? UnsafePointer(output - component.width) : UnsafePointer(output)
                let differences = UnsafePointer(slot.differences + (y - first) * slot.stride)
                if firstRowMode[slot.component] {
                    firstRowMode[slot.component] = false
                    LosslessPrediction.undifferenceFirstRow(differences, into: output, width: component.width,
                                                            initial: Int32(1) << Int32(geometry.precision - pointTransform - 1))
                } else {
                    LosslessPrediction.undifference(differences, above: above, into: output, width: component.width,
                                                    predictor: predictor)
                }
            }
            picture.samplesChanged(component: slot.component, rows: rows)
        }
    }


    /// The end of a restart interval (libjpeg's `process_restart` in jddiffct.c and jdlhuff.c):
    /// reads RSTn or resynchronises like the DCT scans; false when more input is needed.
    private func processRestart(_ reader: inout BitReader, streamOffset: Int, inputComplete: Bool,
                                report: (ImageDecodingError) -> Void) -> Bool {
        if !restartInProgress {
            extraneousBytes += reader.discardBits()
            restartInProgress = true
        }
        let expected = JPEGMarker.rst0 + UInt8(nextRestartNumber)
        while true {
            switch MarkerSearch.next(in: reader.bytes, from: reader.position) {
            case .needMoreInput(let resumeAt, let skipped):
                extraneousBytes += skipped
                reader.position = resumeAt
                guard inputComplete else { return false }
                reader.markerReached = true
                finishRestart(&reader)
                return true
            case .found(let code, let start, let end, let skipped):
                extraneousBytes += skipped
                if extraneousBytes > 0 {
                    report(ImageDecodingError(.invalidData, at: streamOffset + start,
                                              "\(extraneousBytes) extraneous byte(s) before marker \(JPEGMarker.name(code))"))
                    extraneousBytes = 0
                }
                let action = code == expected ? .acceptMarker : RestartResynchronization.decide(marker: code, expected: nextRestartNumber)
                if code != expected {
                    report(ImageDecodingError(.invalidData, at: streamOffset + start,
                                              "expected RST\(nextRestartNumber) but found \(JPEGMarker.name(code))"))
                }
                switch action {
                case .acceptMarker:
                    reader.position = end
                    reader.markerReached = false
                    finishRestart(&reader)
                    return true
                case .skipMarker:
                    reader.position = end
                    reader.markerReached = false
                case .keepMarker:
                    reader.position = start
                    reader.markerReached = true
                    finishRestart(&reader)
                    return true
                }
            }
        }
    }

    private func finishRestart(_ reader: inout BitReader) {
        restartInProgress = false
        nextRestartNumber = (nextRestartNumber + 1) & 7
        restartsToGo = restartInterval
        restartPrediction()
        if !reader.markerReached { insufficientData = false }
        reader.ranOutOfData = false
    }
}
