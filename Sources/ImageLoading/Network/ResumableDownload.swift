import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The first bytes of a download that broke off, with what is needed to ask for the rest:
/// `Range: bytes=<count>-` plus `If-Range: <validator>`, so the server sends the remainder (206)
/// only if the file is unchanged, and the whole new file (200) otherwise (RFC 9110 13.1.5, 14.2).
struct ResumableDownload {
    /// Bytes received so far (the start of the file).
    var bytes: Data
    /// A strong ETag, or else the Last-Modified date: what `If-Range` sends.
    var validator: String
    /// The whole file's length, if the server said it.
    var totalLength: Int?

    /// The validator a response allows resuming with: a strong `ETag` first (RFC 9110 13.1.5
    /// forbids weak ones in `If-Range`), else `Last-Modified`; nil if it has neither or does not
    /// accept byte ranges.
    static func validator(of response: HTTPURLResponse) -> String? {
        guard let acceptRanges = response.value(forHTTPHeaderField: "Accept-Ranges"),
              acceptRanges.lowercased().contains("bytes") else { return nil }
        if let etag = response.value(forHTTPHeaderField: "ETag"), !etag.hasPrefix("W/") { return etag }
        return response.value(forHTTPHeaderField: "Last-Modified")
    }

    /// The metadata stored with the partial disk-cache entry.
    var metadata: [String: String] {
        var fields = ["validator": validator]
        if let totalLength { fields["total"] = String(totalLength) }
        return fields
    }

    /// Rebuilds a resumable download from a partial disk-cache entry.
    init?(record: DiskCacheRecord) {
        guard record.kind == .partial, let validator = record.metadata["validator"], !record.payload.isEmpty else { return nil }
        self.init(bytes: record.payload, validator: validator, totalLength: record.metadata["total"].flatMap { Int($0) })
    }

    init(bytes: Data, validator: String, totalLength: Int?) {
        self.bytes = bytes
        self.validator = validator
        self.totalLength = totalLength
    }

    /// Adds the resume fields to `request`.
    func apply(to request: inout URLRequest) {
        request.setValue("bytes=\(bytes.count)-", forHTTPHeaderField: "Range")
        request.setValue(validator, forHTTPHeaderField: "If-Range")
    }
}
