extension ColorLookupTable {
    /// ``interpolate(_:into:)`` for tables of at most 4 inputs and 4 outputs (every gray, RGB and
    /// CMYK A2B table), without allocating: the grid sampler calls it tens of thousands of times.
    /// Same scheme, same results.
    func interpolateSmall(_ input: SIMD4<Double>) -> SIMD4<Double> {
        let inputs = gridPoints.count
        var cell = SIMD4<Int>(repeating: 0), fraction = SIMD4<Double>(repeating: 0), stride = SIMD4<Int>(repeating: 0)
        for axis in 0..<inputs {
            let points = gridPoints[axis]
            let x = min(max(input[axis].isNaN ? 0 : input[axis], 0), 1) * Double(points - 1)
            let index = min(Int(x), points - 2)
            cell[axis] = index
            fraction[axis] = x - Double(index)
            stride[axis] = strides[axis]
        }
        return values.withUnsafeBufferPointer { values in
            if inputs == 4 {
                let base = cell[0] * stride[0] + cell[1] * stride[1] + cell[2] * stride[2] + cell[3] * stride[3]
                let axes = SIMD3(1, 2, 3)
                let low = simplex(values, base: base, axes: axes, count: 3, fraction: fraction, stride: stride)
                let high = simplex(values, base: base + stride[0], axes: axes, count: 3, fraction: fraction, stride: stride)
                return low + (high - low) * fraction[0]
            }
            var base = 0
            for axis in 0..<inputs { base += cell[axis] * stride[axis] }
            return simplex(values, base: base, axes: SIMD3(0, 1, 2), count: inputs, fraction: fraction, stride: stride)
        }
    }

    /// Simplex interpolation over the first `count` (1 ... 3) of `axes`.
    @inline(__always)
    private func simplex(_ values: UnsafeBufferPointer<Double>, base: Int, axes: SIMD3<Int>, count: Int,
                         fraction: SIMD4<Double>, stride: SIMD4<Int>) -> SIMD4<Double> {
        var order = axes
        // Sort the used axes by decreasing fraction (at most three compare-and-swaps).
        func swapIfNeeded(_ a: Int, _ b: Int) {
            if fraction[order[a]] < fraction[order[b]] { let t = order[a]; order[a] = order[b]; order[b] = t }
        }
        if count > 1 { swapIfNeeded(0, 1) }
        if count > 2 { swapIfNeeded(1, 2); swapIfNeeded(0, 1) }
        let outputs = outputChannels
        func point(_ offset: Int) -> SIMD4<Double> {
            var v = SIMD4<Double>(repeating: 0)
            for channel in 0..<outputs { v[channel] = values[offset + channel] }
            return v
        }
        var corner = base
        var previous = point(corner)
        var result = previous
        for step in 0..<count {
            let axis = order[step]
            corner += stride[axis]
            let next = point(corner)
            result += (next - previous) * fraction[axis]
            previous = next
        }
        return result
    }
}
