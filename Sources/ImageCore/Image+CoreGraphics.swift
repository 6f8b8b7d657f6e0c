#if canImport(CoreGraphics)
import CoreGraphics
import Foundation

extension Image {
    /// The image as a `CGImage` (pixels copied), for UIKit, AppKit and SwiftUI; nil only if
    /// Core Graphics refuses the layout.
    ///
    /// Layouts: 8- or 16-bit (big-endian, as stored) gray or RGB, alpha last and *not*
    /// premultiplied (`CGImageAlphaInfo.last`, which `CGImage` accepts); gray + alpha is widened
    /// to RGBA first; `cmyk8` is DeviceCMYK as stored. The colour space is the embedded ICC
    /// profile when Core Graphics accepts it, else sRGB (or generic gray).
    ///
    /// Not compiled on Linux: it builds only where CoreGraphics exists (Apple platforms).
    public func makeCGImage() -> CGImage? {
        switch format {
        case .grayAlpha8: return converted(to: .rgba8).makeCGImage()
        case .grayAlpha16: return converted(to: .rgba16).makeCGImage()
        default: break
        }
        let bitsPerComponent = format.bytesPerSample * 8
        var info: UInt32 = format.hasAlpha ? CGImageAlphaInfo.last.rawValue : CGImageAlphaInfo.none.rawValue
        if format.bytesPerSample == 2 { info |= CGBitmapInfo.byteOrder16Big.rawValue }
        guard let space = colorSpace, let provider = CGDataProvider(data: Data(pixels) as CFData) else { return nil }
        return CGImage(width: width, height: height, bitsPerComponent: bitsPerComponent,
                       bitsPerPixel: format.bytesPerPixel * 8, bytesPerRow: bytesPerRow, space: space,
                       bitmapInfo: CGBitmapInfo(rawValue: info), provider: provider, decode: nil,
                       shouldInterpolate: true, intent: .defaultIntent)
    }

    /// The embedded profile if Core Graphics takes it and it fits the pixels, else the default.
    private var colorSpace: CGColorSpace? {
        let components = format == .cmyk8 ? 4 : (format.isGray ? 1 : 3)
        if let iccProfile, let space = CGColorSpace(iccData: Data(iccProfile) as CFData),
           space.numberOfComponents == components {
            return space
        }
        switch components {
        case 1: return CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)
        case 4: return CGColorSpaceCreateDeviceCMYK()
        default: return CGColorSpace(name: CGColorSpace.sRGB)
        }
    }
}
#endif
