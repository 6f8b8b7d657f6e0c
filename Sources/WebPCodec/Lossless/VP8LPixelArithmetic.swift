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
        @inline(__always) func channel(_ shift: UInt32) -> Int {
            let t = Int(top &>> shift & 0xFF), l = Int(left &>> shift & 0xFF), tl = Int(topLeft &>> shift & 0xFF)
            return abs(t &- tl) &- abs(l &- tl)
        }
        let leftMinusTop = channel(0) &+ channel(8) &+ channel(16) &+ channel(24)
        return leftMinusTop < 0 ? left : top
    }

    /// Section 4.1 `ClampAddSubtractFull`: `clamp(a + b - c)` per channel.
    @inline(__always)
    static func clampAddSubtractFull(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> UInt32 {
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            let value = Int32(a &>> shift & 0xFF) &+ Int32(b &>> shift & 0xFF) &- Int32(c &>> shift & 0xFF)
            return UInt32(UInt8(clamping: value)) &<< shift
        }
        return channel(0) | channel(8) | channel(16) | channel(24)
    }

    /// Section 4.1 `ClampAddSubtractHalf`: `clamp(a + (a - b) / 2)` per channel, C division
    /// (rounds toward zero).
    @inline(__always)
    static func clampAddSubtractHalf(_ a: UInt32, _ b: UInt32) -> UInt32 {
        @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
            let x = Int32(a &>> shift & 0xFF), y = Int32(b &>> shift & 0xFF)
            return UInt32(UInt8(clamping: x &+ (x &- y) / 2)) &<< shift
        }
        return channel(0) | channel(8) | channel(16) | channel(24)
    }
}
