/// What precedes the pixels of a VP8L image stream (RFC 9649 sections 4–6, after the 5-byte
/// header): the transforms with their sub-images and the main image's prefix codes.
struct VP8LStreamHeader {
    /// In bitstream order; decoding undoes them last to first.
    var transforms: [VP8LTransform]
    /// The main image's codes.
    var codes: VP8LEntropyCodes
    /// Width of the coded pixels (narrower than the image when palette indices are packed).
    var codedWidth: Int

    /// Reads the header of a `width × height` image. All-or-nothing: throws
    /// ``VP8LFailure/needMoreData`` when the reader's window ends inside it.
    static func read(_ codeReader: inout VP8LCodeReader, width: Int, height: Int) throws(VP8LFailure) -> VP8LStreamHeader {
        var transforms: [VP8LTransform] = []
        var seenTypes = 0
        var codedWidth = width
        while codeReader.reader.read(1) == 1 {
            let type = Int(codeReader.reader.read(2))
            try codeReader.checkInput()
            guard seenTypes & (1 << type) == 0 else { throw codeReader.failure("VP8L transform type \(type) appears twice") }
            seenTypes |= 1 << type
            switch type {
            case 0, 1:
                let sizeBits = Int(codeReader.reader.read(3)) + 2
                let blocksPerRow = subsampledSize(codedWidth, sizeBits)
                let data = try codeReader.readSubImage(width: blocksPerRow, height: subsampledSize(height, sizeBits))
                transforms.append(type == 0
                    ? .predictor(sizeBits: sizeBits, blocksPerRow: blocksPerRow, modes: data, width: codedWidth)
                    : .color(sizeBits: sizeBits, blocksPerRow: blocksPerRow, elements: data, width: codedWidth))
            case 2:
                transforms.append(.subtractGreen)
            default:
                let colorCount = Int(codeReader.reader.read(8)) + 1
                let widthBits = colorCount > 16 ? 0 : colorCount > 4 ? 1 : colorCount > 2 ? 2 : 3
                let stored = try codeReader.readSubImage(width: colorCount, height: 1)
                // Section 4.4: entries are stored as differences from the previous entry, per channel.
                var palette = [UInt32](repeating: 0, count: 1 << (8 >> widthBits))
                var previous: UInt32 = 0
                for (i, delta) in stored.enumerated() {
                    previous = VP8LPixelArithmetic.add(previous, delta)
                    palette[i] = previous
                }
                transforms.append(.colorIndexing(widthBits: widthBits, palette: palette, width: codedWidth))
                codedWidth = subsampledSize(codedWidth, widthBits)
            }
        }
        try codeReader.checkInput()
        let codes = try codeReader.readMainCodes(width: codedWidth, height: height)
        try codeReader.checkInput()
        return VP8LStreamHeader(transforms: transforms, codes: codes, codedWidth: codedWidth)
    }
}
