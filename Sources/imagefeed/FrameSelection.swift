import ImageCore

/// Picks which frames of a load the contact sheet shows: the first preview, the final image, and
/// between them the frames where the picture has visibly come evenly closer to the final.
///
/// Picking by time would waste cells: an Adam7 PNG has its coarse passes in the first quarter of
/// its bytes, and at thumbnail size the last half (pass 7) changes little. So each frame gets a
/// distance from the final (mean absolute sample difference of the thumbnails) and the picks
/// split the first frame's distance into equal steps.
///
/// Example with 6 cells and distances 40, 31, 22, 12, 9, 5, 3, 1, 0: the targets are 32, 24, 16,
/// 8 (40 · 4/5 … 40 · 1/5), met first by frames 1, 2, 3, 5; with frame 0 and the final:
/// 0, 1, 2, 3, 5, 8.
enum FrameSelection {
    /// Indices (increasing) of at most `count` frames to show, given each frame's distance from
    /// the final image (the last entry, normally 0). Always the first and the last frame (only the last if the first
    /// already matches it); a step no frame reaches before the final is left out, so fewer cells may be used.
    static func pick(distances: [Double], count: Int) -> [Int] {
        guard let first = distances.first, count > 0 else { return [] }
        let last = distances.count - 1
        // One frame, one cell, or a first preview already equal to the final: the final alone.
        guard count > 1, last > 0, first > 0 else { return [last] }
        var picks = [0]
        let steps = Double(count - 1)
        for step in 1..<(count - 1) {
            let target = first * (steps - Double(step)) / steps
            guard let previous = picks.last,
                  let next = distances.indices.first(where: { $0 > previous && $0 < last && distances[$0] <= target })
            else { continue }
            picks.append(next)
        }
        return picks + [last]
    }

    /// Mean absolute difference of the samples of two pictures of the same size and format (0 … 255).
    static func distance(_ image: Image, _ reference: Image) -> Double {
        guard image.pixels.count == reference.pixels.count, !image.pixels.isEmpty else { return 255 }
        var total = 0
        image.pixels.withUnsafeBufferPointer { a in
            reference.pixels.withUnsafeBufferPointer { b in
                for index in a.indices { total += abs(Int(a[index]) - Int(b[index])) }
            }
        }
        return Double(total) / Double(image.pixels.count)
    }
}
