/// The preview smoothing for one block row: while a scan is under way, the blocks it has reached
/// are drawn with the smoothing for the coefficients as they now are, the others as they were
/// drawn before the scan began (their coefficients have not changed yet, and predicting them for
/// precision they do not have yet would only make them blockier).
///
/// Example: a scan has decoded 10 blocks of row 5 of a component 40 blocks wide: rows 0...4 get
/// (new, new, any), row 5 gets (new, old, 10), rows 6... get (old, old, any).
struct RowSmoothing {
    /// For columns below `splitColumn`.
    var reached: BlockSmoothing?
    /// For columns from `splitColumn` on.
    var unreached: BlockSmoothing?
    var splitColumn: Int

    /// The same smoothing for the whole row.
    static func uniform(_ smoothing: BlockSmoothing?) -> RowSmoothing {
        RowSmoothing(reached: smoothing, unreached: smoothing, splitColumn: 0)
    }
}
