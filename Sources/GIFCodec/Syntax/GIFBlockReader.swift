import ImageCore

/// The GIF block grammar (GIF89a Appendix B) as a resumable reader: ``peek(_:)`` looks at the
/// buffered bytes and says what the next element is and how many bytes it spans, without
/// changing anything; ``commit(_:)`` moves past it. A step that needs more bytes than are
/// buffered returns nil, so each element is parsed once however the input is split.
///
/// Small structures (header and global table, image descriptor with its local table, one
/// extension sub-block) are handed out whole once buffered: at most 13 + 768 bytes. Image data
/// is handed out as it arrives, in pieces of one sub-block or less.
struct GIFBlockReader {
    /// Where the reader stands.
    enum Stage: Equatable {
        /// Before the signature and Logical Screen Descriptor.
        case header
        /// Between blocks: an extension, an image, the trailer (or, in files cut short, the end).
        case blockStart
        /// Inside an extension, before its sub-block number `index`.
        case extensionSubBlock(label: UInt8, index: Int)
        /// Inside an image's data, before a sub-block's length byte.
        case imageSubBlockSize
        /// Inside an image data sub-block with `remaining` bytes to go.
        case imageSubBlockData(remaining: Int)
        /// After the trailer or a byte that starts no block: later bytes are ignored.
        case ended
    }

    /// One element and where it leaves the reader.
    struct Step {
        let token: GIFToken
        /// Bytes it spans.
        let length: Int
        let next: Stage
    }

    /// `GIF87a` / `GIF89a` (GIF89a section 17) plus the 7-byte screen descriptor.
    static let headerSize = 6 + GIFScreenDescriptor.size
    /// `2C`, the 9-byte descriptor; the local table and the code size byte follow.
    static let imageDescriptorSize = 1 + GIFImageDescriptor.size

    private(set) var stage = Stage.header
    /// Stream offset of the next byte.
    private(set) var offset = 0
    /// Bytes read by committed steps, not counting image data (its reader counts that).
    private(set) var structureBytesExamined = 0

    /// Whether input of `totalBytes` bytes, all parsed as far as they go, is a whole file: the
    /// trailer was read, or the input stops exactly between blocks (browsers accept a missing
    /// trailer). Anything else (a partial block buffered, or inside a block) is a cut.
    func isWholeFile(totalBytes: Int) -> Bool {
        stage == .ended || (stage == .blockStart && offset == totalBytes)
    }

    /// The next element in `bytes` (the buffered input from ``offset`` on), or nil if more input is needed.
    ///
    /// - Throws: `invalidSignature` when the first bytes are not `GIF87a` or `GIF89a`.
    func peek(_ bytes: UnsafeRawBufferPointer) throws -> Step? {
        let available = bytes.count
        switch stage {
        case .header:
            try Self.checkSignature(bytes)
            guard available >= Self.headerSize else { return nil }
            let screen = GIFScreenDescriptor(UnsafeRawBufferPointer(rebasing: bytes[6..<Self.headerSize]))
            let length = Self.headerSize + 3 * screen.globalColorCount
            guard available >= length else { return nil }
            let table = UnsafeRawBufferPointer(rebasing: bytes[Self.headerSize..<length])
            return Step(token: .header(screen, globalColorTable: table), length: length, next: .blockStart)
        case .blockStart:
            guard available >= 1 else { return nil }
            switch bytes[0] {
            case 0x21:  // Extension Introducer (GIF89a section 23 ff.), then the label.
                guard available >= 2 else { return nil }
                return Step(token: .structure, length: 2, next: .extensionSubBlock(label: bytes[1], index: 0))
            case 0x2C:  // Image Separator (GIF89a section 20).
                guard available >= Self.imageDescriptorSize else { return nil }
                let descriptor = GIFImageDescriptor(UnsafeRawBufferPointer(rebasing: bytes[1..<Self.imageDescriptorSize]))
                let tableEnd = Self.imageDescriptorSize + 3 * descriptor.localColorCount
                guard available >= tableEnd + 1 else { return nil }
                let table = UnsafeRawBufferPointer(rebasing: bytes[Self.imageDescriptorSize..<tableEnd])
                return Step(token: .image(descriptor, localColorTable: table, minimumCodeSize: Int(bytes[tableEnd])),
                            length: tableEnd + 1, next: .imageSubBlockSize)
            case 0x3B:
                return Step(token: .trailer, length: 1, next: .ended)
            case let other:
                return Step(token: .unknownBlock(other), length: 1, next: .ended)
            }
        case .extensionSubBlock(let label, let index):
            guard available >= 1 else { return nil }
            let size = Int(bytes[0])
            if size == 0 { return Step(token: .extensionEnd(label: label), length: 1, next: .blockStart) }
            guard available >= 1 + size else { return nil }
            return Step(token: .extensionSubBlock(label: label, index: index, data: UnsafeRawBufferPointer(rebasing: bytes[1...size])),
                        length: 1 + size, next: .extensionSubBlock(label: label, index: index + 1))
        case .imageSubBlockSize:
            guard available >= 1 else { return nil }
            let size = Int(bytes[0])
            if size == 0 { return Step(token: .imageEnd, length: 1, next: .blockStart) }
            return Step(token: .structure, length: 1, next: .imageSubBlockData(remaining: size))
        case .imageSubBlockData(let remaining):
            guard available >= 1 else { return nil }
            let count = min(remaining, available)
            return Step(token: .imageData(UnsafeRawBufferPointer(rebasing: bytes[0..<count])), length: count,
                        next: count == remaining ? .imageSubBlockSize : .imageSubBlockData(remaining: remaining - count))
        case .ended:
            return nil
        }
    }

    /// Moves past a step returned by ``peek(_:)``.
    mutating func commit(_ step: Step) {
        offset += step.length
        if case .imageData = step.token {} else { structureBytesExamined += step.length }
        stage = step.next
    }

    /// Checks as many signature bytes as are buffered, so a foreign file fails at once.
    private static func checkSignature(_ bytes: UnsafeRawBufferPointer) throws {
        // "GIF", "8", then "7" or "9", then "a".
        let allowed: [[UInt8]] = [[0x47], [0x49], [0x46], [0x38], [0x37, 0x39], [0x61]]
        for (position, choices) in allowed.enumerated() where position < bytes.count {
            guard choices.contains(bytes[position]) else {
                let seen = bytes.prefix(6).map { byte in
                    (32...126).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
                }.joined()
                throw ImageDecodingError(.invalidSignature, at: position,
                                         "GIF signature must be GIF87a or GIF89a; the file starts with \"\(seen)\"")
            }
        }
    }
}
