/// One element of a GIF stream, as ``GIFBlockReader`` hands it out (GIF89a Appendix B grammar).
///
/// Byte views point into the decoder's input buffer and are valid until the step is committed.
enum GIFToken {
    /// Signature, Logical Screen Descriptor and global colour table (`3 × count` bytes, maybe empty).
    case header(GIFScreenDescriptor, globalColorTable: UnsafeRawBufferPointer)
    /// One data sub-block of an extension; `index` counts from 0 within the extension.
    case extensionSubBlock(label: UInt8, index: Int, data: UnsafeRawBufferPointer)
    /// The block terminator of an extension.
    case extensionEnd(label: UInt8)
    /// Image Descriptor, local colour table (maybe empty) and the LZW minimum code size byte.
    case image(GIFImageDescriptor, localColorTable: UnsafeRawBufferPointer, minimumCodeSize: Int)
    /// Some bytes of an image's LZW data (part of one sub-block).
    case imageData(UnsafeRawBufferPointer)
    /// The block terminator after an image's data sub-blocks.
    case imageEnd
    /// The Trailer `3B` (GIF89a section 27).
    case trailer
    /// A byte that starts no block. Browsers stop there and keep what they have; so does the decoder.
    case unknownBlock(UInt8)
    /// Structure only (an extension introducer or a sub-block length byte).
    case structure
}
