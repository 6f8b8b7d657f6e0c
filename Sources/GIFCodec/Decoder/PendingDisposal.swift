import ImageCore

/// What the last drawn frame's disposal (GIF89a section 23, as browsers apply it) does to the
/// canvas before the next frame is drawn.
enum PendingDisposal {
    /// Leave the canvas as it is (disposal 0, 1 and the undefined 4–7).
    case keep
    /// Clear the frame's clipped rectangle to transparent black (disposal 2).
    case clear(FrameRegion)
    /// Put back the rectangle's pixels from before the frame was drawn (disposal 3).
    case restore(FrameRegion, saved: [UInt8])

    /// Applies the disposal to `canvas`.
    func apply(to canvas: RGBACanvas) {
        switch self {
        case .keep: break
        case .clear(let region): canvas.clear(region)
        case .restore(let region, let saved): canvas.restore(region, from: saved)
        }
    }
}
