import Foundation
import ImageCore

extension IncrementalImageDecoder {
    /// Appends the bytes of `data` (no copy beyond the decoder's own input buffer).
    @discardableResult
    public func feed(_ data: Data) throws -> DecodingStatus {
        try data.withUnsafeBytes { try feed($0) }
    }
}
