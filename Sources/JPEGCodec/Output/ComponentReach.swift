/// Which blocks of one component a scan has decoded so far: block rows `0 ..< fullRows` whole,
/// and in the `partialRows` rows after them the columns `0 ..< splitColumn`.
///
/// Scans decode MCUs left to right, top to bottom (T.81 A.2). An interleaved MCU holds H × V
/// blocks of the component, so a half-decoded MCU row leaves V block rows half done; a
/// single-component scan has one block per MCU and one block row per MCU row (A.2.2).
/// Example: 4:2:0 luma (H = V = 2) in an interleaved scan with 47 MCUs per row, after 100 MCUs:
/// MCU row 2 is under way at MCU column 6, so fullRows 4, partialRows 2, splitColumn 12.
struct ComponentReach: Equatable {
    var fullRows: Int
    var partialRows: Int
    var splitColumn: Int

    /// The reach after `decodedMCUs` MCUs of a scan; `interleaved` scans have `mcusPerRow` MCUs per
    /// row, single-component scans one block per MCU (then `mcusPerRow` is the component's width in blocks).
    init(decodedMCUs: Int, mcusPerRow: Int, interleaved: Bool, component: ComponentLayout) {
        let mcuRow = decodedMCUs / max(mcusPerRow, 1), mcuColumn = decodedMCUs - mcuRow * max(mcusPerRow, 1)
        let (h, v) = interleaved ? (component.horizontalSampling, component.verticalSampling) : (1, 1)
        fullRows = mcuRow * v
        partialRows = v
        splitColumn = mcuColumn * h
    }

    /// The end of the block rows holding decoded blocks.
    var rowsTouched: Int { splitColumn > 0 ? fullRows + partialRows : fullRows }

    /// The smoothing of block row `row`: `reached` for decoded blocks, `unreached` for the others.
    func smoothing(row: Int, reached: BlockSmoothing?, unreached: BlockSmoothing?) -> RowSmoothing {
        if row < fullRows { return .uniform(reached) }
        if row < fullRows + partialRows { return RowSmoothing(reached: reached, unreached: unreached, splitColumn: splitColumn) }
        return .uniform(unreached)
    }
}
