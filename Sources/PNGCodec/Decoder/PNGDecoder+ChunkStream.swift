import Deflate
import ImageCore

/// The chunk layer (PNG 5.3): signature, chunk headers, buffered or streamed chunk data, CRCs.
/// Each step first checks that the bytes it needs are buffered and otherwise returns without
/// consuming anything, so a chunk header is parsed exactly once however the input is split.
extension PNGDecoder {
    /// Runs the stages until the buffered input is used up or IEND is reached.
    func advance() throws {
        while true {
            let available = input.readable
            switch stage {
            case .signature:
                guard PNGSignature.matches(available) else { throw signatureError(available) }
                guard available.count >= PNGSignature.bytes.count else { return }
                parserBytesExamined += PNGSignature.bytes.count
                input.consume(PNGSignature.bytes.count)
                stage = .chunkHeader
            case .chunkHeader:
                guard available.count >= ChunkHeader.size else { return }
                let chunk = try ChunkHeader.parse(available, at: input.consumedOffset)
                parserBytesExamined += ChunkHeader.size
                chunkCRC = CRC32()
                chunkCRC.update(UnsafeRawBufferPointer(rebasing: available[4..<8]))
                input.consume(ChunkHeader.size)
                stage = try route(chunk)
            case .bufferedChunk(let chunk):
                guard available.count >= chunk.length + ChunkHeader.crcSize else { return }
                let data = UnsafeRawBufferPointer(rebasing: available[0..<chunk.length])
                chunkCRC.update(data)
                let intact = try crcMatches(chunk, stored: readUInt32(available, chunk.length))
                parserBytesExamined += chunk.length + ChunkHeader.crcSize
                if intact { try process(chunk, data) } else { droppedDamagedChunk(chunk) }
                input.consume(chunk.length + ChunkHeader.crcSize)
                if case .finished = stage { return }
                stage = .chunkHeader
            case .imageData(let chunk, let remaining):
                let count = handOver.count(available: available.count, remaining: remaining, at: input.consumedOffset)
                guard count > 0 || remaining == 0 else { return }
                try streamImageData(chunk, remaining: remaining, from: available, count: count, at: input.consumedOffset)
                input.consume(count)
            case .skippedChunk(let chunk, let remaining):
                let count = min(remaining, available.count)
                guard count > 0 || remaining == 0 else { return }
                chunkCRC.update(UnsafeRawBufferPointer(rebasing: available[0..<count]))
                parserBytesExamined += count
                input.consume(count)
                stage = remaining == count ? .chunkCRC(chunk) : .skippedChunk(chunk, remaining: remaining - count)
            case .animationData(let chunk, let remaining):
                guard let next = advanceAnimationData(chunk, remaining: remaining, available) else { return }
                stage = next
            case .chunkCRC(let chunk):
                guard available.count >= ChunkHeader.crcSize else { return }
                let intact = try crcMatches(chunk, stored: readUInt32(available, 0))
                if apng != nil { streamedChunkChecked(chunk, intact: intact) }
                parserBytesExamined += ChunkHeader.crcSize
                input.consume(ChunkHeader.crcSize)
                stage = .chunkHeader
            case .finished:
                return
            }
        }
    }

    /// Streams the first `count` bytes (at most `remaining`) of `available`, the next bytes of an
    /// IDAT chunk's data, found at file offset `offset`, into the CRC and the inflater and moves
    /// the stage on.
    func streamImageData(_ chunk: ChunkHeader, remaining: Int, from available: UnsafeRawBufferPointer,
                         count: Int, at offset: Int) throws {
        // Built from the base address, not by slicing: this runs once per `feed`.
        let data = UnsafeRawBufferPointer(start: available.baseAddress, count: count)
        chunkCRC.update(data)
        parserBytesExamined += count
        if count > 0 { try inflate(data, at: offset) }
        stage = remaining == count ? .chunkCRC(chunk) : .imageData(chunk, remaining: remaining - count)
    }

    /// Decides how a chunk is read, after the ordering rules (PNG 5.6).
    func route(_ chunk: ChunkHeader) throws -> Stage {
        let disposition = try order.admit(chunk, colorType: ihdr?.colorType)
        if chunk.type != .IDAT && order.sawIDAT { try checkImageDataComplete(at: chunk.offset) }
        if case .ignore(let reason) = disposition {
            warn(chunk, reason)
            return .skippedChunk(chunk, remaining: chunk.length)
        }
        if let animationStage = routeAnimationChunk(chunk) { return animationStage }
        switch chunk.type {
        case .IHDR:
            guard chunk.length == IHDRChunk.length else {
                throw ImageDecodingError(.invalidData, at: chunk.offset,
                                         "PNG IHDR declares length \(chunk.length), expected \(IHDRChunk.length)")
            }
            return .bufferedChunk(chunk)
        case .PLTE:
            guard chunk.length <= Palette.maxEntries * 3 else {
                throw ImageDecodingError(.invalidData, at: chunk.offset,
                                         "PNG PLTE declares length \(chunk.length); at most 768 (256 entries) is allowed")
            }
            return .bufferedChunk(chunk)
        case .IDAT:
            try startImageData(at: chunk.offset)
            return .imageData(chunk, remaining: chunk.length)
        case .IEND:
            guard chunk.length == 0 else {
                throw ImageDecodingError(.invalidData, at: chunk.offset, "PNG IEND declares length \(chunk.length); it must be empty")
            }
            return .bufferedChunk(chunk)
        case .tRNS:
            guard chunk.length <= Palette.maxEntries else {
                warn(chunk, "tRNS declares \(chunk.length) bytes, more than any image type allows")
                return .skippedChunk(chunk, remaining: chunk.length)
            }
            return .bufferedChunk(chunk)
        default:
            guard MetadataReader.handles(chunk.type) else { return .skippedChunk(chunk, remaining: chunk.length) }
            let maxLength = metadataReader.maxLength(of: chunk.type)
            guard chunk.length <= maxLength else {
                if [ChunkType.tEXt, .zTXt, .iTXt, .iCCP, .eXIf].contains(chunk.type) {
                    throw ImageDecodingError(.limitExceeded, at: chunk.offset,
                                             "PNG \(chunk.type) declares \(chunk.length) bytes, more than the \(maxLength) bytes of metadata still allowed")
                }
                warn(chunk, "\(chunk.type) declares \(chunk.length) bytes, at most \(maxLength) expected")
                return .skippedChunk(chunk, remaining: chunk.length)
            }
            return .bufferedChunk(chunk)
        }
    }
}
