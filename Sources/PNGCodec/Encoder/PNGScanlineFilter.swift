import ImageCore

/// Turns an image's passes into the filtered scanlines DEFLATE compresses (PNG 7.3): per
/// row, the filter-type byte then the filtered row; each pass filtered as an image of its own
/// (its first row sees a zero row above, PNG 9.2).
struct PNGScanlineFilter {
    let strategy: PNGFilterStrategy

    /// All passes' filtered rows, back to back.
    func filteredScanlines(_ image: Image, layout: PNGSampleLayout, passes: [Adam7Pass]) -> [UInt8] {
        let stride = layout.filterStride
        let shapes = passes.map { pass in
            (pass: pass, columns: pass.columns(inWidth: image.width), rows: pass.rows(inHeight: image.height))
        }.filter { $0.columns > 0 && $0.rows > 0 }
        let total = shapes.reduce(0) { $0 + $1.rows * (layout.rowBytes(width: $1.columns) + 1) }
        var output = [UInt8](repeating: 0, count: total)
        let widest = shapes.map { layout.rowBytes(width: $0.columns) }.max() ?? 0
        let zeros = [UInt8](repeating: 0, count: widest)
        output.withUnsafeMutableBufferPointer { out in
            zeros.withUnsafeBufferPointer { zeroRow in
                guard let target = out.baseAddress, let zero = zeroRow.baseAddress else { return }
                var offset = 0
                for shape in shapes {
                    let rowBytes = layout.rowBytes(width: shape.columns)
                    let lines = target + offset
                    if layout.isDirect && shape.pass == .sequential {
                        image.pixels.withUnsafeBufferPointer { pixels in
                            guard let rows = pixels.baseAddress else { return }
                            filterRows(rows, rowBytes: rowBytes, count: shape.rows, stride: stride, zero: zero, into: lines)
                        }
                    } else {
                        let packed = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * shape.rows)
                        defer { packed.deallocate() }
                        ScanlinePacker.pack(image, layout: layout, pass: shape.pass, into: packed)
                        filterRows(packed, rowBytes: rowBytes, count: shape.rows, stride: stride, zero: zero, into: lines)
                    }
                    offset += shape.rows * (rowBytes + 1)
                }
            }
        }
        return output
    }

    /// Filters `count` rows of `rowBytes` into `output`, each after its filter-type byte.
    private func filterRows(_ rows: UnsafePointer<UInt8>, rowBytes: Int, count: Int, stride: Int,
                            zero: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) {
        for y in 0..<count {
            let row = rows + y * rowBytes
            let prior = y == 0 ? zero : row - rowBytes
            let line = output + y * (rowBytes + 1)
            let type = filterType(row: row, prior: prior, rowBytes: rowBytes, stride: stride)
            line[0] = type.rawValue
            VectorRowFilter.apply(type, row: row, prior: prior, output: line + 1, count: rowBytes, stride: stride)
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
