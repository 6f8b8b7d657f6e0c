/// Streaming DEFLATE decompressor (zlib, raw, gzip). Work in progress: API only.
public final class Inflater {
    /// The wrapper format being decoded.
    public let format: DeflateFormat
    /// The options in force.
    public let options: InflateOptions
    /// Input bytes consumed so far.
    public private(set) var totalIn = 0
    /// Output bytes produced so far.
    public private(set) var totalOut = 0
    /// Input bytes read into the bit buffer so far (each counted once per read): proves O(n) work.
    public private(set) var inputBytesExamined = 0
    /// Bytes seen after the end of the stream (only when trailing data is not rejected).
    public private(set) var trailingByteCount = 0
    /// Whether the end of the stream has been reached.
    public private(set) var isFinished = false

    /// Makes an inflater.
    public init(format: DeflateFormat = .zlib, options: InflateOptions = InflateOptions()) {
        self.format = format
        self.options = options
    }

    /// Decompresses `input`, handing each piece of output to `sink` as soon as it is produced
    /// (the bytes are valid only during the call). Consumes all of `input`.
    @discardableResult
    public func feed(_ input: UnsafeRawBufferPointer, into sink: (UnsafeRawBufferPointer) throws -> Void) throws -> InflateStatus {
        throw InflateError(.truncated, at: 0, "not implemented yet")
    }

    /// Declares the end of input: throws ``InflateError/Kind/truncated`` unless the stream ended.
    public func finish() throws {
        if !isFinished { throw InflateError(.truncated, at: totalIn, "the compressed stream ended early") }
    }
}

extension Inflater {
    /// Feeds an array. See ``feed(_:into:)``.
    @discardableResult
    public func feed(_ input: [UInt8], into sink: (UnsafeRawBufferPointer) throws -> Void) throws -> InflateStatus {
        try input.withUnsafeBytes { try feed($0, into: sink) }
    }

    /// Decompresses a whole stream at once.
    public static func decompress(_ data: [UInt8], format: DeflateFormat = .zlib,
                                  options: InflateOptions = InflateOptions()) throws -> [UInt8] {
        let inflater = Inflater(format: format, options: options)
        var output: [UInt8] = []
        output.reserveCapacity(data.count * 3)
        try inflater.feed(data) { output.append(contentsOf: $0) }
        try inflater.finish()
        return output
    }
}
