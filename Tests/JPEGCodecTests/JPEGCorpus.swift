import TestSupport

/// Selections of the corpus manifest used by the JPEG tests.
enum JPEGCorpus {
    /// Sequential (not progressive) JPEGs that must decode, without the optional ones
    /// (arithmetic, 12-bit) except CMYK/YCCK, which this decoder supports.
    static func sequentialDecodeEntries(includeCMYK: Bool = true) throws -> [CorpusManifest.Entry] {
        try CorpusManifest.load().files.filter { entry in
            entry.isJPEG && entry.expect == "decode" && !entry.isProgressive
                && (entry.optional == nil || (includeCMYK && entry.optional?.hasPrefix("CMYK") == true))
        }
    }
}
