import ImageCore
import JPEGCodec
import PNGCodec
import Deflate

/// Benchmarks any ``IncrementalImageDecoder``: a fresh decoder per decode, input fed in one
/// call or chunk by chunk, then `finish()`. The output is the image in its natural format; an
/// ``AnimatedImageDecoder`` also has every frame pulled as it arrives, once it reports an animation
/// (their pixels count as output).
final class ImageDecoderRunner: DecodeRunner {
    private let makeDecoder: () -> any IncrementalImageDecoder
    /// The last decoded image, kept for the checksum (and encoded by `--encode-png`).
    private(set) var lastImage: Image?
    /// Take `currentImage()` after every chunk whose `previewGeneration` changed.
    private let takingPreviews: Bool
    /// Previews taken in the last decode.
    private(set) var previewsTaken = 0

    /// `makeDecoder` returns a new decoder with the options to benchmark.
    init(takingPreviews: Bool = false, makeDecoder: @escaping () -> any IncrementalImageDecoder) {
        self.takingPreviews = takingPreviews
        self.makeDecoder = makeDecoder
    }

    func decode(_ input: UnsafeRawBufferPointer, chunkSize: Int?) throws -> DecodeOutcome {
        lastImage = nil
        previewsTaken = 0
        let decoder = makeDecoder()
        // PNG and JPEG decoders are fed through their own types, as a caller that made one calls
        // it: direct calls, not through the protocol's witness table (which cost a byte-at-a-time
        // run more than a tenth of its time).
        if let png = decoder as? PNGDecoder { return try decode(input, chunkSize: chunkSize, with: png) }
        if let jpeg = decoder as? JPEGDecoder { return try decode(input, chunkSize: chunkSize, with: jpeg) }
        return try decode(input, chunkSize: chunkSize, with: decoder)
    }

    @inline(__always)
    private func decode<Decoder: IncrementalImageDecoder>(_ input: UnsafeRawBufferPointer, chunkSize: Int?,
                                                          with decoder: Decoder) throws -> DecodeOutcome {
        var generation = -1
        var frameBytes = 0
        let animated = decoder as? any AnimatedImageDecoder
        // A PNG is animated only if acTL comes before the first IDAT (APNG spec 4), so once rows
        // of the image have been decoded without an animation there will be none.
        let stillOnceRowsArrive = decoder is PNGDecoder
        let mayAnimate = animated != nil
        func pullFrames() throws {
            while let frame = try animated?.nextFrame() { frameBytes += frame.image.pixels.count }
        }
        if !mayAnimate && !takingPreviews {
            // Nothing to look at between pieces: the loop a caller feeding a still image runs
            // (the checks below cost a byte-at-a-time run a fifth of its time).
            try input.forEachChunk(of: chunkSize) { chunk in _ = try decoder.feed(chunk) }
        } else {
            try feedWatching(input, chunkSize: chunkSize, decoder: decoder, animated: animated, mayAnimate: mayAnimate,
                             stillOnceRowsArrive: stillOnceRowsArrive, generation: &generation, pullFrames: pullFrames)
        }
        let image = try decoder.finish()
        try pullFrames()
        lastImage = image
        return DecodeOutcome(outputBytes: max(image.pixels.count, frameBytes), width: image.width, height: image.height)
    }

    /// Feeds `input` piece by piece, pulling animation frames and taking previews as they come.
    private func feedWatching<Decoder: IncrementalImageDecoder>(_ input: UnsafeRawBufferPointer, chunkSize: Int?, decoder: Decoder,
                                                                animated: (any AnimatedImageDecoder)?, mayAnimate: Bool,
                                                                stillOnceRowsArrive: Bool, generation: inout Int,
                                                                pullFrames: () throws -> Void) throws {
        var mayAnimate = mayAnimate
        let rest = try input.forEachChunk(of: chunkSize, while: { chunk in
            let status = try decoder.feed(chunk)
            // While feeding, only once the decoder has seen an animation: asking a still image
            // after every piece (an empty `AnimationFrame?` is a large value to return) cost more
            // than feeding it a byte. A still image's one frame (GIF) comes after `finish()`.
            if mayAnimate {
                if animated?.animation != nil {
                    try pullFrames()
                } else if stillOnceRowsArrive && status.previewGeneration > 0 {
                    mayAnimate = false
                }
            }
            if takingPreviews, let now = status.progress?.previewGeneration, now != generation {
                generation = now
                if decoder.currentImage() != nil { previewsTaken += 1 }
            }
            return mayAnimate || takingPreviews
        })
        // A still image (a PNG whose rows came without an animation) and no previews: the rest
        // goes through the plain loop of a caller that only wants the final picture.
        if rest.count > 0 { try rest.forEachChunk(of: chunkSize) { chunk in _ = try decoder.feed(chunk) } }
    }

    func lastOutputCRC32() -> UInt32 {
        guard let lastImage else { return 0 }
        return lastImage.pixels.withUnsafeBytes { bytes in var crc = CRC32(); crc.update(bytes); return crc.value }
    }
}
