import Foundation
import ImageCore
import IncrementalImage

/// `imagefeed decode`: feeds a file through the incremental API and writes the result.
struct DecodeCommand {
    let options: DecodeCommandOptions

    /// Returns the exit status: 0 on success, 1 on a decoding or I/O error.
    func run() -> Int32 {
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: options.input)))
        } catch {
            ImagefeedCommand.printError("imagefeed: cannot read \(options.input): \(error.localizedDescription)")
            return 1
        }
        var decodingOptions = DecodingOptions()
        decodingOptions.scale = options.scale
        decodingOptions.colorSpace = options.colorSpace
        decodingOptions.renderingIntent = options.intent
        decodingOptions.maximumThreads = options.threads
        switch options.format {
        case .native: break
        case .rgba8: decodingOptions.preferredFormat = .rgba8
        case .cmyk8: decodingOptions.preferredFormat = .cmyk8
        }

        // ImageSource picks the decoder from the first bytes (the library's one table of formats).
        let decoder = ImageSource(options: decodingOptions)
        var frames: FrameRecorder?
        var animation: AnimationPull?
        do {
            if let directory = options.framesDirectory { frames = try FrameRecorder(directory: directory) }
            if let directory = options.animationDirectory { animation = AnimationPull(recorder: try AnimationRecorder(directory: directory)) }
            let image = try feed(bytes, to: decoder, frames: &frames, animation: &animation)
            if let output = options.output {
                try ImageFileWriter.write(image, to: output, encoder: options.pngEncoder,
                                          pamMaxValue: significantMaxValue(decoder.header, image))
            }
            return try animation?.finish(still: image, input: options.input) ?? 0
        } catch let error as ImageDecodingError {
            ImagefeedCommand.printError("imagefeed: \(options.input): \(error)")
            _ = try? animation?.finish(still: nil, input: options.input)
            if options.writePartial, let output = options.output, let partial = decoder.currentImage() {
                do {
                    try ImageFileWriter.write(partial, to: output, encoder: options.pngEncoder,
                                              pamMaxValue: significantMaxValue(decoder.header, partial))
                } catch {
                    ImagefeedCommand.printError("imagefeed: cannot write \(output): \(error.localizedDescription)")
                }
            }
            return 1
        } catch {
            ImagefeedCommand.printError("imagefeed: \(error.localizedDescription)")
            return 1
        }
    }

    /// JPEG samples are unscaled: 12-bit JPEG and lossless JPEG of P bits hold values up to
    /// 2^P − 1 (MAXVAL 4095 for 12-bit), in 8- or 16-bit samples. Nil keeps the default.
    private func significantMaxValue(_ header: ImageHeader?, _ image: Image) -> Int? {
        guard options.format == .native, let header, header.fileFormat == .jpeg, header.bitDepth != 8,
              (1...16).contains(header.bitDepth), header.bitDepth <= 8 * image.format.bytesPerSample else { return nil }
        return (1 << header.bitDepth) - 1
    }

    /// Feeds all bytes (in `--chunk` pieces), recording frames, and finishes.
    private func feed(_ bytes: [UInt8], to decoder: ImageSource, frames: inout FrameRecorder?,
                      animation: inout AnimationPull?) throws -> Image {
        let size = options.chunkSize ?? max(bytes.count, 1)
        var start = 0
        repeat {
            let end = min(start + size, bytes.count)
            try decoder.feed(bytes[start..<end])
            try frames?.recordIfChanged(decoder)
            try animation?.pull(from: decoder)
            start = end
        } while start < bytes.count
        let image: Image
        do {
            image = try decoder.finish()
        } catch {
            // Frames complete before a cut still come.
            try animation?.pull(from: decoder)
            throw error
        }
        try frames?.recordIfChanged(decoder)
        try animation?.pull(from: decoder)
        return image
    }
}
