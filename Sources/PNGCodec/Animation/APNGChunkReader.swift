import ImageCore

/// Checks the animation chunks as the parser meets them (APNG spec, "Chunk sequence numbers"
/// and the fcTL/fdAT rules) and says what each contributes. Every rule broken is thrown with the
/// offset of the field at fault; the caller turns it into the animation's last event.
///
/// - fcTL and fdAT share one sequence of numbers from 0 without gaps or repeats.
/// - An fcTL before IDAT makes the IDAT image frame 0: its region must be the whole canvas, and
///   no fdAT may belong to it. Every later fcTL must be followed by at least one fdAT.
/// - fdAT comes only after IDAT and an fcTL.
/// - The file holds exactly as many fcTL chunks as acTL declares.
struct APNGChunkReader {
    /// Where the frame being read stands.
    private enum FrameState {
        /// No fcTL read yet (or only the default image's, before IDAT started).
        case none
        /// The fcTL before IDAT: the IDAT image is frame 0.
        case defaultImage
        /// An fcTL after IDAT, no fdAT yet.
        case awaitingData(FrameControl)
        /// An fcTL after IDAT and at least one fdAT.
        case receivingData
    }

    /// acTL, once read (an fcTL may come before it: the spec orders acTL only before IDAT).
    private(set) var control: AnimationControl?
    let canvasWidth: Int
    let canvasHeight: Int
    private var nextSequence: UInt32 = 0
    private var controlsRead = 0
    private var frame = FrameState.none
    /// IDAT has begun: from here on fcTL chunks start fdAT frames.
    private(set) var imageDataStarted = false
    /// Whether the IDAT image is frame 0 (an fcTL came before IDAT).
    private(set) var defaultImageIsFrame = false

    init(canvasWidth: Int, canvasHeight: Int) {
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
    }

    /// The acTL chunk: fcTL chunks read before it must not outnumber its frames.
    mutating func readAnimationControl(_ control: AnimationControl, chunk: ChunkHeader) throws {
        self.control = control
        guard controlsRead <= control.frameCount else {
            throw ImageDecodingError(.invalidData, at: chunk.offset,
                                     "APNG acTL declares \(control.frameCount) frames after \(controlsRead) fcTL chunks")
        }
    }

    /// The first IDAT chunk's header was read.
    mutating func startImageData() {
        imageDataStarted = true
    }

    /// A whole fcTL chunk (data without CRC). Returns the event for it.
    mutating func readFrameControl(_ data: UnsafeRawBufferPointer, chunk: ChunkHeader) throws -> APNGEventQueue.Event {
        let parsed = try FrameControl.parse(data, chunk: chunk, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        try checkSequence(parsed.sequenceNumber, at: chunk.dataOffset, in: "fcTL")
        controlsRead += 1
        if let control, controlsRead > control.frameCount {
            throw ImageDecodingError(.invalidData, at: chunk.offset,
                                     "APNG fcTL number \(controlsRead), but acTL declares \(control.frameCount) frames")
        }
        if case .awaitingData(let open) = frame {
            throw ImageDecodingError(.invalidData, at: chunk.offset,
                                     "APNG frame \(controlsRead - 2) (fcTL at offset \(open.chunkOffset)) has no fdAT chunk")
        }
        guard imageDataStarted else {
            // The default image's fcTL (APNG spec: offsets 0, size equal to IHDR's).
            guard controlsRead == 1 else {
                throw ImageDecodingError(.invalidData, at: chunk.offset, "a second APNG fcTL before IDAT: frame 0 would have no data")
            }
            let region = parsed.region
            guard region.x == 0, region.y == 0, region.width == canvasWidth, region.height == canvasHeight else {
                throw ImageDecodingError(.invalidData, at: chunk.dataOffset + 4,
                                         "APNG fcTL of the default image is \(region.width)×\(region.height) at (\(region.x), \(region.y)); it must be the whole \(canvasWidth)×\(canvasHeight) canvas")
            }
            frame = .defaultImage
            defaultImageIsFrame = true
            return .control(parsed, isDefaultImage: true)
        }
        frame = .awaitingData(parsed)
        return .control(parsed, isDefaultImage: false)
    }

    /// An fdAT chunk's header: checks that it may come here and carries a sequence number.
    func admitFrameData(_ chunk: ChunkHeader) throws {
        guard chunk.length >= 4 else {
            throw ImageDecodingError(.invalidData, at: chunk.offset, "APNG fdAT is \(chunk.length) bytes long; its sequence number alone takes 4")
        }
        guard imageDataStarted else {
            throw ImageDecodingError(.invalidData, at: chunk.offset, "APNG fdAT before IDAT")
        }
        switch frame {
        case .awaitingData, .receivingData: return
        case .none, .defaultImage:
            throw ImageDecodingError(.invalidData, at: chunk.offset, "APNG fdAT without an fcTL for its frame")
        }
    }

    /// An fdAT chunk's sequence number (the first 4 data bytes).
    mutating func readFrameDataSequence(_ number: UInt32, chunk: ChunkHeader) throws {
        try checkSequence(number, at: chunk.dataOffset, in: "fdAT")
        frame = .receivingData
    }

    /// IEND: every declared frame must have come, the last with data.
    func end(at chunk: ChunkHeader) throws {
        if case .awaitingData = frame {
            throw ImageDecodingError(.invalidData, at: chunk.offset, "APNG frame \(controlsRead - 1) has no fdAT chunk before IEND")
        }
        let declared = control?.frameCount ?? 0
        guard controlsRead == declared else {
            throw ImageDecodingError(.invalidData, at: chunk.offset,
                                     "APNG acTL declares \(declared) frames, the file holds \(controlsRead) fcTL chunks")
        }
    }

    private mutating func checkSequence(_ number: UInt32, at offset: Int, in type: String) throws {
        guard number == nextSequence else {
            throw ImageDecodingError(.invalidData, at: offset,
                                     "APNG \(type) has sequence number \(number), expected \(nextSequence)")
        }
        nextSequence &+= 1
    }
}
