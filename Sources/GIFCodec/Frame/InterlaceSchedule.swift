/// The order in which a frame's rows arrive (GIF89a Appendix E): sequential, or four interlace
/// passes starting at rows 0, 4, 2, 1 with steps 8, 8, 4, 2.
///
/// Each row also says how many rows below it it stands for in a preview: until a finer pass
/// arrives, the rows under a pass-1 row show that row (8 rows), and so on (4, 2, 1). Filling
/// them in as rows arrive keeps every undecoded row equal to the nearest decoded row above it,
/// and no pass ever overwrites a row an earlier pass decoded.
struct InterlaceSchedule {
    private static let passStart = [0, 4, 2, 1]
    private static let passStep = [8, 8, 4, 2]
    private static let passFill = [8, 4, 2, 1]

    let height: Int
    let isInterlaced: Bool
    /// The interlace pass under way (0–3); 0 for sequential frames.
    private(set) var pass = 0
    /// The frame row the next decoded row belongs to (≥ height once all rows are out).
    private(set) var row = 0

    init(height: Int, isInterlaced: Bool) {
        self.height = height
        self.isInterlaced = isInterlaced
    }

    /// Rows the current row stands for in a preview (1 for sequential frames).
    var fill: Int { isInterlaced ? Self.passFill[pass] : 1 }

    /// Passes finished: 0–4 for interlaced frames, 0 or 1 for sequential ones.
    var completedPasses: Int {
        if row >= height { return isInterlaced ? 4 : 1 }
        return isInterlaced ? pass : 0
    }

    /// Moves to the next row in file order, skipping passes with no rows (frames under 5 rows).
    mutating func advance() {
        guard isInterlaced else { row += 1; return }
        row += Self.passStep[pass]
        while row >= height && pass < 3 {
            pass += 1
            row = Self.passStart[pass]
        }
    }
}
