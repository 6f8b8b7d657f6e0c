/// Requests with equal keys share one ``DataTask``: the same resource under the same cache policy.
struct DataKey: Hashable, Sendable {
    var resource: String
    var cachePolicy: ImageCachePolicy
}

/// Requests with equal keys share one ``DecodeTask`` (and so one decoder and one result).
struct DecodeKey: Hashable, Sendable {
    var result: ImageResultKey
    var cachePolicy: ImageCachePolicy

    var dataKey: DataKey { DataKey(resource: result.resource, cachePolicy: cachePolicy) }
}
