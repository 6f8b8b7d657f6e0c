import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ImageLoading
import IncrementalImage
import LoopbackHTTPServer
import TestSupport
import XCTest

/// HTTP caching, content coding, authentication and the faults of issue 10 against the
/// loopback server over real sockets and URLSession: what the server saw is the evidence.
final class RealServerHTTPTests: LoaderTestCase {
    private var image: Image { FakeImageFile.image(width: 64, height: 32, seed: 1) }

    func testAFreshResponseIsServedFromDiskByANewLoaderWithoutARequest() async throws {
        serveFake("/fresh.tst", seed: 1) { $0.headers = [("Cache-Control", "max-age=600")] }
        let first = try await load(ImageRequest(url: server.url("/fresh.tst")), with: makeLoader())
        XCTAssertEqual(first.response?.source, .network)
        let again = try await load(ImageRequest(url: server.url("/fresh.tst")), with: makeLoader())
        XCTAssertEqual(again.response?.source, .diskCache)
        XCTAssertEqual(again.response?.image, image)
        XCTAssertEqual(server.requestCount(path: "/fresh.tst"), 1)
    }

    func testAStaleResponseIsRevalidatedWithItsValidatorsAndA304ServesTheCachedBytes() async throws {
        serveFake("/stale.tst", seed: 1) { route in
            route.etag = "\"e1\""
            route.lastModified = "Tue, 03 Nov 2026 08:00:00 GMT"
            route.headers = [("Cache-Control", "no-cache")]
        }
        _ = try await load(ImageRequest(url: server.url("/stale.tst")), with: makeLoader())
        let again = try await load(ImageRequest(url: server.url("/stale.tst")), with: makeLoader())
        XCTAssertEqual(again.response?.source, .revalidated)
        XCTAssertEqual(again.response?.httpStatus, 304)
        XCTAssertEqual(again.response?.image, image)
        let revalidation = try XCTUnwrap(server.requests.last)
        XCTAssertEqual(revalidation.status, 304)
        XCTAssertEqual(revalidation.headers["if-none-match"], "\"e1\"")
        XCTAssertEqual(revalidation.headers["if-modified-since"], "Tue, 03 Nov 2026 08:00:00 GMT")
    }

    func testRefreshCachedShowsTheOldAvatarThenTheNewOne() async throws {
        serveFake("/avatar.tst", seed: 1) { $0.etag = "\"old\"" }
        let loader = makeLoader()
        _ = try await load(ImageRequest(url: server.url("/avatar.tst")), with: loader)
        serveFake("/avatar.tst", seed: 2) { $0.etag = "\"new\"" }
        var completions: [ImageResponse] = []
        for try await event in loader.images(for: ImageRequest(url: server.url("/avatar.tst"), cachePolicy: .refreshCached)) {
            if case .completed(let response) = event { completions.append(response) }
        }
        XCTAssertEqual(completions.map(\.source), [.memoryCache, .network])
        XCTAssertEqual(completions.last?.image, FakeImageFile.image(width: 64, height: 32, seed: 2))
        XCTAssertEqual(server.requests.last?.headers["if-none-match"], "\"old\"")
        // The cache now holds the new avatar.
        XCTAssertEqual(loader.cachedImage(for: ImageRequest(url: server.url("/avatar.tst"))), FakeImageFile.image(width: 64, height: 32, seed: 2))
    }

    func testNoStoreLeavesNothingOnDisk() async throws {
        serveFake("/secret.tst", seed: 1) { $0.headers = [("Cache-Control", "no-store")] }
        _ = try await load(ImageRequest(url: server.url("/secret.tst")), with: makeLoader())
        let again = try await load(ImageRequest(url: server.url("/secret.tst")), with: makeLoader())
        XCTAssertEqual(again.response?.source, .network)
        XCTAssertEqual(server.requestCount(path: "/secret.tst"), 2)
    }

    func testAGzipBodyIsDecodedAndItsEncodedLengthIsNotTakenForTheImageSize() async throws {
        serveFake("/packed.tst", seed: 1) { $0.contentEncoding = "gzip" }
        let record = try await load(ImageRequest(url: server.url("/packed.tst")), with: makeLoader(disk: false))
        XCTAssertEqual(record.response?.image, image)
        XCTAssertEqual(record.response?.headers["content-encoding"], "gzip")
        XCTAssertTrue(record.progress.allSatisfy { $0.expected == nil })
    }

    func testAGzipDownloadThatDropsIsFetchedWholeAgainNotResumedFromADecodedOffset() async throws {
        let bytes = FakeImageFile.bytes(width: 300, height: 300, seed: 3)
        server.setRoute("/big.tst", {
            var route = HTTPRoute(body: bytes, etag: "\"g\"", acceptsRanges: true)
            route.contentEncoding = "gzip"
            route.dropAfterBytes = 2000
            return route
        }())
        let loader = makeLoader(retryPolicy: RetryPolicy(maximumRetries: 2, baseDelay: 0.01))
        let record = try await load(ImageRequest(url: server.url("/big.tst")), with: loader)
        XCTAssertTrue(record.response?.image == FakeImageFile.image(width: 300, height: 300, seed: 3), "\(String(describing: record.error))")
        XCTAssertEqual(server.requestCount(path: "/big.tst"), 2)
        XCTAssertNil(server.requests.last?.headers["range"], "no Range with decoded offsets")
    }

    func testABodyCutShortByAWrongContentLengthDoesNotBreakTheURLForLaterLoaders() async throws {
        let bytes = FakeImageFile.bytes(width: 100, height: 100, seed: 4)
        server.setRoute("/liar.tst", {
            var route = HTTPRoute(body: bytes, etag: "\"l\"", acceptsRanges: true)
            route.declaredContentLength = bytes.count + 1000
            return route
        }())
        let broken = try await load(ImageRequest(url: server.url("/liar.tst")), with: makeLoader())
        XCTAssertNotNil(broken.loadingError, "every byte came but the declared length did not")
        // A new loader on the same folder: the partial is refused (416), dropped, the whole body fetched.
        let fixedRoute = HTTPRoute(body: bytes, etag: "\"l\"", acceptsRanges: true)
        server.setRoute("/liar.tst", fixedRoute)
        let later = try await load(ImageRequest(url: server.url("/liar.tst")), with: makeLoader())
        XCTAssertEqual(later.response?.image, FakeImageFile.image(width: 100, height: 100, seed: 4))
        XCTAssertEqual(server.requests.map(\.status), [200, 416, 200])
        XCTAssertEqual(server.requests[1].headers["range"], "bytes=\(bytes.count)-")
    }

    func testServiceUnavailableIsRetriedHonouringRetryAfter() async throws {
        serveFake("/busy.tst", seed: 1) { $0.failFirst = 2 }
        let loader = makeLoader(retryPolicy: RetryPolicy(maximumRetries: 2, baseDelay: 0.01))
        let record = try await load(ImageRequest(url: server.url("/busy.tst")), with: loader)
        XCTAssertEqual(record.response?.image, image)
        XCTAssertEqual(server.requests.map(\.status), [503, 503, 200])
    }

    func testARequiredHeaderFromTheURLRequestOpensAProtectedImage() async throws {
        serveFake("/members.tst", seed: 1) { $0.requiredHeaders = ["Authorization": "Bearer ok"] }
        let loader = makeLoader(disk: false)
        let refused = try await load(ImageRequest(url: server.url("/members.tst")), with: loader)
        XCTAssertEqual(refused.loadingError, .httpStatus(401))
        var request = URLRequest(url: server.url("/members.tst"))
        request.setValue("Bearer ok", forHTTPHeaderField: "Authorization")
        let allowed = try await load(ImageRequest(urlRequest: request, retryFailed: true), with: loader)
        XCTAssertEqual(allowed.response?.image, image)
    }

    func testTheAuthenticationChallengeHandlerAnswersABasicChallenge() async throws {
        // "user:pass" in base64.
        serveFake("/basic.tst", seed: 1) { $0.requiredHeaders = ["Authorization": "Basic dXNlcjpwYXNz"] }
        let challenges = LockedState([String]())
        let loader = makeLoader(disk: false) { configuration in
            configuration.authenticationChallengeHandler = { challenge in
                challenges.withLock { $0.append(challenge.protectionSpace.authenticationMethod) }
                return (.useCredential, URLCredential(user: "user", password: "pass", persistence: .forSession))
            }
        }
        let record = try await load(ImageRequest(url: server.url("/basic.tst")), with: loader)
        XCTAssertTrue(record.response?.image == image, "\(String(describing: record.error))")
        XCTAssertEqual(challenges.withLock { $0 }, [NSURLAuthenticationMethodHTTPBasic])
        XCTAssertEqual(server.requests.map(\.status), [401, 200])
    }

    func testARefusedChallengeFailsWithTheServersStatusInsteadOfHanging() async throws {
        serveFake("/refused.tst", seed: 1) { $0.requiredHeaders = ["Authorization": "Basic dXNlcjpwYXNz"] }
        for answer: (URLSession.AuthChallengeDisposition, URLCredential?) in [(.cancelAuthenticationChallenge, nil), (.useCredential, nil),
                                                                             (.performDefaultHandling, nil)] {
            let loader = makeLoader(disk: false) { $0.authenticationChallengeHandler = { _ in answer } }
            let record = try await load(ImageRequest(url: server.url("/refused.tst")), with: loader)
            XCTAssertEqual(record.loadingError, .httpStatus(401), "\(answer.0.rawValue)")
        }
    }
}
