import ImageCore

/// What the frame header (SOF) fixes for the rest of the image, built once when it is parsed.
struct FrameState {
    /// The parsed SOFn segment.
    let frame: FrameHeader
    /// Block and output geometry (scaled).
    let layout: FrameLayout
    /// Per frame component: its quantization table is latched (at the start of its first scan).
    var componentHasQuantization: [Bool]
    /// Per frame component: some scan coded it (one that never is decodes as zero; EOI warns).
    var componentWasScanned: [Bool]

    init(frame: FrameHeader, layout: FrameLayout) {
        self.frame = frame
        self.layout = layout
        componentHasQuantization = Array(repeating: false, count: frame.components.count)
        componentWasScanned = Array(repeating: false, count: frame.components.count)
    }
}

/// How decoded data becomes the picture, chosen at the first scan for the whole image. Each case
/// holds exactly what that way needs, so no combination of parts can be half set up.
enum PictureAssembly {
    /// DCT frames: the coefficients, and how blocks become pixel rows.
    case dct(store: CoefficientStore, drawing: BlockDrawing)
    /// Lossless frames: samples reconstructed straight into sample planes.
    case lossless(LosslessPicture)
}

/// How a DCT frame's blocks become pixel rows.
enum BlockDrawing {
    /// One sequential 8-bit scan coding every component: each iMCU row is transformed and written
    /// to the picture as it completes, from a ring of coefficient rows; on two threads
    /// (``DecodingOptions/maximumThreads``) the `pipeline` runs the IDCTs on a worker.
    case streaming(renderer: BlockRowRenderer, pipeline: TransformPipeline?)
    /// Sequential 8-bit scans that each code some of the components: whole-image coefficients,
    /// iMCU rows redrawn when a scan changed them.
    case multiScan(renderer: BlockRowRenderer)
    /// Sequential 12-bit scans: whole-image raw coefficients drawn by iMCU rows in 16-bit samples.
    case twelveBit(renderer: TwelveBitRenderer)
    /// Progressive scans (8- and 12-bit): raw coefficients refined scan by scan, pictures drawn by
    /// the preview (through `twelveBit` for 12-bit files); on two threads the `worker` decodes
    /// whole buffered scans.
    case progressive(preview: ProgressivePreview, twelveBit: TwelveBitRenderer?, worker: ScanWorker?)

    /// Whether the whole image's coefficients are kept, so scans after the first are possible.
    var keepsWholeImage: Bool {
        if case .streaming = self { return false }
        return true
    }
}

/// The scan under way: the state that holds only between its SOS segment and the end of its data.
enum ActiveScan {
    /// A DCT scan (sequential or progressive; Huffman or arithmetic).
    case dct(DCTScan)
    /// A lossless scan.
    case lossless(LosslessScanDecoder)
}

/// A DCT scan under way: its header, its entropy decoder and what it decodes into.
///
/// A class, so the phase that carries it is one reference: the feed path reads the phase on
/// every piece, and copying a struct of five references there costs more than decoding a byte.
final class DCTScan {
    let header: ScanHeader
    let decoder: any ScanEntropyDecoding
    let store: CoefficientStore
    let drawing: BlockDrawing
    /// Two threads, progressive: the scan is still to be placed (handed to the worker, or decoded
    /// here), which waits until its data has begun to arrive.
    var awaitsPlacement: Bool

    init(header: ScanHeader, decoder: any ScanEntropyDecoding, store: CoefficientStore, drawing: BlockDrawing,
         awaitsPlacement: Bool) {
        self.header = header
        self.decoder = decoder
        self.store = store
        self.drawing = drawing
        self.awaitsPlacement = awaitsPlacement
    }
}

extension JPEGDecoder {
    /// The progressive preview, if the image is progressive and its first scan has started.
    var preview: ProgressivePreview? {
        if case .dct(_, .progressive(let preview, _, _)) = assembly { return preview }
        return nil
    }

    /// The two-thread transform pipeline of a streaming sequential image, if it has one.
    var pipeline: TransformPipeline? {
        if case .dct(_, .streaming(_, let pipeline)) = assembly { return pipeline }
        return nil
    }

    /// The scan worker of a progressive image on two threads, if it has one.
    var scanWorker: ScanWorker? {
        if case .dct(_, .progressive(_, _, let worker)) = assembly { return worker }
        return nil
    }
}
