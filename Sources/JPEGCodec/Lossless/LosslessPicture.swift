/// The reconstructed samples of a lossless JPEG, one 16-bit plane per component at its own
/// resolution, and the drawing of output rows from them.
///
/// Planes hold the undifferenced values (what prediction reads); a sample's output value is that
/// shifted left by the point transform Pt of the scan that coded the component, cut to the sample
/// type's width (8 bits up to precision 8, else 16) as libjpeg-turbo's `_JSAMPLE` cast does.
final class LosslessPicture {
    let geometry: LosslessGeometry
    let planes: [UnsafeMutablePointer<UInt16>]
    /// Per component, the point transform of its last scan.
    var pointTransforms: [Int]
    /// Per component, rows `0 ..< decodedRows[c]` hold samples.
    var decodedRows: [Int]
    private let converter: WideColorConverter
    private let scratch: [UnsafeMutablePointer<UInt16>]
    private let rowPointers: UnsafeMutablePointer<UnsafePointer<UInt16>>
    private let wideRow: UnsafeMutablePointer<UInt8>
    /// Output rows `0 ..< writtenRows` hold drawn pixels.
    private(set) var writtenRows = 0
    private let outputStride: Int
    /// Output rows already drawn that no longer show what the planes hold.
    private var staleRows: Range<Int>?

    /// Allocates zeroed planes; `conversion` is gray, RGB or YCbCr → RGB. Output rows are
    /// `outputStride` bytes apart: the natural row size, or the caller's `bytesPerRow` in
    /// ``JPEGDecoder/decode(_:into:bytesPerRow:)``.
    init(geometry: LosslessGeometry, conversion: ColorConversion, outputStride: Int) {
        self.geometry = geometry
        self.outputStride = outputStride
        planes = geometry.components.map { component in
            let count = max(component.width * component.height, 1)
            let plane = UnsafeMutablePointer<UInt16>.allocate(capacity: count)
            plane.initialize(repeating: 0, count: count)
            return plane
        }
        pointTransforms = Array(repeating: 0, count: geometry.components.count)
        decodedRows = Array(repeating: 0, count: geometry.components.count)
        converter = WideColorConverter(conversion: conversion, maxSample: (1 << geometry.precision) - 1)
        scratch = geometry.components.map { _ in
            let row = UnsafeMutablePointer<UInt16>.allocate(capacity: max(geometry.width, 1))
            row.initialize(repeating: 0, count: max(geometry.width, 1))
            return row
        }
        rowPointers = .allocate(capacity: geometry.components.count)
        rowPointers.initialize(repeating: UnsafePointer(scratch[0]), count: geometry.components.count)
        let wideBytes = max(geometry.width * conversion.bytesPerPixel * 2, 1)
        wideRow = .allocate(capacity: wideBytes)
        wideRow.initialize(repeating: 0, count: wideBytes)
    }

    deinit {
        planes.forEach { $0.deallocate() }
        scratch.forEach { $0.deallocate() }
        rowPointers.deallocate()
        wideRow.deallocate()
    }

    /// Output rows whose samples of every component have been decoded.
    var completedRows: Int {
        var rows = geometry.height
        for (c, component) in geometry.components.enumerated() {
            rows = min(rows, decodedRows[c] >= component.height ? geometry.height : decodedRows[c] * component.expandV)
        }
        return rows
    }

    /// Bytes per output sample: 1 up to precision 8, else 2 (big-endian).
    var bytesPerSample: Int { geometry.precision <= 8 ? 1 : 2 }

    /// Component `component`'s sample rows `rows` were (re)decoded: the output rows that show them
    /// are drawn again by the next ``draw(into:)``.
    func samplesChanged(component: Int, rows: Range<Int>) {
        let layout = geometry.components[component]
        decodedRows[component] = max(decodedRows[component], rows.upperBound)
        var output = (rows.lowerBound * layout.expandV)..<min(rows.upperBound * layout.expandV, geometry.height)
        if rows.upperBound >= layout.height { output = output.lowerBound..<geometry.height }
        guard !output.isEmpty else { return }
        staleRows = staleRows.map { min($0.lowerBound, output.lowerBound)..<max($0.upperBound, output.upperBound) } ?? output
    }

    /// Draws the output rows that changed into `output` (the picture); rows between the last
    /// drawn one and those are drawn too, so drawn rows always start at the top.
    func draw(into output: UnsafeMutablePointer<UInt8>) {
        guard let stale = staleRows else { return }
        staleRows = nil
        let rows = min(stale.lowerBound, writtenRows)..<stale.upperBound
        for y in rows { drawRow(y, into: output + y * outputStride) }
        writtenRows = max(writtenRows, rows.upperBound)
    }

    private func drawRow(_ y: Int, into output: UnsafeMutablePointer<UInt8>) {
        if converter.conversion != .yCbCrToRGB { return copyRow(y, into: output) }
        let mask: UInt32 = geometry.precision <= 8 ? 0xFF : 0xFFFF
        for (c, component) in geometry.components.enumerated() {
            let source = planes[c] + (y / component.expandV) * component.width
            let shift = UInt32(pointTransforms[c]), row = scratch[c]
            if component.expandH == 1 {
                for x in 0..<geometry.width { row[x] = UInt16(truncatingIfNeeded: (UInt32(source[x]) &<< shift) & mask) }
            } else {
                for x in 0..<geometry.width {
                    row[x] = UInt16(truncatingIfNeeded: (UInt32(source[x / component.expandH]) &<< shift) & mask)
                }
            }
            rowPointers[c] = UnsafePointer(row)
        }
        let samples = geometry.width * converter.conversion.bytesPerPixel
        if bytesPerSample == 2 {
            converter.convert(rows: rowPointers, width: geometry.width, into: output)
        } else {
            converter.convert(rows: rowPointers, width: geometry.width, into: wideRow)
            for i in 0..<samples { output[i] = wideRow[2 * i + 1] }
        }
    }

    /// Writes the first multiple of 8 of `count` samples from `source`, shifted left by `shift`,
    /// to `output` as big-endian 16-bit values; returns how many it wrote.
    @inline(__always)
    static func copyWideRun(_ source: UnsafePointer<UInt16>, into output: UnsafeMutablePointer<UInt8>, count: Int,
                            shift: UInt16) -> Int {
        let input = UnsafeRawPointer(source), out = UnsafeMutableRawPointer(output)
        var x = 0
        while x + 8 <= count {
            let samples = input.loadUnaligned(fromByteOffset: 2 * x, as: SIMD8<UInt16>.self) &<< shift
            out.storeBytes(of: (samples &<< 8) | (samples &>> 8), toByteOffset: 2 * x, as: SIMD8<UInt16>.self)
            x += 8
        }
        return x
    }

    /// Gray and RGB: samples go to the output as they are (shifted by Pt), without clamping.
    private func copyRow(_ y: Int, into output: UnsafeMutablePointer<UInt8>) {
        let count = geometry.components.count, wide = bytesPerSample == 2
        for (c, component) in geometry.components.enumerated() {
            let source = planes[c] + (y / component.expandV) * component.width
            let shift = UInt32(pointTransforms[c])
            if wide && component.expandH == 1 {
                // Gray: eight samples at a time, shifted and byte-swapped in lanes; the scalar
                // loop below does the rest (and every sample of interleaved colour).
                var x = 0
                if count == 1 { x = Self.copyWideRun(source, into: output, count: geometry.width, shift: UInt16(shift)) }
                var out = UnsafeMutableRawPointer(output + 2 * (x * count + c))
                let step = 2 * count
                if shift == 0 {
                    // The usual Pt = 0: no shift to apply (a variable shift costs a third of the loop).
                    while x < geometry.width {
                        out.storeBytes(of: source[x].bigEndian, as: UInt16.self)
                        out += step
                        x += 1
                    }
                }
                while x < geometry.width {
                    // Pt ≤ 15: the masking shift is exact.
                    out.storeBytes(of: UInt16(truncatingIfNeeded: UInt32(source[x]) &<< shift).bigEndian, as: UInt16.self)
                    out += step
                    x += 1
                }
            } else if wide {
                for x in 0..<geometry.width {
                    let sample = UInt16(truncatingIfNeeded: UInt32(source[x / component.expandH]) &<< shift)
                    output[2 * (x * count + c)] = UInt8(truncatingIfNeeded: sample >> 8)
                    output[2 * (x * count + c) + 1] = UInt8(truncatingIfNeeded: sample)
                }
            } else if component.expandH == 1 {
                // Stepping a pointer rather than indexing x · count + c; Pt = 0 without a shift.
                var out = output + c
                if shift == 0 {
                    for x in 0..<geometry.width {
                        out.pointee = UInt8(truncatingIfNeeded: source[x])
                        out += count
                    }
                } else {
                    for x in 0..<geometry.width {
                        out.pointee = UInt8(truncatingIfNeeded: UInt32(source[x]) &<< shift)
                        out += count
                    }
                }
            } else {
                for x in 0..<geometry.width {
                    output[x * count + c] = UInt8(truncatingIfNeeded: UInt32(source[x / component.expandH]) &<< shift)
                }
            }
        }
    }
}
