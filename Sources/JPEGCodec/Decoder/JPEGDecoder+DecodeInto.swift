import ImageCore

extension JPEGDecoder {
    /// The header of the JPEG that `bytes` begin with, or nil if they end before its frame header
    /// (SOF). Parses the marker segments up to the frame header only and allocates no picture, so
    /// a caller can size its own buffer for ``decode(_:into:bytesPerRow:)``. `header.pixelFormat`
    /// is the format ``decode(_:into:bytesPerRow:)`` writes: gray8, rgb8, or cmyk8 when
    /// `options.preferredFormat` asks for it; gray16 or rgb16 (big-endian samples) for 12-bit
    /// files and lossless files above 8 bits.
    public static func readHeader(_ bytes: UnsafeRawBufferPointer, options: DecodingOptions = DecodingOptions()) throws -> ImageHeader? {
        let decoder = JPEGDecoder(options: options)
        decoder.output = .headerOnly
        try decoder.feed(bytes)
        return decoder.header
    }

    /// Decodes a whole JPEG straight into memory the caller owns, for callers that keep pictures
    /// in their own buffers (a texture, a bitmap context, a memory-mapped file): the decoder
    /// allocates no picture, only its working rows (a few hundred KB).
    ///
    /// Rows are written top down in the natural pixel format (see ``readHeader(_:options:)``),
    /// `bytesPerRow` apart (at least width × bytes per pixel); `destination` must hold
    /// `height × bytesPerRow` bytes, else nothing is decoded and `limitExceeded` is thrown. Errors
    /// are those of ``finish()``: after a `truncated` or damaged-data error, the rows decoded are
    /// in `destination` (the rest zero), as ``currentImage()`` would show them. The decoder is
    /// used up by this call; make one per picture.
    @discardableResult
    public func decode(_ bytes: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer,
                       bytesPerRow: Int) throws -> ImageHeader {
        guard case .signature = phase, input.totalAppended == 0 else {
            throw ImageDecodingError(.internal, at: input.totalAppended, "decode(into:) needs a fresh decoder")
        }
        if let preferred = options.preferredFormat, preferred != .cmyk8 {
            throw ImageDecodingError(.unsupported, at: 0,
                                     "decode(into:) writes the natural pixel format; preferredFormat \(preferred) is not applied")
        }
        output = .callerMemory(destination, bytesPerRow: bytesPerRow)
        // The caller's memory is valid for this call only: no worker may write to it afterwards.
        defer {
            pipeline?.waitForJobs()
            preview?.dropEarlyBand()
            output = .headerOnly
        }
        do {
            try feed(bytes)
            try finishInput()
            completeCallerRows()
        } catch let error as ImageDecodingError {
            // What was decoded is drawn (progressive: from the coefficients so far) and the rest zeroed.
            completeCallerRows()
            throw error
        }
        guard let header else { throw ImageDecodingError(.internal, at: input.consumedOffset, "JPEG decoded without a header") }
        return header
    }

    /// Checks, at the frame header, that the caller's memory holds the picture.
    func checkCallerMemory(_ memory: UnsafeMutableRawBufferPointer, bytesPerRow: Int, layout: FrameLayout, at offset: Int) throws {
        let rowBytes = layout.outputWidth * naturalFormat.bytesPerPixel
        let (needed, overflow) = bytesPerRow.multipliedReportingOverflow(by: layout.outputHeight)
        guard bytesPerRow >= rowBytes, !overflow, memory.count >= needed, memory.baseAddress != nil else {
            throw ImageDecodingError(.limitExceeded, at: offset,
                                     "the destination holds \(memory.count) bytes with \(bytesPerRow) per row; the \(layout.outputWidth)×\(layout.outputHeight) picture needs \(rowBytes) per row and \(overflow ? Int.max : needed) in all")
        }
    }

    /// Calls `body` with the first byte of the picture being written and the bytes per row, if
    /// there is one (not before the frame header, nor for ``readHeader(_:options:)``).
    func withPixelRows<Result>(_ body: (UnsafeMutablePointer<UInt8>, Int) -> Result) -> Result? {
        switch output {
        case .ownPicture:
            let bytesPerRow = (header?.width ?? 0) * naturalFormat.bytesPerPixel
            return canvas.withUnsafeMutableBufferPointer { pixels in pixels.baseAddress.map { body($0, bytesPerRow) } }
        case .callerMemory(let memory, let bytesPerRow):
            guard let base = memory.baseAddress else { return nil }
            return body(base.bindMemory(to: UInt8.self, capacity: memory.count), bytesPerRow)
        case .headerOnly:
            return nil
        }
    }

    /// Draws what can be drawn and zeroes the caller's rows not written (after an error).
    private func completeCallerRows() {
        drainPipeline()
        renderDirtyRows()
        guard let header else { return }
        _ = withPixelRows { base, bytesPerRow in
            let rowBytes = header.width * naturalFormat.bytesPerPixel
            for y in canvasRowsWritten..<header.height { (base + y * bytesPerRow).update(repeating: 0, count: rowBytes) }
        }
        canvasRowsWritten = header.height
        noteCompletedRows()
    }
}
