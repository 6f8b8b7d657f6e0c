import ImageCore

/// Composites decoded animation frames onto the canvas exactly as libwebp's `WebPAnimDecoder`
/// does (anim_decode.c, non-premultiplied RGBA), which is what browsers and Pillow show:
///
/// - A key frame (the first; a full-canvas frame without alpha or blending; or one after a
///   frame disposed to background that covered the canvas or was itself a key frame) starts
///   from a transparent canvas; any other starts from the previous canvas after its disposal.
/// - The frame's pixels replace its rectangle, then, if it blends and is not a key frame, each
///   pixel with alpha below 255 is blended over the previous canvas, except inside the previous
///   frame's rectangle when that one was disposed to background (it is transparent there).
/// - Disposal to background clears the rectangle to transparent black (not the ANIM colour).
///
/// Memory: the canvas and the disposed previous canvas.
struct AnimationCompositor {
    let width: Int
    let height: Int
    private(set) var canvas: [UInt8]
    private var previousDisposed: [UInt8]
    private var previous: (region: FrameRegion, disposesToBackground: Bool, wasKeyFrame: Bool)?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        canvas = [UInt8](repeating: 0, count: width * height * 4)
        previousDisposed = canvas
    }

    /// Composites a frame whose decoded RGBA pixels are `pixels` (`region.width × region.height`).
    mutating func composite(_ pixels: [UInt8], region: FrameRegion, hasAlpha: Bool, blends: Bool,
                            disposesToBackground: Bool) {
        let isFull = region.width == width && region.height == height
        let isKeyFrame: Bool
        if let previous {
            let previousFull = previous.region.width == width && previous.region.height == height
            isKeyFrame = ((!hasAlpha || !blends) && isFull)
                || (previous.disposesToBackground && (previousFull || previous.wasKeyFrame))
        } else {
            isKeyFrame = true
        }
        if isKeyFrame {
            for i in canvas.indices { canvas[i] = 0 }
        } else {
            canvas = previousDisposed
        }
        let rowBytes = region.width * 4
        for row in 0..<region.height {
            let target = ((region.y + row) * width + region.x) * 4
            canvas.replaceSubrange(target..<(target + rowBytes), with: pixels[(row * rowBytes)..<((row + 1) * rowBytes)])
        }
        if let previous, blends, !isKeyFrame {
            for row in 0..<region.height {
                let y = region.y + row
                if !previous.disposesToBackground {
                    blendRow(y: y, from: region.x, count: region.width)
                } else {
                    // libwebp FindBlendRangeAtRow: only the parts outside the previous rectangle.
                    let p = previous.region
                    let end = region.x + region.width, previousEnd = p.x + p.width
                    if y < p.y || y >= p.y + p.height || region.x >= previousEnd || end <= p.x {
                        blendRow(y: y, from: region.x, count: region.width)
                    } else {
                        if region.x < p.x { blendRow(y: y, from: region.x, count: p.x - region.x) }
                        if end > previousEnd { blendRow(y: y, from: previousEnd, count: end - previousEnd) }
                    }
                }
            }
        }
        previousDisposed = canvas
        if disposesToBackground {
            for row in 0..<region.height {
                let start = ((region.y + row) * width + region.x) * 4
                for i in start..<(start + rowBytes) { previousDisposed[i] = 0 }
            }
        }
        previous = (region, disposesToBackground, isKeyFrame)
    }

    /// libwebp `BlendPixelRowNonPremult`: canvas pixels with alpha < 255 blended over `previousDisposed`.
    private mutating func blendRow(y: Int, from x: Int, count: Int) {
        for i in 0..<count {
            let at = (y * width + x + i) * 4
            let sourceAlpha = UInt32(canvas[at + 3])
            if sourceAlpha == 255 { continue }
            if sourceAlpha == 0 {
                for c in 0..<4 { canvas[at + c] = previousDisposed[at + c] }
                continue
            }
            let destinationAlpha = UInt32(previousDisposed[at + 3])
            // dst_factor_a = dst_a * (255 - src_a) / 255, approximated with >> 8 as libwebp does.
            let destinationFactor = (destinationAlpha * (256 - sourceAlpha)) >> 8
            let blendAlpha = sourceAlpha + destinationFactor
            let scale = (UInt32(1) << 24) / blendAlpha
            for c in 0..<3 {
                let unscaled = UInt32(canvas[at + c]) * sourceAlpha + UInt32(previousDisposed[at + c]) * destinationFactor
                canvas[at + c] = UInt8(truncatingIfNeeded: (unscaled * scale) >> 24)
            }
            canvas[at + 3] = UInt8(truncatingIfNeeded: blendAlpha)
        }
    }
}
