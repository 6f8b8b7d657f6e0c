/// The weights libjpeg-turbo 2.1+ (jdcoefct.c) gives the 5×5 DC values around a block when it
/// predicts a coefficient, as 5×5 grids (row −2 first, column −2 first) in the lanes of a
/// SIMD32 (lane = 5 · row + column; lanes 25...31 zero). They define the predictions: a weighted
/// sum is the dot product with the neighbourhood's DC values (``DCNeighbourhood/lanes``).
/// ``BlockSmoothing`` computes the same sums written out (``DCOnlySums``, and the AC-known form in
/// place), which costs less than 25-lane products; tests hold the two equal.
enum SmoothingKernels {
    private static func grid(_ rows: [[Int32]]) -> SIMD32<Int32> {
        var lanes = SIMD32<Int32>()
        for (r, row) in rows.enumerated() { for (c, weight) in row.enumerated() { lanes[5 * r + c] = weight } }
        return lanes
    }

    /// Some AC coefficient is known: a 5×5 extension of T.81 K.8, for zig-zag 1...5.
    static let acKnown: [SIMD32<Int32>] = [
        // AC01
        grid([[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [-7, 50, 0, -50, 7], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]),
        // AC10
        grid([[0, 0, -7, 0, 0], [0, 0, 50, 0, 0], [0, 0, 0, 0, 0], [0, 0, -50, 0, 0], [0, 0, 7, 0, 0]]),
        // AC20
        grid([[0, 0, -1, 0, 0], [0, 0, 13, 0, 0], [0, 0, -24, 0, 0], [0, 0, 13, 0, 0], [0, 0, -1, 0, 0]]),
        // AC11
        grid([[0, -1, 0, 1, 0], [-1, 10, 0, -10, 1], [0, 0, 0, 0, 0], [1, -10, 0, 10, -1], [0, 1, 0, -1, 0]]),
        // AC02
        grid([[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [-1, 13, -24, 13, -1], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]),
    ]

    /// Only DC is known: a Gaussian-like kernel for zig-zag 1...9, then DC itself (index 9).
    static let dcOnly: [SIMD32<Int32>] = [
        // AC01
        grid([[-1, -1, 0, 1, 1], [-3, 13, 0, -13, 3], [-3, 38, 0, -38, 3], [-3, 13, 0, -13, 3], [-1, -1, 0, 1, 1]]),
        // AC10
        grid([[-1, -3, -3, -3, -1], [-1, 13, 38, 13, -1], [0, 0, 0, 0, 0], [1, -13, -38, -13, 1], [1, 3, 3, 3, 1]]),
        // AC20
        grid([[0, 0, 1, 0, 0], [0, 2, 7, 2, 0], [0, -5, -14, -5, 0], [0, 2, 7, 2, 0], [0, 0, 1, 0, 0]]),
        // AC11
        grid([[-1, 0, 0, 0, 1], [0, 9, 0, -9, 0], [0, 0, 0, 0, 0], [0, -9, 0, 9, 0], [1, 0, 0, 0, -1]]),
        // AC02
        grid([[0, 0, 0, 0, 0], [0, 2, -5, 2, 0], [1, 7, -14, 7, 1], [0, 2, -5, 2, 0], [0, 0, 0, 0, 0]]),
        // AC03
        grid([[0, 0, 0, 0, 0], [0, 1, 0, -1, 0], [0, 2, 0, -2, 0], [0, 1, 0, -1, 0], [0, 0, 0, 0, 0]]),
        // AC12
        grid([[0, 0, 0, 0, 0], [0, 1, -3, 1, 0], [0, 0, 0, 0, 0], [0, -1, 3, -1, 0], [0, 0, 0, 0, 0]]),
        // AC21
        grid([[0, 0, 0, 0, 0], [0, 1, 0, -1, 0], [0, -3, 0, 3, 0], [0, 1, 0, -1, 0], [0, 0, 0, 0, 0]]),
        // AC30
        grid([[0, 0, 0, 0, 0], [0, 1, 2, 1, 0], [0, 0, 0, 0, 0], [0, -1, -2, -1, 0], [0, 0, 0, 0, 0]]),
        // DC
        grid([[-2, -6, -8, -6, -2], [-6, 6, 42, 6, -6], [-8, 42, 152, 42, -8], [-6, 6, 42, 6, -6], [-2, -6, -8, -6, -2]]),
    ]
}
