import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``DataLoading`` on a `URLSession` of its own (FoundationNetworking on Linux): bytes are
/// reported as they arrive, redirects are followed up to a limit, and authentication challenges
/// go to an optional handler.
///
/// The session is made from a copy of the given configuration with URLCache turned off: the
/// loader keeps its own HTTP-aware disk cache, and a URLCache would hide requests from it.
public final class URLSessionDataLoader: DataLoading, @unchecked Sendable {
    /// Answers an authentication challenge (client certificates, custom trust, HTTP auth).
    public typealias ChallengeHandler = @Sendable (URLAuthenticationChallenge) async
        -> (URLSession.AuthChallengeDisposition, URLCredential?)

    private let session: URLSession
    private let delegate: Delegate

    /// Makes a loader.
    ///
    /// - Parameters:
    ///   - configuration: headers, cookie storage, proxies, protocol classes, timeouts (copied).
    ///   - maximumRedirects: redirects followed for one request; one more fails the transfer
    ///     with ``ImageLoadingError/tooManyRedirects(limit:url:)``, and a redirect back to a URL
    ///     already visited fails at once with ``ImageLoadingError/redirectLoop(url:)``.
    ///   - challengeHandler: asked for every authentication challenge; nil = the system default.
    ///   - allowsInvalidCertificates: **testing only**: accept any server certificate (self-signed
    ///     test servers). Where the platform gives no server-trust object (Linux), this has no effect.
    public init(configuration: URLSessionConfiguration = .ephemeral, maximumRedirects: Int = 10,
                challengeHandler: ChallengeHandler? = nil, allowsInvalidCertificates: Bool = false) {
        let copy = (configuration.copy() as? URLSessionConfiguration) ?? .ephemeral
        copy.urlCache = nil
        copy.requestCachePolicy = .reloadIgnoringLocalCacheData
        delegate = Delegate(maximumRedirects: max(0, maximumRedirects), challengeHandler: challengeHandler,
                            allowsInvalidCertificates: allowsInvalidCertificates)
        let queue = OperationQueue()
        queue.name = "ImageLoading.session"
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: copy, delegate: delegate, delegateQueue: queue)
    }

    deinit { session.invalidateAndCancel() }

    /// Starts `request` on the session.
    public func startLoading(_ request: URLRequest,
                             events: @escaping @Sendable (DataLoadingEvent) -> Void) -> any DataLoadingTask {
        let task = session.dataTask(with: request)
        delegate.register(task.taskIdentifier, handler: events, url: request.url)
        task.resume()
        return SessionTask(task: task, delegate: delegate)
    }

    /// Ends the session: running transfers are cancelled.
    public func invalidate() { session.invalidateAndCancel() }

    private struct SessionTask: DataLoadingTask, @unchecked Sendable {
        let task: URLSessionDataTask
        let delegate: Delegate
        func cancel() {
            // Events after cancel(): only the final `completed`, which the handler map drops.
            delegate.unregister(task.taskIdentifier)
            task.cancel()
        }
    }

    /// URLSession's callbacks, on the session's serial queue, routed to each task's handler.
    private final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        struct Entry {
            var handler: @Sendable (DataLoadingEvent) -> Void
            /// URLs of this transfer so far: the request's, then every redirect target.
            var visited: [URL]
            /// Set when a redirect was refused: reported instead of the redirect response.
            var redirectError: ImageLoadingError?
            /// A 401/407 held back: FoundationNetworking reports it *before* asking for
            /// credentials, then sends the request again. It is reported only if no other
            /// response follows (the challenge was refused or never came).
            var heldAuthenticationResponse: URLResponse?
        }

        let maximumRedirects: Int
        let challengeHandler: ChallengeHandler?
        let allowsInvalidCertificates: Bool
        private let entries = LockedState([Int: Entry]())

        init(maximumRedirects: Int, challengeHandler: ChallengeHandler?, allowsInvalidCertificates: Bool) {
            self.maximumRedirects = maximumRedirects
            self.challengeHandler = challengeHandler
            self.allowsInvalidCertificates = allowsInvalidCertificates
        }

        func register(_ id: Int, handler: @escaping @Sendable (DataLoadingEvent) -> Void, url: URL?) {
            entries.withLock { $0[id] = Entry(handler: handler, visited: url.map { [$0] } ?? []) }
        }

        func unregister(_ id: Int) { entries.withLock { $0[id] = nil } }

        private func handler(_ id: Int) -> (@Sendable (DataLoadingEvent) -> Void)? {
            entries.withLock { $0[id]?.handler }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
            let (handler, refused) = entries.withLock { entries in
                (entries[dataTask.taskIdentifier]?.handler, entries[dataTask.taskIdentifier]?.redirectError)
            }
            if let refused {
                // The redirect was refused: report why instead of the 3xx response itself.
                entries.withLock { $0[dataTask.taskIdentifier] = nil }
                completionHandler(.cancel)
                dataTask.cancel()
                handler?(.completed(refused))
                return
            }
            let status = (response as? HTTPURLResponse)?.statusCode
            let held = entries.withLock { entries -> Bool in
                guard status == 401 || status == 407, entries[dataTask.taskIdentifier] != nil else {
                    entries[dataTask.taskIdentifier]?.heldAuthenticationResponse = nil
                    return false
                }
                entries[dataTask.taskIdentifier]?.heldAuthenticationResponse = response
                return true
            }
            if !held { handler?(.response(response)) }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let (handler, held) = entries.withLock { entries in
                (entries[dataTask.taskIdentifier]?.handler, entries[dataTask.taskIdentifier]?.heldAuthenticationResponse != nil)
            }
            if !held { handler?(.data(data)) }  // the body of a held 401 is not the image
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let entry = entries.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
            if let held = entry.heldAuthenticationResponse { entry.handler(.response(held)) }
            entry.handler(.completed(entry.redirectError ?? error))
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
            let limit = maximumRedirects
            let verdict = entries.withLock { entries -> ImageLoadingError? in
                guard var entry = entries[task.taskIdentifier], let target = request.url else { return nil }
                if entry.visited.contains(target) {
                    entry.redirectError = .redirectLoop(url: target.absoluteString)
                } else if entry.visited.count > limit {
                    entry.redirectError = .tooManyRedirects(limit: limit, url: target.absoluteString)
                }
                entry.visited.append(target)
                entries[task.taskIdentifier] = entry
                return entry.redirectError
            }
            completionHandler(verdict == nil ? request : nil)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
            #if canImport(Security)
            if allowsInvalidCertificates, challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
               let trust = challenge.protectionSpace.serverTrust {
                return completionHandler(.useCredential, URLCredential(trust: trust))
            }
            #endif
            guard let challengeHandler else { return Self.answerByDefault(challenge, session: session, completionHandler) }
            let box = ChallengeBox(challenge: challenge, session: session)
            Task {
                let (disposition, credential) = await challengeHandler(box.challenge)
                if disposition == .performDefaultHandling {
                    return Self.answerByDefault(box.challenge, session: box.session, completionHandler)
                }
                completionHandler(Self.safe(disposition, credential), credential)
            }
        }

        /// What happens without a handler: the system's default, except on FoundationNetworking,
        /// whose default handling never completes a task it has no credential for (measured with
        /// swift-corelibs-foundation 6.3): there a stored or proposed credential is used, and
        /// otherwise the challenge is refused, so the load fails with the server's 401.
        static func answerByDefault(_ challenge: URLAuthenticationChallenge, session: URLSession,
                                    _ completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
            #if canImport(FoundationNetworking)
            let stored = session.configuration.urlCredentialStorage?.defaultCredential(for: challenge.protectionSpace)
            if let credential = challenge.proposedCredential ?? stored, challenge.previousFailureCount == 0 {
                return completionHandler(.useCredential, credential)
            }
            completionHandler(.rejectProtectionSpace, nil)
            #else
            completionHandler(.performDefaultHandling, nil)
            #endif
        }

        /// `.useCredential` without a credential means "continue without one" on Apple platforms
        /// but traps inside FoundationNetworking; there it becomes a refusal.
        static func safe(_ disposition: URLSession.AuthChallengeDisposition,
                         _ credential: URLCredential?) -> URLSession.AuthChallengeDisposition {
            #if canImport(FoundationNetworking)
            if disposition == .useCredential, credential == nil { return .rejectProtectionSpace }
            #endif
            return disposition
        }
    }

    /// Carries a challenge into the handler's task (URLAuthenticationChallenge is not Sendable;
    /// it is only read there).
    private struct ChallengeBox: @unchecked Sendable {
        let challenge: URLAuthenticationChallenge
        let session: URLSession
    }
}
