extension JPEGDecoder {
    /// 12-bit files: the iMCU rows holding MCUs `mcus` of the scan under way changed (decoded, or
    /// skipped after the data ran out, which leaves them as they were drawn from zero), so the
    /// next picture draws them, even when their MCU row is not complete yet.
    func markTwelveBitRows(decodedMCUs mcus: Range<Int>, of scan: any ScanEntropyDecoding) {
        guard !mcus.isEmpty, let layout, let currentScan else { return }
        let perRow = max(scan.mcusPerRow, 1)
        // A single-component scan's MCU row is one block row; an iMCU row holds V of them.
        let v = currentScan.isInterleaved ? 1 : layout.components[currentScan.components[0].frameIndex].verticalSampling
        let first = mcus.lowerBound / perRow / v, last = (mcus.upperBound - 1) / perRow / v
        let rows = min(first, dirtyIMCURows?.lowerBound ?? first)..<max(last + 1, dirtyIMCURows?.upperBound ?? 0)
        dirtyIMCURows = rows.clamped(to: 0..<layout.mcuRows)
        changedSinceLastCall = true
    }

    /// Output rows of a 12-bit or lossless picture that hold decoded samples.
    var highPrecisionCompletedRows: Int? {
        if let lossless { return lossless.completedRows }
        guard let twelveBitRenderer, let layout else { return nil }
        let decoded = (dirtyIMCURows?.upperBound ?? 0) * layout.outputRowsPerIMCU
        return min(max(twelveBitRenderer.writtenRows, decoded), layout.outputHeight)
    }
}
