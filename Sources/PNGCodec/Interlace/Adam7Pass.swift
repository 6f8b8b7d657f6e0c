/// One pass of the Adam7 interlace (PNG 8.2), or the single pass of a non-interlaced image.
///
/// A pass holds the pixels at `(xStart + i * xStep, yStart + j * yStep)`. For previews, each
/// pixel of a pass stands for the `blockWidth × blockHeight` rectangle whose top-left corner it
/// is: the rectangles of one pass never overlap, and after pass p the rectangles of passes
/// 1 ... p (later ones drawn over earlier ones) tile the whole image.
///
/// ```
/// 1 6 4 6 2 6 4 6      pass  start  step   block
/// 7 7 7 7 7 7 7 7       1    (0,0)  (8,8)  8×8
/// 5 6 5 6 5 6 5 6       2    (4,0)  (8,8)  4×8
/// 7 7 7 7 7 7 7 7       3    (0,4)  (4,8)  4×4
/// 3 6 4 6 3 6 4 6       4    (2,0)  (4,4)  2×4
/// 7 7 7 7 7 7 7 7       5    (0,2)  (2,4)  2×2
/// 5 6 5 6 5 6 5 6       6    (1,0)  (2,2)  1×2
/// 7 7 7 7 7 7 7 7       7    (0,1)  (1,2)  1×1
/// ```
struct Adam7Pass: Equatable {
    /// Column of the first pixel.
    let xStart: Int
    /// Row of the first pixel.
    let yStart: Int
    /// Columns between pixels.
    let xStep: Int
    /// Rows between pixels.
    let yStep: Int
    /// Width of the rectangle each pixel fills in a preview.
    let blockWidth: Int
    /// Height of the rectangle each pixel fills in a preview.
    let blockHeight: Int

    /// The seven Adam7 passes in order.
    static let adam7: [Adam7Pass] = [
        Adam7Pass(xStart: 0, yStart: 0, xStep: 8, yStep: 8, blockWidth: 8, blockHeight: 8),
        Adam7Pass(xStart: 4, yStart: 0, xStep: 8, yStep: 8, blockWidth: 4, blockHeight: 8),
        Adam7Pass(xStart: 0, yStart: 4, xStep: 4, yStep: 8, blockWidth: 4, blockHeight: 4),
        Adam7Pass(xStart: 2, yStart: 0, xStep: 4, yStep: 4, blockWidth: 2, blockHeight: 4),
        Adam7Pass(xStart: 0, yStart: 2, xStep: 2, yStep: 4, blockWidth: 2, blockHeight: 2),
        Adam7Pass(xStart: 1, yStart: 0, xStep: 2, yStep: 2, blockWidth: 1, blockHeight: 2),
        Adam7Pass(xStart: 0, yStart: 1, xStep: 1, yStep: 2, blockWidth: 1, blockHeight: 1),
    ]

    /// A non-interlaced image: every pixel, in one pass.
    static let sequential = Adam7Pass(xStart: 0, yStart: 0, xStep: 1, yStep: 1, blockWidth: 1, blockHeight: 1)

    /// Pixels per row of this pass in an image `imageWidth` wide (0 if the pass is empty).
    func columns(inWidth imageWidth: Int) -> Int {
        imageWidth > xStart ? (imageWidth - xStart + xStep - 1) / xStep : 0
    }

    /// Rows of this pass in an image `imageHeight` high (0 if the pass is empty).
    func rows(inHeight imageHeight: Int) -> Int {
        imageHeight > yStart ? (imageHeight - yStart + yStep - 1) / yStep : 0
    }
}
