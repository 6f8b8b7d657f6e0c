/// A colour lookup table (ICC.1 10.12.3 CLUT): output values at the points of a grid over the
/// input space, first input varying slowest. Values are normalised to 0 ... 1.
struct ColorLookupTable: Sendable, Hashable {
    /// Grid points per input (each at least 2).
    let gridPoints: [Int]
    /// Output channels per grid point.
    let outputChannels: Int
    /// `product(gridPoints) * outputChannels` values.
    let values: [Double]
    /// Element stride per input: `strides[i]` = values between neighbours along input `i`.
    let strides: [Int]

    /// Largest grid accepted (points × outputs): 4D 33-point grids of 4 outputs fit.
    static let maximumValues = 1 << 23

    init(gridPoints: [Int], outputChannels: Int, values: [Double]) {
        self.gridPoints = gridPoints
        self.outputChannels = outputChannels
        self.values = values
        var strides = [Int](repeating: outputChannels, count: gridPoints.count)
        var stride = outputChannels
        for index in gridPoints.indices.reversed() {
            strides[index] = stride
            stride *= gridPoints[index]
        }
        self.strides = strides
    }

    /// Number of values for a grid, or nil when it overflows or exceeds ``maximumValues``.
    static func valueCount(gridPoints: [Int], outputChannels: Int) -> Int? {
        var total = outputChannels
        for points in gridPoints {
            let (product, overflow) = total.multipliedReportingOverflow(by: points)
            guard !overflow, product <= maximumValues else { return nil }
            total = product
        }
        return total
    }

    /// Interpolates at `input` (each 0 ... 1) into `output` (``outputChannels`` values).
    ///
    /// The scheme is LittleCMS's: 1–3 inputs by simplex (tetrahedral in 3D) interpolation, 4
    /// inputs linearly along the first input between two tetrahedral lookups of the other three.
    func interpolate(_ input: [Double], into output: inout [Double]) {
        var cell = [Int](repeating: 0, count: gridPoints.count)
        var fraction = [Double](repeating: 0, count: gridPoints.count)
        for axis in gridPoints.indices {
            let x = min(max(input[axis].isNaN ? 0 : input[axis], 0), 1) * Double(gridPoints[axis] - 1)
            let index = min(Int(x), gridPoints[axis] - 2)
            cell[axis] = index
            fraction[axis] = x - Double(index)
        }
        if gridPoints.count == 4 {
            let base = cell[0] * strides[0]
            var low = [Double](repeating: 0, count: outputChannels), high = low
            simplex(base: base, cell: cell, fraction: fraction, axes: 1..<4, into: &low)
            simplex(base: base + strides[0], cell: cell, fraction: fraction, axes: 1..<4, into: &high)
            for channel in 0..<outputChannels {
                output[channel] = low[channel] + (high[channel] - low[channel]) * fraction[0]
            }
        } else {
            simplex(base: 0, cell: cell, fraction: fraction, axes: 0..<gridPoints.count, into: &output)
        }
    }

    /// Simplex interpolation over `axes`: from the cell's low corner, step along the axes in
    /// order of decreasing fraction, weighting each step's difference by that fraction.
    private func simplex(base: Int, cell: [Int], fraction: [Double], axes: Range<Int>, into output: inout [Double]) {
        var corner = base
        for axis in axes { corner += cell[axis] * strides[axis] }
        let order = axes.sorted { fraction[$0] > fraction[$1] }
        for channel in 0..<outputChannels { output[channel] = values[corner + channel] }
        for axis in order {
            let next = corner + strides[axis]
            for channel in 0..<outputChannels {
                output[channel] += (values[next + channel] - values[corner + channel]) * fraction[axis]
            }
            corner = next
        }
    }
}
