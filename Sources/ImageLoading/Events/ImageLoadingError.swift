import IncrementalImage

/// Why a load failed.
public indirect enum ImageLoadingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a status outside 200–299.
    case httpStatus(Int)
    /// A transport failure; `code` is the `URLError` code, `message` its description.
    case network(code: Int, message: String)
    /// No response or no progress within the configured time.
    case timedOut
    /// The body exceeded ``ImageLoader/Configuration/maximumBodySize`` (bytes).
    case bodyTooLarge(limit: Int)
    /// The bytes did not decode.
    case decoding(ImageDecodingError)
    /// The transform threw; the message describes its error.
    case transformFailed(String)
    /// ``ImageCachePolicy/cacheOrFail`` and the image is in no cache.
    case notCached
    /// The URL scheme is not http, https or file.
    case unsupportedURL(String)
    /// The URL failed recently with this error and the request did not ask to retry.
    case previouslyFailed(ImageLoadingError)
    /// More redirects than ``ImageLoader/Configuration/maximumRedirects``; `url` is the one refused.
    case tooManyRedirects(limit: Int, url: String)
    /// ``ImageLoader/Configuration/requestModifier`` threw; the message describes its error.
    case requestModifierFailed(String)
    /// A redirect led back to a URL this request had already visited.
    case redirectLoop(url: String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .httpStatus(let status): return "the server answered HTTP \(status)"
        case .network(let code, let message): return "network error \(code): \(message)"
        case .timedOut: return "the request timed out"
        case .bodyTooLarge(let limit): return "the response body is larger than the limit of \(limit) bytes"
        case .decoding(let error): return "the image could not be decoded: \(error)"
        case .transformFailed(let message): return "the transform failed: \(message)"
        case .notCached: return "the image is not cached and the cache policy forbids loading it"
        case .unsupportedURL(let url): return "cannot load \(url): only http, https and file URLs are supported"
        case .previouslyFailed(let error): return "this URL failed recently (\(error)); set retryFailed to try again"
        case .tooManyRedirects(let limit, let url): return "more than \(limit) redirects (the next one was to \(url))"
        case .requestModifierFailed(let message): return "the request modifier failed: \(message)"
        case .redirectLoop(let url): return "redirect loop: \(url) redirects back to itself"
        }
    }
}
