/// The `Cache-Control` directives a private client cache acts on (RFC 9111 5.2.2).
///
/// `private` needs nothing: a client cache may store private responses. `s-maxage` and
/// `proxy-revalidate` are for shared caches only and ignored.
struct CacheControl: Equatable {
    /// `max-age=N`: fresh for N seconds after the response was generated.
    var maxAge: Int?
    /// `no-store`: never written to the disk cache.
    var noStore = false
    /// `no-cache`: may be stored, but every use must be revalidated first.
    var noCache = false
    /// `must-revalidate`: once stale, never used without revalidating (the loader never serves
    /// stale entries anyway, so this only documents intent).
    var mustRevalidate = false
    /// `immutable` (RFC 8246): will not change while fresh.
    var immutable = false

    /// Parses a field value such as `public, max-age=3600, must-revalidate`; unknown directives
    /// are ignored, and a malformed `max-age` counts as 0 (stale), as RFC 9111 5.2.2.1 advises.
    init(_ value: String?) {
        guard let value else { return }
        for part in value.split(separator: ",") {
            let directive = part.split(separator: "=", maxSplits: 1)
            let name = directive[0].trimmingCharacters(in: .whitespaces).lowercased()
            let argument = directive.count > 1
                ? directive[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                : nil
            switch name {
            case "max-age": maxAge = argument.flatMap { Int($0) }.map { max($0, 0) } ?? 0
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "must-revalidate": mustRevalidate = true
            case "immutable": immutable = true
            default: break
            }
        }
    }

    init() {}
}

import Foundation
