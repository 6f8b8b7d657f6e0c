/// Draws progressive block rows: raw `Int16` coefficients (natural order) are dequantized, the
/// missing low-frequency ones (and, with only DC known, DC itself) predicted (``BlockSmoothing``) and the block transformed into samples.
///
/// One pass per block does it all: the raw block is read once as eight 8-lane rows, multiplied by
/// the quantizers (keeping the low 16 bits, as libjpeg-turbo's SIMD dequantization does) into a
/// 64-value scratch block, and the same pass notes where non-zero values lie (``BlockShape``), so the
/// IDCT can skip what is zero. Smoothing touches only the predicted coefficients (zig-zag 0...9), and only in blocks
/// where one of them is zero and not exact (or DC is smoothed); their 5×5 DC neighbourhood slides along the row.
final class RawBlockRowDrawer {
    private let layout: FrameLayout
    /// Per component 64 quantizers (natural order, 0 until latched), owned by the coefficient store.
    private let quantization: UnsafePointer<Int32>
    /// The quantizers of the component being drawn, narrowed to the 16 bits they hold.
    private let quantizers: UnsafeMutablePointer<Int16>
    /// One dequantized block, the IDCT input: 16-bit for plain blocks (one load per IDCT row),
    /// 32-bit for smoothed ones (the predictions are stored in 32 bits).
    private let block: UnsafeMutablePointer<Int32>
    private let narrowBlock: UnsafeMutablePointer<Int16>
    /// 128 values: the 16-bit IDCT entries widen rare blocks into the second half.
    private let workspace: UnsafeMutablePointer<Int32>

    /// Draws with the quantizers at `quantization` (per component 64 `Int32`, natural order).
    init(layout: FrameLayout, quantization: UnsafePointer<Int32>) {
        self.layout = layout
        self.quantization = quantization
        quantizers = .allocate(capacity: 64)
        quantizers.initialize(repeating: 0, count: 64)
        block = .allocate(capacity: 64)
        block.initialize(repeating: 0, count: 64)
        narrowBlock = .allocate(capacity: 64)
        narrowBlock.initialize(repeating: 0, count: 64)
        workspace = .allocate(capacity: 128)
        workspace.initialize(repeating: 0, count: 128)
    }

    deinit {
        quantizers.deallocate()
        block.deallocate()
        narrowBlock.deallocate()
        workspace.deallocate()
    }

    /// Draws block row `row` of component `component` from `window`, columns `columns` (inside
    /// the component's blocks), into `samples`: the first sample row of that block row, rows
    /// `stride` apart. Columns below `smoothing.splitColumn` use `smoothing.reached`, the rest
    /// `smoothing.unreached`.
    func draw(component: Int, row: Int, columns: Range<Int>, window: CoefficientWindow, smoothing: RowSmoothing,
              into samples: UnsafeMutablePointer<UInt8>, stride: Int) {
        let source = quantization + component * 64
        // The latched values came from 16-bit table entries, truncated as libjpeg's ISLOW_MULT_TYPE.
        for i in 0..<64 { quantizers[i] = Int16(truncatingIfNeeded: source[i]) }
        let split = min(max(smoothing.splitColumn, columns.lowerBound), columns.upperBound)
        drawPart(component: component, row: row, columns: columns.lowerBound..<split, window: window,
                 smoothing: smoothing.reached, into: samples, stride: stride)
        drawPart(component: component, row: row, columns: split..<columns.upperBound, window: window,
                 smoothing: smoothing.unreached, into: samples, stride: stride)
    }

    private func drawPart(component: Int, row: Int, columns: Range<Int>, window: CoefficientWindow, smoothing: BlockSmoothing?,
                          into samples: UnsafeMutablePointer<UInt8>, stride: Int) {
        guard !columns.isEmpty else { return }
        if let smoothing {
            drawSmoothed(component: component, row: row, columns: columns, window: window, smoothing: smoothing,
                         into: samples, stride: stride)
        } else {
            drawPlain(component: component, row: row, columns: columns, window: window, into: samples, stride: stride)
        }
    }

    private func drawPlain(component: Int, row: Int, columns: Range<Int>, window: CoefficientWindow,
                           into samples: UnsafeMutablePointer<UInt8>, stride: Int) {
        let size = layout.components[component].blockSize
        for column in columns {
            let shape = Self.dequantize(window.rawBlock(row: row, column: column), by: quantizers, into: narrowBlock)
            ShapedInverseDCT.transform(UnsafePointer(narrowBlock), shape: shape, size: size, workspace: workspace,
                                       output: samples + column * size, stride: stride)
        }
    }

    private func drawSmoothed(component: Int, row: Int, columns: Range<Int>, window: CoefficientWindow, smoothing: BlockSmoothing,
                              into samples: UnsafeMutablePointer<UInt8>, stride: Int) {
        let layoutOfComponent = layout.components[component]
        let size = layoutOfComponent.blockSize
        let width = layoutOfComponent.widthInBlocks
        let rows = NeighbourRows(row: row, component: layoutOfComponent, iMCURows: layout.mcuRows)
        var neighbourhood = DCNeighbourhood(window, rows: rows, column: columns.lowerBound, width: width)
        for column in columns {
            if column != columns.lowerBound { neighbourhood.slide(window, rows: rows, column: column, width: width) }
            let raw = window.rawBlock(row: row, column: column)
            var shape = Self.dequantize(raw, by: quantizers, into: block)
            if smoothing.predictsAny(raw) {
                shape = smoothing.apply(raw: raw, dc: neighbourhood, shape: shape, into: block)
            }
            transform(shape: shape, size: size, into: samples + column * size, stride: stride)
        }
    }

    /// Runs the IDCT of `block` for its shape and output size.
    @inline(__always)
    private func transform(shape: UInt8, size: Int, into out: UnsafeMutablePointer<UInt8>, stride: Int) {
        ShapedInverseDCT.transform(UnsafePointer(block), shape: shape, size: size, workspace: workspace, output: out, stride: stride)
    }

    /// Multiplies raw coefficients by their quantizers, keeping the low 16 bits of each product as
    /// libjpeg-turbo's SIMD dequantization does (`pmullw`), into `output` and returns the ``BlockShape``
    /// of the result. Works on rows of eight lanes: natural order puts row r at 8r...8r + 7, so the
    /// top-left 4×4 is the low half of rows 0...3, and the triangle lanes 0...2, 0...1 and 0 of rows 0...2.
    @inline(__always)
    static func dequantize(_ raw: UnsafePointer<Int16>, by quantizers: UnsafePointer<Int16>,
                           into output: UnsafeMutablePointer<Int32>) -> UInt8 {
        let input = UnsafeRawPointer(raw), factors = UnsafeRawPointer(quantizers), out = UnsafeMutableRawPointer(output)
        var triangleAC = SIMD4<Int32>(), restOf4x4 = SIMD4<Int32>(), outside = SIMD8<Int32>()
        for r in 0..<8 {
            let values = input.loadUnaligned(fromByteOffset: r * 16, as: SIMD8<Int16>.self)
            let q = factors.loadUnaligned(fromByteOffset: r * 16, as: SIMD8<Int16>.self)
            let product = SIMD8<Int32>(truncatingIfNeeded: values &* q)
            out.storeBytes(of: product, toByteOffset: r * 32, as: SIMD8<Int32>.self)
            if r < 4 {
                let (triangleLanes, restLanes): (SIMD4<Int32>, SIMD4<Int32>) = switch r {
                case 0: (SIMD4(0, -1, -1, 0), SIMD4(0, 0, 0, -1))
                case 1: (SIMD4(-1, -1, 0, 0), SIMD4(0, 0, -1, -1))
                case 2: (SIMD4(-1, 0, 0, 0), SIMD4(0, -1, -1, -1))
                default: (SIMD4(), SIMD4(repeating: -1))
                }
                triangleAC |= product.lowHalf & triangleLanes
                restOf4x4 |= product.lowHalf & restLanes
                outside |= SIMD8(lowHalf: SIMD4(), highHalf: product.highHalf)
            } else {
                outside |= product
            }
        }
        if !isZero(outside.lowHalf | outside.highHalf) { return BlockShape.full }
        if !isZero(restOf4x4) { return BlockShape.topLeft4x4 }
        return isZero(triangleAC) ? BlockShape.dcOnly : BlockShape.triangle
    }

    /// ``dequantize(_:by:into:)`` into 16-bit values: the same products (their low 16 bits) and shape,
    /// at half the stores and no widening.
    @inline(__always)
    static func dequantize(_ raw: UnsafePointer<Int16>, by quantizers: UnsafePointer<Int16>,
                           into output: UnsafeMutablePointer<Int16>) -> UInt8 {
        typealias Row = SIMD8<Int16>
        let input = UnsafeRawPointer(raw), factors = UnsafeRawPointer(quantizers), out = UnsafeMutableRawPointer(output)
        var triangleAC = Row(), restOf4x4 = Row(), outside = Row()
        for r in 0..<8 {
            let product = input.loadUnaligned(fromByteOffset: r * 16, as: Row.self)
                &* factors.loadUnaligned(fromByteOffset: r * 16, as: Row.self)
            out.storeBytes(of: product, toByteOffset: r * 16, as: Row.self)
            if r < 4 {
                let (triangleLanes, restLanes): (Row, Row) = switch r {
                case 0: (Row(0, -1, -1, 0, 0, 0, 0, 0), Row(0, 0, 0, -1, 0, 0, 0, 0))
                case 1: (Row(-1, -1, 0, 0, 0, 0, 0, 0), Row(0, 0, -1, -1, 0, 0, 0, 0))
                case 2: (Row(-1, 0, 0, 0, 0, 0, 0, 0), Row(0, -1, -1, -1, 0, 0, 0, 0))
                default: (Row(), Row(-1, -1, -1, -1, 0, 0, 0, 0))
                }
                triangleAC |= product & triangleLanes
                restOf4x4 |= product & restLanes
                outside |= product & Row(0, 0, 0, 0, -1, -1, -1, -1)
            } else {
                outside |= product
            }
        }
        if !isZero(outside) { return BlockShape.full }
        if !isZero(restOf4x4) { return BlockShape.topLeft4x4 }
        return isZero(triangleAC) ? BlockShape.dcOnly : BlockShape.triangle
    }

    /// Whether all eight lanes are zero (as two 64-bit words).
    @inline(__always)
    private static func isZero(_ lanes: SIMD8<Int16>) -> Bool {
        let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        return words[0] | words[1] == 0
    }

    /// Whether all four lanes are zero, tested as two 64-bit words (comparing vectors with `==`
    /// compiles to a loop over the lanes).
    @inline(__always)
    private static func isZero(_ lanes: SIMD4<Int32>) -> Bool {
        let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        return words[0] | words[1] == 0
    }
}
