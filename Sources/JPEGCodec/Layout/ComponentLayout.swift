/// The geometry of one component at the chosen output scale.
///
/// Example: 4:2:0 chroma of a 227×149 image at full scale: sampling 1×1 with Hmax = Vmax = 2,
/// blockSize 8, widthInBlocks 15, blocksPerLine 16 (8 MCUs × 1), downsampledWidth 114,
/// downsampledHeight 75, rowsPerIMCU 8, upsampling h2v2Fancy.
struct ComponentLayout {
    /// Position in the frame header.
    var index: Int
    /// Sampling factors.
    var horizontalSampling: Int
    var verticalSampling: Int
    /// Quantization table slot from the frame header.
    var quantizationTable: Int
    /// Side of the IDCT output for one block: 8, 4, 2 or 1 (libjpeg's DCT_scaled_size).
    var blockSize: Int
    /// Blocks that hold image samples: ceil(ceil(X·H/Hmax) / 8) (T.81 A.1.1).
    var widthInBlocks: Int
    var heightInBlocks: Int
    /// Blocks per row including MCU padding (MCUs per row × H).
    var blocksPerLine: Int
    /// Block rows including MCU padding (MCU rows × V).
    var blockRows: Int
    /// Samples per row and rows after IDCT scaling that belong to the image (libjpeg's downsampled_width/height).
    var downsampledWidth: Int
    var downsampledHeight: Int
    /// Sample rows in one iMCU row: V × blockSize.
    var rowsPerIMCU: Int
    /// How samples are stretched to the output.
    var upsampling: UpsamplingMethod
    /// Output pixels per sample across and down.
    var horizontalExpansion: Int
    var verticalExpansion: Int
}
