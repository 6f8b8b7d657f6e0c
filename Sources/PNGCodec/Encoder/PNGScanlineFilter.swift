import Deflate
import ImageCore

/// Turns an image's passes into the filtered scanlines DEFLATE compresses (PNG 7.3): per
/// row, the filter-type byte then the filtered row; each pass filtered as an image of its own
/// (its first row sees a zero row above, PNG 9.2). Rows go straight into a
/// ``StreamingDeflater``'s buffer, so no filtered copy of the picture is ever held.
struct PNGScanlineFilter {
    let strategy: PNGFilterStrategy

    /// Writes all passes' filtered rows into `deflater`, calling `afterRow` after each row (the
    /// encoder moves finished IDAT data out there).
    func write<E: Error>(_ image: Image, layout: PNGSampleLayout, passes: [Adam7Pass], to deflater: StreamingDeflater,
                         afterRow: () throws(E) -> Void) throws(E) {
        let stride = layout.filterStride
        let shapes = passes.map { pass in
            (pass: pass, columns: pass.columns(inWidth: image.width), rows: pass.rows(inHeight: image.height))
        }.filter { $0.columns > 0 && $0.rows > 0 }
        let widest = shapes.map { layout.rowBytes(width: $0.columns) }.max() ?? 0
        // Packed rows for passes that are not the image's own rows: this one and the one above.
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 3 * widest)
        defer { scratch.deallocate() }
        scratch.initialize(repeating: 0, count: 3 * widest)
        let zero = UnsafePointer(scratch)
        var current = scratch + widest, above = scratch + 2 * widest
        try image.pixels.withUnsafeBufferPointer { (pixels) throws(E) in
            guard let pixelBase = pixels.baseAddress else { return }
            for shape in shapes {
                let rowBytes = layout.rowBytes(width: shape.columns)
                let readsImageRows = layout.isDirect && shape.pass == .sequential
                for y in 0..<shape.rows {
                    let row: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>
                    if readsImageRows {
                        row = pixelBase + y * rowBytes
                        prior = y == 0 ? zero : row - rowBytes
                    } else {
                        swap(&current, &above)
                        ScanlinePacker.packRow(y, of: image, layout: layout, pass: shape.pass, into: current)
                        row = UnsafePointer(current)
                        prior = y == 0 ? zero : UnsafePointer(above)
                    }
                    let type = filterType(row: row, prior: prior, rowBytes: rowBytes, stride: stride)
                    deflater.write(count: rowBytes + 1) { raw in
                        let line = raw.assumingMemoryBound(to: UInt8.self)
                        line[0] = type.rawValue
                        VectorRowFilter.apply(type, row: row, prior: prior, output: line + 1, count: rowBytes, stride: stride)
                    }
                    try afterRow()
                }
            }
        }
    }

    private func filterType(row: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>, rowBytes: Int, stride: Int) -> FilterType {
        switch strategy {
        case .none: return .none
        case .fixed(let raw): return FilterType(rawValue: raw) ?? .none
        case .adaptive: return VectorRowFilter.cheapestFilter(row: row, prior: prior, count: rowBytes, stride: stride)
        }
    }
}
