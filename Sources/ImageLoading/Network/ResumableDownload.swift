import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a broken download can go on from: `Range: bytes=<offset>-` plus `If-Range: <validator>`,
/// so the server sends the remainder (206) only if the file is unchanged, and the whole new file
/// (200) otherwise (RFC 9110 13.1.5, 14.2).
///
/// Only identity-coded responses are resumable: with `Content-Encoding` the offsets a client
/// sees (decoded bytes) are not the server's (encoded bytes), so a resume would splice gzip from
/// the middle onto decoded data.
struct ResumableDownload {
    /// Bytes already on hand (the start of the file).
    var offset: Int
    /// The bytes themselves when the decode tasks do not have them yet (a partial disk entry);
    /// nil when they already went to the decoders (a retry within one load).
    var bytes: Data?
    /// A strong ETag, or else the Last-Modified date: what `If-Range` sends.
    var validator: String
    /// The whole file's length, if the server said it.
    var totalLength: Int?

    /// The validator a response allows resuming with: a strong `ETag` first (RFC 9110 13.1.5
    /// forbids weak ones in `If-Range`), else `Last-Modified`; nil if it has neither, does not
    /// accept byte ranges, or is content-coded.
    static func validator(of response: HTTPURLResponse) -> String? {
        guard let acceptRanges = response.value(forHTTPHeaderField: "Accept-Ranges"),
              acceptRanges.lowercased().contains("bytes"), !isContentCoded(response) else { return nil }
        if let etag = response.value(forHTTPHeaderField: "ETag"), !etag.hasPrefix("W/") { return etag }
        return response.value(forHTTPHeaderField: "Last-Modified")
    }

    /// Whether the body has a `Content-Encoding` other than identity (URLSession undoes it).
    static func isContentCoded(_ response: HTTPURLResponse) -> Bool {
        guard let coding = response.value(forHTTPHeaderField: "Content-Encoding")?
            .trimmingCharacters(in: .whitespaces).lowercased(), !coding.isEmpty else { return false }
        return coding != "identity"
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
        self.init(offset: record.payload.count, bytes: record.payload, validator: validator,
                  totalLength: record.metadata["total"].flatMap { Int($0) })
    }

    init(offset: Int, bytes: Data?, validator: String, totalLength: Int?) {
        self.offset = offset
        self.bytes = bytes
        self.validator = validator
        self.totalLength = totalLength
    }

    /// Adds the resume fields to `request`.
    func apply(to request: inout URLRequest) {
        request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
        request.setValue(validator, forHTTPHeaderField: "If-Range")
    }
}
