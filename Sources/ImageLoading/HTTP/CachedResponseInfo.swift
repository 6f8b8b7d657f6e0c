import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the disk cache keeps of a response besides its body: the header fields that decide
/// freshness and revalidation (RFC 9111), and when the exchange happened.
///
/// Freshness (RFC 9111 4.2): the lifetime is `max-age`, else `Expires − Date`, else the
/// loader's ``ImageLoader/Configuration/defaultMaxAge``, else, with a `Last-Modified`, the usual
/// heuristic of 10% of the time since the modification (4.2.2); a response with none of these
/// and no validator is fresh until evicted (nothing could revalidate it), one with only an
/// `ETag` is revalidated on every use. The age is the RFC's `current_age` (4.2.3).
struct CachedResponseInfo: Equatable, Sendable {
    /// The header fields kept, by lower-cased name.
    static let keptFields = ["etag", "last-modified", "cache-control", "expires", "date", "age", "content-type",
                             "content-encoding"]

    /// The status of the response the body came from (200).
    var status: Int
    /// Kept header fields by lower-cased name.
    var headers: [String: String]
    /// When the request that produced (or last revalidated) the entry was sent.
    var requestTime: Date
    /// When its response arrived.
    var responseTime: Date

    init(status: Int, headers: [String: String], requestTime: Date, responseTime: Date) {
        self.status = status
        self.headers = headers
        self.requestTime = requestTime
        self.responseTime = responseTime
    }

    /// The kept fields of an HTTP response.
    init(response: HTTPURLResponse, requestTime: Date, responseTime: Date) {
        var headers: [String: String] = [:]
        for name in Self.keptFields {
            if let value = response.value(forHTTPHeaderField: name) { headers[name] = value }
        }
        self.init(status: response.statusCode, headers: headers, requestTime: requestTime, responseTime: responseTime)
    }

    var cacheControl: CacheControl { CacheControl(headers["cache-control"]) }
    var etag: String? { headers["etag"] }
    var lastModified: String? { headers["last-modified"] }
    var hasValidator: Bool { etag != nil || lastModified != nil }

    /// Seconds the response stays fresh after it was generated; nil when it never goes stale.
    func freshnessLifetime(defaultMaxAge: TimeInterval?) -> TimeInterval? {
        let control = cacheControl
        if control.noCache { return 0 }
        if let maxAge = control.maxAge { return TimeInterval(maxAge) }
        if let expiresText = headers["expires"] {
            // An invalid Expires (e.g. "0") means already expired (RFC 9111 5.3).
            guard let expires = HTTPDate.parse(expiresText) else { return 0 }
            let date = headers["date"].flatMap(HTTPDate.parse) ?? responseTime
            return max(expires.timeIntervalSince(date), 0)
        }
        if let defaultMaxAge { return defaultMaxAge }
        if let modified = lastModified.flatMap(HTTPDate.parse) {
            let date = headers["date"].flatMap(HTTPDate.parse) ?? responseTime
            return max(date.timeIntervalSince(modified), 0) / 10
        }
        return etag == nil ? nil : 0
    }

    /// RFC 9111 4.2.3 `current_age` at `now`.
    func currentAge(now: Date) -> TimeInterval {
        let dateValue = headers["date"].flatMap(HTTPDate.parse) ?? responseTime
        let ageValue = headers["age"].flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        let apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        return correctedInitialAge + max(0, now.timeIntervalSince(responseTime))
    }

    /// Whether the entry may be used at `now` without asking the server.
    func isFresh(now: Date, defaultMaxAge: TimeInterval?) -> Bool {
        guard let lifetime = freshnessLifetime(defaultMaxAge: defaultMaxAge) else { return true }
        return currentAge(now: now) < lifetime
    }

    /// When the entry goes stale (nil: never), for the memory cache.
    func expiryDate(defaultMaxAge: TimeInterval?) -> Date? {
        guard let lifetime = freshnessLifetime(defaultMaxAge: defaultMaxAge) else { return nil }
        return responseTime.addingTimeInterval(lifetime - currentAge(now: responseTime))
    }

    /// Adds `If-None-Match` / `If-Modified-Since` from the validators (RFC 9110 13.1).
    func addConditions(to request: inout URLRequest) {
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
    }

    /// The entry after a `304 Not Modified`: the 304's fields replace the stored ones
    /// (RFC 9111 4.3.4), and the exchange times move to the revalidation.
    func refreshed(by response: HTTPURLResponse, requestTime: Date, responseTime: Date) -> CachedResponseInfo {
        var copy = self
        for name in Self.keptFields where name != "content-type" && name != "content-encoding" {
            if let value = response.value(forHTTPHeaderField: name) { copy.headers[name] = value }
        }
        // An Age from before would now be double counted.
        if response.value(forHTTPHeaderField: "age") == nil { copy.headers["age"] = nil }
        copy.requestTime = requestTime
        copy.responseTime = responseTime
        return copy
    }

    // MARK: Disk-cache metadata lines

    /// As disk-cache metadata (`h.<field>`, `status`, `t.request`, `t.response`).
    var metadata: [String: String] {
        var fields = ["status": String(status), "t.request": String(requestTime.timeIntervalSince1970),
                      "t.response": String(responseTime.timeIntervalSince1970)]
        for (name, value) in headers { fields["h." + name] = value }
        return fields
    }

    /// Rebuilds the info from disk-cache metadata; entries written before the loader kept HTTP
    /// metadata have none and read as a 200 without validators (fresh until evicted).
    init(metadata: [String: String]) {
        var headers: [String: String] = [:]
        for (name, value) in metadata where name.hasPrefix("h.") { headers[String(name.dropFirst(2))] = value }
        let requestTime = metadata["t.request"].flatMap(TimeInterval.init).map(Date.init(timeIntervalSince1970:)) ?? Date()
        let responseTime = metadata["t.response"].flatMap(TimeInterval.init).map(Date.init(timeIntervalSince1970:)) ?? requestTime
        self.init(status: metadata["status"].flatMap { Int($0) } ?? 200, headers: headers,
                  requestTime: requestTime, responseTime: responseTime)
    }
}
