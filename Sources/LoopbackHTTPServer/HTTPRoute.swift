import Foundation

/// What the loopback server answers for one path, and how it sends it.
///
/// Body pacing: the body goes out in pieces of ``chunkSize`` bytes with ``pauseBetweenChunks``
/// between them, plus longer ``pauses`` once given numbers of body bytes have gone out (a piece
/// never crosses a pause offset, so the client has exactly that prefix while the server waits). A 64 KiB body
/// with `chunkSize` 4096 and a 10 ms pause takes about 16 × 10 ms = 160 ms.
public struct HTTPRoute: Sendable {
    /// The status code (200 unless an error or redirect is wanted).
    public var status: Int
    /// The full entity body (a Range request gets a slice of it).
    public var body: [UInt8]
    /// `Content-Type`.
    public var contentType: String
    /// Whether `Content-Length` is sent (without it and without chunking, the body ends at close).
    public var sendsContentLength: Bool
    /// Whether the body is sent with `Transfer-Encoding: chunked` (RFC 9112 7.1).
    public var chunkedEncoding: Bool
    /// Body bytes per write (and per HTTP chunk when chunked).
    public var chunkSize: Int
    /// Sleep between two writes.
    public var pauseBetweenChunks: TimeInterval
    /// Sleep before the status line.
    public var initialDelay: TimeInterval
    /// Extra sleeps: body offset → seconds, taken once that many body bytes have been sent.
    public var pauses: [Int: TimeInterval]
    /// Close the connection after this many body bytes, for the first ``dropCount`` requests.
    public var dropAfterBytes: Int?
    /// How many requests are dropped (then the route answers normally).
    public var dropCount: Int
    /// `ETag` (with its quotes, e.g. `"v1"`).
    public var etag: String?
    /// `Last-Modified` (an HTTP date).
    public var lastModified: String?
    /// Whether `Accept-Ranges: bytes` is sent and `Range` / `If-Range` are honoured (206).
    public var acceptsRanges: Bool
    /// `Location` for a redirect status.
    public var location: String?
    /// More response header fields, sent as given (`Cache-Control`, `Expires`, `Date`, `Age`,
    /// `Set-Cookie`, `Retry-After`…), on 200, 206 and 304 answers alike.
    public var headers: [(name: String, value: String)] = []
    /// Whether `If-None-Match` / `If-Modified-Since` get `304 Not Modified` when they match the
    /// route's `etag` / `lastModified` (RFC 9110 13.1.1, 13.1.3). Off: a server that ignores validators.
    public var answersConditionalRequests = true
    /// `"gzip"`: the body is sent gzip-compressed with `Content-Encoding: gzip` and the encoded
    /// length. A `Range` then counts encoded bytes, as nginx's `gzip_static` does.
    public var contentEncoding: String?
    /// A `Content-Length` to send instead of the true one (e.g. too large: the body then ends
    /// early when the connection closes).
    public var declaredContentLength: Int?
    /// Header fields a request must carry with exactly these values (names case-insensitive);
    /// otherwise `401` with `WWW-Authenticate: Basic realm="test"` when `Authorization` is the
    /// one missing, else `403`.
    public var requiredHeaders: [String: String] = [:]
    /// The first this many requests get ``failureStatus`` with ``failureHeaders`` instead.
    public var failFirst = 0
    /// The status of those failures (default 503).
    public var failureStatus = 503
    /// The header fields of those failures (default `Retry-After: 0`).
    public var failureHeaders: [(name: String, value: String)] = [("Retry-After", "0")]

    /// Makes a route; by default a 200 with `Content-Length`, sent as fast as possible.
    public init(status: Int = 200, body: [UInt8], contentType: String = "application/octet-stream",
                sendsContentLength: Bool = true, chunkedEncoding: Bool = false, chunkSize: Int = 1 << 16,
                pauseBetweenChunks: TimeInterval = 0, initialDelay: TimeInterval = 0,
                pauses: [Int: TimeInterval] = [:], dropAfterBytes: Int? = nil, dropCount: Int = 1,
                etag: String? = nil, lastModified: String? = nil, acceptsRanges: Bool = false, location: String? = nil) {
        self.status = status
        self.body = body
        self.contentType = contentType
        self.sendsContentLength = sendsContentLength
        self.chunkedEncoding = chunkedEncoding
        self.chunkSize = max(chunkSize, 1)
        self.pauseBetweenChunks = pauseBetweenChunks
        self.initialDelay = initialDelay
        self.pauses = pauses
        self.dropAfterBytes = dropAfterBytes
        self.dropCount = dropCount
        self.etag = etag
        self.lastModified = lastModified
        self.acceptsRanges = acceptsRanges
        self.location = location
    }

    /// A redirect to `location` (302 Found, or `status`: 301, 303, 307, 308).
    public static func redirect(to location: String, status: Int = 302) -> HTTPRoute {
        HTTPRoute(status: status, body: [], location: location)
    }

    /// An error status with a short text body.
    public static func failure(_ status: Int) -> HTTPRoute {
        HTTPRoute(status: status, body: Array("status \(status)\n".utf8), contentType: "text/plain")
    }
}
