extension JPEGDecoder {
    /// Output rows of a 12-bit or lossless picture that hold decoded samples.
    var highPrecisionCompletedRows: Int? {
        if let lossless { return lossless.completedRows }
        guard let twelveBitRenderer, let layout else { return nil }
        let decoded = (dirtyIMCURows?.upperBound ?? 0) * layout.outputRowsPerIMCU
        return min(max(twelveBitRenderer.writtenRows, decoded), layout.outputHeight)
    }
}
