import ImageCore

/// Makes TST1 files and the images they decode to.
public enum FakeImageFile {
    /// The sample at (x, y) of the image made with `seed`: a deterministic pattern.
    public static func sample(x: Int, y: Int, seed: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: x &* 7 &+ y &* 13 &+ seed &* 31 &+ (x &* y) >> 3)
    }

    /// The encoded TST1 file of a `width` × `height` image.
    public static func bytes(width: Int, height: Int, seed: Int = 0) -> [UInt8] {
        var out = FakeRowDecoder.signature
        out += [UInt8(truncatingIfNeeded: width >> 8), UInt8(truncatingIfNeeded: width),
                UInt8(truncatingIfNeeded: height >> 8), UInt8(truncatingIfNeeded: height)]
        for y in 0..<height { for x in 0..<width { out.append(sample(x: x, y: y, seed: seed)) } }
        return out
    }

    /// The image `bytes(width:height:seed:)` decodes to at full scale.
    public static func image(width: Int, height: Int, seed: Int = 0) -> Image {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height)
        for y in 0..<height { for x in 0..<width { pixels.append(sample(x: x, y: y, seed: seed)) } }
        return Image(width: width, height: height, format: .gray8, pixels: pixels)
    }
}
