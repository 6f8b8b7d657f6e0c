import ImageCore

/// Walks the block structure of the buffered input ahead of the decoder, without decoding
/// any image data, to know what the file holds before the frames are asked for: how many
/// images have arrived, the NETSCAPE2.0 loop count, and whether the input stops at a block
/// boundary (complete, or merely missing its trailer) or inside a block (cut short).
///
/// The decoder decodes at most one frame ahead of ``AnimatedImageDecoder/nextFrame()``, so
/// later frames' bytes wait in the input buffer; the scanner lets `finish()` still tell a
/// complete file from a truncated one. It reads only block headers and sub-block lengths
/// (image data is skipped by length), so it adds a small fraction to the bytes examined.
struct GIFStructureScanner {
    private(set) var reader = GIFBlockReader()
    /// Image descriptors seen.
    private(set) var imageCount = 0
    /// The loop count of the last NETSCAPE2.0 (or ANIMEXTS1.0) application extension seen so far,
    /// as stored (Chromium and Wuffs also let a later one win).
    private(set) var storedLoopCount: Int?
    /// Whether the current application extension is a looping one.
    private var inLoopingExtension = false
    /// Set when the bytes are not a GIF: the decoder reports that error itself.
    private(set) var stopped = false
    /// Bytes the scanner read: block headers, descriptors, lengths and application extension
    /// data; colour tables and image data are skipped by length, unread.
    private(set) var bytesExamined = 0

    /// Application identifiers + authentication codes of the looping extension (Netscape's, and
    /// the same block under AnimExts' name).
    private static let loopingApplications: [[UInt8]] = [Array("NETSCAPE2.0".utf8), Array("ANIMEXTS1.0".utf8)]

    /// Scans every buffered byte not scanned yet.
    mutating func scan(_ input: InputBuffer) {
        while !stopped {
            let start = reader.offset - input.consumedOffset
            let readable = input.readable
            // The decoder never gets ahead of the scanner (both parse the same grammar and the
            // scanner runs first), so `start` is within the buffer.
            guard start >= 0, start <= readable.count else { stopped = true; return }
            let step: GIFBlockReader.Step
            do {
                guard let next = try reader.peek(UnsafeRawBufferPointer(rebasing: readable[start...])) else { return }
                step = next
            } catch {
                stopped = true
                return
            }
            switch step.token {
            case .header, .image, .imageData, .extensionSubBlock:
                break
            default:
                bytesExamined += step.length   // introducers, labels, lengths, terminators
            }
            switch step.token {
            case .header:
                bytesExamined += GIFBlockReader.headerSize
            case .image:
                imageCount += 1
                bytesExamined += GIFBlockReader.imageDescriptorSize + 1
            case .extensionSubBlock(label: 0xFF, index: 0, let data):
                bytesExamined += 1 + data.count
                inLoopingExtension = Self.loopingApplications.contains { data.elementsEqual($0) }
            case .extensionSubBlock(label: 0xFF, index: 1, let data):
                bytesExamined += 1 + data.count
                // Sub-block ID 1, then the loop count (u16 LE).
                if inLoopingExtension, data.count >= 3, data[0] & 0x07 == 1 {
                    storedLoopCount = GIFFields.uint16(data, at: 1)
                }
            case .extensionSubBlock:
                bytesExamined += 1   // the length byte; the data is skipped
            case .extensionEnd:
                inLoopingExtension = false
            default:
                break
            }
            reader.commit(step)
        }
    }

    /// Times to play, as ``AnimationInfo/loopCount`` counts them: a stored count N means N
    /// repetitions after the first play (N + 1 plays, as browsers and Wuffs read it), 0 means
    /// forever, and no looping extension means one play.
    var playCount: Int {
        guard let storedLoopCount else { return 1 }
        return storedLoopCount == 0 ? 0 : storedLoopCount + 1
    }
}
