import ImageCore

/// The block layer: reads elements from ``GIFBlockReader`` and acts on them. Each element is
/// acted on once, then committed; a step that needs more bytes waits without consuming.
extension GIFDecoder {
    /// Graphic Control Extension label (GIF89a section 23).
    static let graphicControlLabel: UInt8 = 0xF9

    /// Decodes until the buffered input is used up, the next frame must wait for `nextFrame()`,
    /// or the file has ended.
    func advance() throws {
        while true {
            guard let step = try reader.peek(input.readable) else { return }
            let offset = reader.offset
            switch step.token {
            case .header(let screen, let table):
                try readHeader(screen, globalColorTable: table, at: offset)
            case .extensionSubBlock(let label, let index, let data):
                if label == Self.graphicControlLabel && index == 0 { readGraphicControl(data, at: offset) }
            case .extensionEnd, .structure:
                break
            case .image(let descriptor, let table, let minimumCodeSize):
                // The decoder stays at most one frame ahead of `nextFrame()`.
                guard readyFrame == nil else { return }
                try startFrame(descriptor, localColorTable: table, minimumCodeSize: minimumCodeSize,
                               codeSizeOffset: offset + step.length - 1)
            case .imageData(let data):
                try decodeImageData(data, at: offset)
            case .imageEnd:
                endFrame()
            case .trailer:
                break
            case .unknownBlock(let byte):
                warn(.invalidData, at: offset, "GIF byte 0x\(String(byte, radix: 16)) starts no block; decoding stops here as in browsers")
            }
            reader.commit(step)
            input.consume(step.length)
            if reader.stage == .ended {
                input.consumeAll()
                return
            }
        }
    }

    /// Signature, Logical Screen Descriptor (GIF89a section 18), global colour table (section 19).
    private func readHeader(_ screen: GIFScreenDescriptor, globalColorTable: UnsafeRawBufferPointer, at offset: Int) throws {
        _ = try options.limits.checkDimensions(width: screen.width, height: screen.height, at: offset + 6, format: "GIF")
        globalColors = Array(globalColorTable)
        canvas = RGBACanvas(width: screen.width, height: screen.height)
        header = ImageHeader(fileFormat: .gif, width: screen.width, height: screen.height,
                             pixelFormat: options.preferredFormat ?? .rgba8, bitDepth: 8, isProgressive: false)
        previewGeneration += 1   // the (transparent) picture exists from here on
    }

    /// Graphic Control Extension (GIF89a section 23): applies to the next image only.
    private func readGraphicControl(_ data: UnsafeRawBufferPointer, at offset: Int) {
        guard data.count >= GIFGraphicControl.size else {
            warn(.invalidData, at: offset, "GIF Graphic Control Extension has \(data.count) data bytes, expected 4; ignored")
            return
        }
        pendingControl = GIFGraphicControl(data)
    }

    /// Image Descriptor (GIF89a section 20): applies the last frame's disposal, then sets the frame up.
    private func startFrame(_ descriptor: GIFImageDescriptor, localColorTable: UnsafeRawBufferPointer,
                            minimumCodeSize: Int, codeSizeOffset: Int) throws {
        guard let canvas else { throw ImageDecodingError(.internal, at: codeSizeOffset, "GIF image before the header") }
        guard minimumCodeSize <= LZWDecoder.maxLiteralWidth else {
            throw ImageDecodingError(.invalidData, at: codeSizeOffset,
                                     "GIF LZW minimum code size \(minimumCodeSize) exceeds \(LZWDecoder.maxLiteralWidth)")
        }
        pendingDisposal.apply(to: canvas)
        pendingDisposal = .keep
        let control = pendingControl ?? .absent
        pendingControl = nil
        let rgb = descriptor.localColorCount > 0 ? Array(localColorTable) : globalColors
        let started = FrameDecoding(index: completedFrames, descriptor: descriptor, canvasWidth: canvas.width,
                                    canvasHeight: canvas.height, control: control,
                                    colors: ColorTable(rgb: rgb, transparentIndex: control.transparentIndex))
        if control.disposal == .previous {
            pendingDisposal = .restore(started.region, saved: canvas.copy(started.region))
        } else if control.disposal == .background {
            pendingDisposal = .clear(started.region)
        }
        if completedFrames == 0 { header?.isProgressive = descriptor.isInterlaced }
        lzw.start(literalWidth: minimumCodeSize, width: descriptor.width, height: descriptor.height)
        frame = started
    }

    /// Table-based image data (GIF89a section 22), as much as has arrived.
    private func decodeImageData(_ data: UnsafeRawBufferPointer, at offset: Int) throws {
        guard let frame, let canvas else { return }
        defer {
            if frame.index == 0 {
                firstFrameRows = frame.visibleRowsWritten
                firstFramePasses = frame.completedPasses
            }
        }
        lzwBytesExamined += try lzw.decode(data, at: offset) { indices, count in frame.takeRow(indices, count: count, canvas: canvas) }
    }

    /// The block terminator after the image data: the frame is complete.
    private func endFrame() {
        guard let frame, let canvas else { return }
        lzw.flushPartialRow { indices, count in frame.takeRow(indices, count: count, canvas: canvas) }
        if frame.index == 0 { firstFrameRows = frame.visibleRowsWritten }
        let image = canvas.image()
        if frame.index == 0 {
            firstFrameImage = image
            firstFramePasses = frame.completedPasses
        }
        readyFrame = AnimationFrame(index: frame.index, image: image,
                                    duration: Double(frame.control.delayCentiseconds) / 100,
                                    region: frame.region, regionImage: frame.regionImage(),
                                    disposal: frame.control.disposal, blend: .over)
        completedFrames += 1
        self.frame = nil
    }
}
