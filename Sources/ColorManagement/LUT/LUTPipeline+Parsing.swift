extension LUTPipeline {
    /// Parses an `mft1`, `mft2`, `mAB ` or `mBA ` tag of `profile`. `isAToB` says which side
    /// the PCS is on; `pcs` is the profile's connection space.
    static func parse(_ profile: ICCProfile, tag signature: ICCSignature, isAToB: Bool) throws -> LUTPipeline? {
        guard let (reader, start, end, type) = try profile.tagData(signature) else { return nil }
        let pcsIsLab = profile.connectionSpace == .lab
        switch type {
        case .lut8Type, .lut16Type:
            return try parseLegacy(reader, start: start, end: end, sixteenBit: type == .lut16Type,
                                   pcsIsLab: pcsIsLab, isAToB: isAToB)
        case .lutAToBType, .lutBToAType:
            return try parseModern(reader, start: start, end: end, isAToB: type == .lutAToBType,
                                   encoding: pcsIsLab ? .lab : .xyz)
        default:
            throw ICCProfileError(.invalidData, at: start, "tag '\(signature)' has type '\(type)', expected a LUT type")
        }
    }

    /// `lut8Type` / `lut16Type` (ICC.1 10.10, 10.11): matrix, input tables, CLUT, output tables.
    private static func parseLegacy(_ reader: ICCDataReader, start: Int, end: Int, sixteenBit: Bool,
                                    pcsIsLab: Bool, isAToB: Bool) throws -> LUTPipeline {
        let inputs = Int(try reader.uInt8(start + 8))
        let outputs = Int(try reader.uInt8(start + 9))
        let grid = Int(try reader.uInt8(start + 10))
        guard (1...15).contains(inputs), (1...15).contains(outputs) else {
            throw ICCProfileError(.invalidData, at: start + 8, "LUT has \(inputs) inputs and \(outputs) outputs, expected 1 ... 15 each")
        }
        guard grid >= 2 else { throw ICCProfileError(.invalidData, at: start + 10, "LUT grid has \(grid) points, expected at least 2") }
        let elements = try reader.s15Fixed16Array(start + 12, count: 9)
        let matrix = Matrix3(SIMD3(elements[0], elements[1], elements[2]), SIMD3(elements[3], elements[4], elements[5]),
                             SIMD3(elements[6], elements[7], elements[8]))
        var cursor = start + 48
        let inputEntries: Int, outputEntries: Int
        if sixteenBit {
            inputEntries = Int(try reader.uInt16(start + 48))
            outputEntries = Int(try reader.uInt16(start + 50))
            cursor = start + 52
            guard (2...4096).contains(inputEntries), (2...4096).contains(outputEntries) else {
                throw ICCProfileError(.invalidData, at: start + 48, "lut16 table sizes \(inputEntries), \(outputEntries): expected 2 ... 4096")
            }
        } else {
            inputEntries = 256
            outputEntries = 256
        }
        let sampleSize = sixteenBit ? 2 : 1
        let maximum = sixteenBit ? 65535.0 : 255.0
        func readSamples(_ count: Int) throws -> [Double] {
            let length = count * sampleSize
            guard length <= end - cursor else {
                throw ICCProfileError(.truncated, at: cursor, "LUT needs \(length) more bytes, tag has \(end - cursor)")
            }
            try reader.require(cursor, length, "LUT data")
            let values = sixteenBit
                ? (0..<count).map { Double(UInt16(reader.bytes[cursor + 2 * $0]) << 8 | UInt16(reader.bytes[cursor + 2 * $0 + 1])) / maximum }
                : (0..<count).map { Double(reader.bytes[cursor + $0]) / maximum }
            cursor += length
            return values
        }
        let inputCurves = try (0..<inputs).map { _ in ToneCurve.table(try readSamples(inputEntries)) }
        let gridPoints = [Int](repeating: grid, count: inputs)
        guard let valueCount = ColorLookupTable.valueCount(gridPoints: gridPoints, outputChannels: outputs) else {
            throw ICCProfileError(.limitExceeded, at: start + 10, "LUT grid \(grid)^\(inputs) × \(outputs) is too large")
        }
        let table = ColorLookupTable(gridPoints: gridPoints, outputChannels: outputs, values: try readSamples(valueCount))
        let outputCurves = try (0..<outputs).map { _ in ToneCurve.table(try readSamples(outputEntries)) }
        var stages: [LUTStage] = []
        // The matrix applies only to XYZ input (ICC.1 10.10): a B2A tag of an XYZ-PCS profile.
        if !isAToB, !pcsIsLab, inputs == 3, matrix != .identity { stages.append(.matrix(matrix, offset: .zero)) }
        stages += [.curves(inputCurves), .table(table), .curves(outputCurves)]
        let encoding: PCSEncoding = pcsIsLab ? (sixteenBit ? .legacyLab16 : .lab) : .xyz
        return LUTPipeline(inputChannels: inputs, outputChannels: outputs, stages: stages, pcsEncoding: encoding)
    }

    /// `lutAToBType` / `lutBToAType` (ICC.1 10.12, 10.13): optional A curves, CLUT, M curves,
    /// matrix and B curves, each at an offset from the tag start.
    private static func parseModern(_ reader: ICCDataReader, start: Int, end: Int, isAToB: Bool,
                                    encoding: PCSEncoding) throws -> LUTPipeline {
        let inputs = Int(try reader.uInt8(start + 8))
        let outputs = Int(try reader.uInt8(start + 9))
        guard (1...15).contains(inputs), (1...15).contains(outputs) else {
            throw ICCProfileError(.invalidData, at: start + 8, "LUT has \(inputs) inputs and \(outputs) outputs, expected 1 ... 15 each")
        }
        func element(_ field: Int) throws -> Int? {
            let offset = Int(try reader.uInt32(start + field))
            guard offset != 0 else { return nil }
            guard offset < end - start else {
                throw ICCProfileError(.truncated, at: start + field, "LUT element offset \(offset) is past the tag's \(end - start) bytes")
            }
            return start + offset
        }
        func curves(_ field: Int, count: Int) throws -> LUTStage? {
            guard var cursor = try element(field) else { return nil }
            var list: [ToneCurve] = []
            for _ in 0..<count {
                let (curve, length) = try ToneCurve.parse(reader, at: cursor, end: end)
                list.append(curve)
                cursor += (length + 3) & ~3   // each curve is padded to 4 bytes
            }
            return .curves(list)
        }
        func matrix() throws -> LUTStage? {
            guard let offset = try element(16) else { return nil }
            guard 48 <= end - offset else { throw ICCProfileError(.truncated, at: offset, "LUT matrix needs 48 bytes") }
            let e = try reader.s15Fixed16Array(offset, count: 12)
            return .matrix(Matrix3(SIMD3(e[0], e[1], e[2]), SIMD3(e[3], e[4], e[5]), SIMD3(e[6], e[7], e[8])),
                           offset: SIMD3(e[9], e[10], e[11]))
        }
        func table(inputs: Int, outputs: Int) throws -> LUTStage? {
            guard let offset = try element(24) else { return nil }
            guard 20 <= end - offset else { throw ICCProfileError(.truncated, at: offset, "CLUT header needs 20 bytes") }
            let gridPoints = try (0..<inputs).map { Int(try reader.uInt8(offset + $0)) }
            guard gridPoints.allSatisfy({ $0 >= 2 }) else {
                throw ICCProfileError(.invalidData, at: offset, "CLUT grid points \(gridPoints): each must be at least 2")
            }
            let precision = Int(try reader.uInt8(offset + 16))
            guard precision == 1 || precision == 2 else {
                throw ICCProfileError(.invalidData, at: offset + 16, "CLUT precision \(precision), expected 1 or 2")
            }
            guard let count = ColorLookupTable.valueCount(gridPoints: gridPoints, outputChannels: outputs) else {
                throw ICCProfileError(.limitExceeded, at: offset, "CLUT grid \(gridPoints) × \(outputs) is too large")
            }
            let data = offset + 20
            guard count * precision <= end - data else {
                throw ICCProfileError(.truncated, at: data, "CLUT needs \(count * precision) bytes, tag has \(end - data)")
            }
            try reader.require(data, count * precision, "CLUT data")
            let bytes = reader.bytes
            let values = precision == 2
                ? (0..<count).map { Double(UInt16(bytes[data + 2 * $0]) << 8 | UInt16(bytes[data + 2 * $0 + 1])) / 65535 }
                : (0..<count).map { Double(bytes[data + $0]) / 255 }
            return .table(ColorLookupTable(gridPoints: gridPoints, outputChannels: outputs, values: values))
        }
        var stages: [LUTStage] = []
        if isAToB {
            // A curves (inputs) → CLUT → M curves (outputs) → matrix → B curves (outputs).
            if let a = try curves(28, count: inputs) { stages.append(a) }
            if let t = try table(inputs: inputs, outputs: outputs) { stages.append(t) }
            if let m = try curves(20, count: outputs) { stages.append(m) }
            if let x = try matrix() { stages.append(x) }
            guard let b = try curves(12, count: outputs) else {
                throw ICCProfileError(.invalidData, at: start + 12, "lutAToBType without B curves")
            }
            stages.append(b)
        } else {
            // B curves (inputs) → matrix → M curves → CLUT → A curves (outputs).
            guard let b = try curves(12, count: inputs) else {
                throw ICCProfileError(.invalidData, at: start + 12, "lutBToAType without B curves")
            }
            stages.append(b)
            if let x = try matrix() { stages.append(x) }
            if let m = try curves(20, count: inputs) { stages.append(m) }
            if let t = try table(inputs: inputs, outputs: outputs) { stages.append(t) }
            if let a = try curves(28, count: outputs) { stages.append(a) }
        }
        // A CLUT is what changes the channel count; without one the counts must agree.
        let hasTable = stages.contains { if case .table = $0 { return true } else { return false } }
        guard hasTable || inputs == outputs else {
            throw ICCProfileError(.invalidData, at: start + 8, "LUT without CLUT maps \(inputs) channels to \(outputs)")
        }
        let hasMatrix = stages.contains { if case .matrix = $0 { return true } else { return false } }
        guard !hasMatrix || (isAToB ? outputs : inputs) == 3 else {
            throw ICCProfileError(.invalidData, at: start + 16, "LUT matrix needs 3 channels")
        }
        return LUTPipeline(inputChannels: inputs, outputChannels: outputs, stages: stages, pcsEncoding: encoding)
    }
}
