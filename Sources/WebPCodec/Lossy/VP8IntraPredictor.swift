/// Intra prediction of VP8 key frames (RFC 6386 section 12), on a work area whose row stride
/// is ``stride`` and which holds the row above (`dst - stride`, with 4 more pixels to the right
/// for 4×4 blocks) and the column to the left (`dst - 1`) of the block.
///
/// Mode numbers are libwebp's: 0 DC, 1 TM, 2 VE (V), 3 HE (H); 4×4 adds 4 RD, 5 VR, 6 LD, 7 VL,
/// 8 HD, 9 HU. DC of a 16×16 or chroma block at the image's top or left edge averages only the
/// edge that exists (128 with neither).
enum VP8IntraPredictor {
    static let stride = 32

    /// `count` (4, 8 or 16) copies of `value` at `row`, in word stores (`update(repeating:)` was a
    /// memset call per row).
    @inline(__always)
    static func fill(_ row: UnsafeMutablePointer<UInt8>, _ value: UInt8, count: Int) {
        let word = UInt64(value) &* 0x0101_0101_0101_0101
        let raw = UnsafeMutableRawPointer(row)
        switch count {
        case 4: raw.storeBytes(of: UInt32(truncatingIfNeeded: word), as: UInt32.self)
        case 8: raw.storeBytes(of: word, as: UInt64.self)
        case 16:
            raw.storeBytes(of: word, as: UInt64.self)
            raw.storeBytes(of: word, toByteOffset: 8, as: UInt64.self)
        default: row.update(repeating: value, count: count)
        }
    }

    /// `count` (8 or 16) bytes from `source` to `row`, in word loads and stores (not memcpy calls).
    @inline(__always)
    static func copyRow(_ row: UnsafeMutablePointer<UInt8>, from source: UnsafePointer<UInt8>, count: Int) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(row)
        switch count {
        case 8: to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
        case 16:
            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            to.storeBytes(of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
        default: row.update(from: source, count: count)
        }
    }

    /// 16×16 luma (section 12.2) or 8×8 chroma (section 12.2) prediction of `size`.
    static func predictBlock(mode: Int, size: Int, dst: UnsafeMutablePointer<UInt8>, hasTop: Bool, hasLeft: Bool) {
        let s = stride
        switch mode {
        case 2:  // V
            for y in 0..<size { copyRow(dst + y * s, from: dst - s, count: size) }
        case 3:  // H
            for y in 0..<size { fill(dst + y * s, dst[y * s - 1], count: size) }
        case 1:  // TM: clamp(left + top - topLeft)
            let topLeft = Int(dst[-s - 1])
            for y in 0..<size {
                let left = Int(dst[y * s - 1])
                for x in 0..<size { dst[y * s + x] = UInt8(clamping: left &+ Int(dst[x - s]) &- topLeft) }
            }
        default:  // DC with libwebp's edge variants (CheckMode)
            let shift = size == 16 ? 4 : 3
            var value: Int
            if hasTop && hasLeft {
                var sum = size
                for i in 0..<size { sum += Int(dst[i - s]) + Int(dst[i * s - 1]) }
                value = sum >> (shift + 1)
            } else if hasTop {
                var sum = size >> 1
                for i in 0..<size { sum += Int(dst[i - s]) }
                value = sum >> shift
            } else if hasLeft {
                var sum = size >> 1
                for i in 0..<size { sum += Int(dst[i * s - 1]) }
                value = sum >> shift
            } else {
                value = 128
            }
            for y in 0..<size { fill(dst + y * s, UInt8(truncatingIfNeeded: value), count: size) }
        }
    }

    /// 4×4 luma sub-block prediction (RFC 6386 section 12.3).
    static func predictSubblock(mode: Int, dst: UnsafeMutablePointer<UInt8>) {
        let s = stride
        @inline(__always) func avg3(_ a: Int, _ b: Int, _ c: Int) -> UInt8 { UInt8((a + 2 * b + c + 2) >> 2) }
        @inline(__always) func avg2(_ a: Int, _ b: Int) -> UInt8 { UInt8((a + b + 1) >> 1) }
        @inline(__always) func put(_ x: Int, _ y: Int, _ v: UInt8) { dst[x + y * s] = v }
        let top = dst - s
        // Neighbours: X top-left; A–H the row above (E–H above-right); I–L the column to the left.
        let x0 = Int(top[-1])
        let a = Int(top[0]), b = Int(top[1]), c = Int(top[2]), d = Int(top[3])
        let e = Int(top[4]), f = Int(top[5]), g = Int(top[6]), h = Int(top[7])
        let i = Int(dst[-1]), j = Int(dst[s - 1]), k = Int(dst[2 * s - 1]), l = Int(dst[3 * s - 1])
        switch mode {
        case 0:  // DC
            let dc = UInt8((a + b + c + d + i + j + k + l + 4) >> 3)
            for y in 0..<4 { fill(dst + y * s, dc, count: 4) }
        case 1:  // TM
            for y in 0..<4 {
                let left = Int(dst[y * s - 1])
                for x in 0..<4 { put(x, y, UInt8(clamping: left + Int(top[x]) - x0)) }
            }
        case 2:  // VE: smoothed row above
            let v0 = avg3(x0, a, b), v1 = avg3(a, b, c), v2 = avg3(b, c, d), v3 = avg3(c, d, e)
            for y in 0..<4 { put(0, y, v0); put(1, y, v1); put(2, y, v2); put(3, y, v3) }
        case 3:  // HE: smoothed column to the left
            fill(dst, avg3(x0, i, j), count: 4)
            fill(dst + s, avg3(i, j, k), count: 4)
            fill(dst + 2 * s, avg3(j, k, l), count: 4)
            fill(dst + 3 * s, avg3(k, l, l), count: 4)
        case 4:  // RD: down-right
            put(0, 3, avg3(j, k, l))
            let ijk = avg3(i, j, k); put(1, 3, ijk); put(0, 2, ijk)
            let xij = avg3(x0, i, j); put(2, 3, xij); put(1, 2, xij); put(0, 1, xij)
            let axi = avg3(a, x0, i); put(3, 3, axi); put(2, 2, axi); put(1, 1, axi); put(0, 0, axi)
            let bax = avg3(b, a, x0); put(3, 2, bax); put(2, 1, bax); put(1, 0, bax)
            let cba = avg3(c, b, a); put(3, 1, cba); put(2, 0, cba)
            put(3, 0, avg3(d, c, b))
        case 5:  // VR: vertical-right
            let xa = avg2(x0, a); put(0, 0, xa); put(1, 2, xa)
            let ab = avg2(a, b); put(1, 0, ab); put(2, 2, ab)
            let bc = avg2(b, c); put(2, 0, bc); put(3, 2, bc)
            put(3, 0, avg2(c, d))
            put(0, 3, avg3(k, j, i))
            put(0, 2, avg3(j, i, x0))
            let ixa = avg3(i, x0, a); put(0, 1, ixa); put(1, 3, ixa)
            let xab = avg3(x0, a, b); put(1, 1, xab); put(2, 3, xab)
            let abc = avg3(a, b, c); put(2, 1, abc); put(3, 3, abc)
            put(3, 1, avg3(b, c, d))
        case 6:  // LD: down-left
            put(0, 0, avg3(a, b, c))
            let bcd = avg3(b, c, d); put(1, 0, bcd); put(0, 1, bcd)
            let cde = avg3(c, d, e); put(2, 0, cde); put(1, 1, cde); put(0, 2, cde)
            let def = avg3(d, e, f); put(3, 0, def); put(2, 1, def); put(1, 2, def); put(0, 3, def)
            let efg = avg3(e, f, g); put(3, 1, efg); put(2, 2, efg); put(1, 3, efg)
            let fgh = avg3(f, g, h); put(3, 2, fgh); put(2, 3, fgh)
            put(3, 3, avg3(g, h, h))
        case 7:  // VL: vertical-left
            put(0, 0, avg2(a, b))
            let bc = avg2(b, c); put(1, 0, bc); put(0, 2, bc)
            let cd = avg2(c, d); put(2, 0, cd); put(1, 2, cd)
            let de = avg2(d, e); put(3, 0, de); put(2, 2, de)
            put(0, 1, avg3(a, b, c))
            let bcd = avg3(b, c, d); put(1, 1, bcd); put(0, 3, bcd)
            let cde = avg3(c, d, e); put(2, 1, cde); put(1, 3, cde)
            let def = avg3(d, e, f); put(3, 1, def); put(2, 3, def)
            put(3, 2, avg3(e, f, g))
            put(3, 3, avg3(f, g, h))
        case 8:  // HD: horizontal-down
            let ix = avg2(i, x0); put(0, 0, ix); put(2, 1, ix)
            let ji = avg2(j, i); put(0, 1, ji); put(2, 2, ji)
            let kj = avg2(k, j); put(0, 2, kj); put(2, 3, kj)
            put(0, 3, avg2(l, k))
            put(3, 0, avg3(a, b, c))
            put(2, 0, avg3(x0, a, b))
            let ixa = avg3(i, x0, a); put(1, 0, ixa); put(3, 1, ixa)
            let jix = avg3(j, i, x0); put(1, 1, jix); put(3, 2, jix)
            let kji = avg3(k, j, i); put(1, 2, kji); put(3, 3, kji)
            put(1, 3, avg3(l, k, j))
        default:  // 9, HU: horizontal-up
            put(0, 0, avg2(i, j))
            let jk = avg2(j, k); put(2, 0, jk); put(0, 1, jk)
            let kl = avg2(k, l); put(2, 1, kl); put(0, 2, kl)
            put(1, 0, avg3(i, j, k))
            let jkl = avg3(j, k, l); put(3, 0, jkl); put(1, 1, jkl)
            let kll = avg3(k, l, l); put(3, 1, kll); put(1, 2, kll)
            let lv = UInt8(l)
            put(3, 2, lv); put(2, 2, lv); put(0, 3, lv); put(1, 3, lv); put(2, 3, lv); put(3, 3, lv)
        }
    }
}
