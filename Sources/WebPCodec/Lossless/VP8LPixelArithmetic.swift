/// Channel-wise arithmetic on packed ARGB pixels (`0xAARRGGBB`) used by the inverse
/// transforms (RFC 9649 section 4.1). Every channel wraps modulo 256 independently.
enum VP8LPixelArithmetic {
    /// Adds two pixels channel by channel, modulo 256 (the inverse of the encoder's subtraction).
    @inline(__always)
    static func add(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let alphaGreen = (a & 0xFF00_FF00) &+ (b & 0xFF00_FF00)
        let redBlue = (a & 0x00FF_00FF) &+ (b & 0x00FF_00FF)
        return alphaGreen & 0xFF00_FF00 | redBlue & 0x00FF_00FF
    }

    /// `(a + b) / 2` per channel, rounding down.
    @inline(__always)
    static func average2(_ a: UInt32, _ b: UInt32) -> UInt32 {
        (((a ^ b) & 0xFEFE_FEFE) >> 1) &+ (a & b)
    }

    /// Section 4.1 `Select`: L or T, whichever is closer (Manhattan) to the estimate L + T - TL.
    @inline(__always)
    static func select(left: UInt32, top: UInt32, topLeft: UInt32) -> UInt32 {
        // sum |T - TL| is the estimate's distance to L; sum |L - TL| its distance to T.
        let t = widen(top), l = widen(left), tl = widen(topLeft)
        let difference = magnitude(t &- tl) &- magnitude(l &- tl)
        let leftMinusTop = Int(difference[0]) &+ Int(difference[1]) &+ Int(difference[2]) &+ Int(difference[3])
        return leftMinusTop < 0 ? left : top
    }

    /// Section 4.1 `ClampAddSubtractFull`: `clamp(a + b - c)` per channel.
    @inline(__always)
    static func clampAddSubtractFull(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> UInt32 {
        narrow(widen(a) &+ widen(b) &- widen(c))
    }

    /// Section 4.1 `ClampAddSubtractHalf`: `clamp(a + (a - b) / 2)` per channel, C division
    /// (rounds toward zero: a negative odd difference gets 1 added before the shift).
    @inline(__always)
    static func clampAddSubtractHalf(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let x = widen(a)
        let difference = x &- widen(b)
        return narrow(x &+ ((difference &+ (difference &>> 15 & Channels(repeating: 1))) &>> 1))
    }

    // MARK: Channels in 16-bit lanes
    //
    // A pixel's four channels as Int16 lanes: LLVM turns the lane-wise widening into
    // movd + punpcklbw and the clamped narrowing into packuswb, so each kernel above is a handful
    // of SSE2 instructions (the standard library's generic SIMD conversions and `clamped` would
    // be out-of-line calls). The scalar twins below are what tests compare them with.

    typealias Channels = SIMD4<Int16>

    /// Channels B, G, R, A (the pixel's bytes from the low end) as 16-bit lanes.
    @inline(__always)
    static func widen(_ pixel: UInt32) -> Channels {
        let bytes = unsafeBitCast(pixel, to: SIMD4<UInt8>.self)
        return Channels(Int16(bytes[0]), Int16(bytes[1]), Int16(bytes[2]), Int16(bytes[3]))
    }

    /// The lanes clamped to 0...255 and packed back into a pixel.
    @inline(__always)
    static func narrow(_ lanes: Channels) -> UInt32 {
        let zero = Channels(repeating: 0), top = Channels(repeating: 255)
        let c = lanes.replacing(with: zero, where: lanes .< zero).replacing(with: top, where: lanes .> top)
        let bytes = SIMD4<UInt8>(UInt8(truncatingIfNeeded: c[0]), UInt8(truncatingIfNeeded: c[1]),
                                 UInt8(truncatingIfNeeded: c[2]), UInt8(truncatingIfNeeded: c[3]))
        return unsafeBitCast(bytes, to: UInt32.self)
    }

    @inline(__always)
    static func magnitude(_ lanes: Channels) -> Channels {
        let negated = Channels(repeating: 0) &- lanes
        return lanes.replacing(with: negated, where: negated .> lanes)
    }

    // MARK: Scalar twins

    /// ``select(left:top:topLeft:)`` channel by channel.
    static func selectScalar(left: UInt32, top: UInt32, topLeft: UInt32) -> UInt32 {
        func channel(_ shift: UInt32) -> Int {
            let t = Int(top >> shift & 0xFF), l = Int(left >> shift & 0xFF), tl = Int(topLeft >> shift & 0xFF)
            return abs(t - tl) - abs(l - tl)
        }
        return channel(0) + channel(8) + channel(16) + channel(24) < 0 ? left : top
    }

    /// ``clampAddSubtractFull(_:_:_:)`` channel by channel.
    static func clampAddSubtractFullScalar(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> UInt32 {
        func channel(_ shift: UInt32) -> UInt32 {
            let value = Int(a >> shift & 0xFF) + Int(b >> shift & 0xFF) - Int(c >> shift & 0xFF)
            return UInt32(UInt8(clamping: value)) << shift
        }
        return channel(0) | channel(8) | channel(16) | channel(24)
    }

    /// ``clampAddSubtractHalf(_:_:)`` channel by channel.
    static func clampAddSubtractHalfScalar(_ a: UInt32, _ b: UInt32) -> UInt32 {
        func channel(_ shift: UInt32) -> UInt32 {
            let x = Int(a >> shift & 0xFF), y = Int(b >> shift & 0xFF)
            return UInt32(UInt8(clamping: x + (x - y) / 2)) << shift
        }
        return channel(0) | channel(8) | channel(16) | channel(24)
    }
}
