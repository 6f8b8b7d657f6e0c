/// What makes two requests share one job: the same result and the same cache policy (a
/// `cacheOrFail` request must never ride on a download, nor a reload on a cache read).
struct JobKey: Hashable, Sendable {
    var result: ImageResultKey
    var cachePolicy: ImageCachePolicy
}
