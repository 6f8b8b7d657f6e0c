import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ImageLoading
import IncrementalImage
import LoopbackHTTPServer
import TestSupport
import XCTest

/// The URLSession layer against the loopback server: what arrives at the server (headers,
/// cookies), redirect limits and loops.
final class RealSessionTests: LoaderTestCase {
    func testRequestHeadersAndSessionCookiesArriveAtTheServer() async throws {
        let bytes = serveFake("/private.tst", seed: 3)
        let session = URLSessionConfiguration.ephemeral
        let cookies = session.httpCookieStorage ?? HTTPCookieStorage.shared
        session.httpCookieStorage = cookies
        session.httpCookieAcceptPolicy = .always
        session.httpAdditionalHeaders = ["X-App": "feed/1.0"]
        let serverURL = server.url("/private.tst")
        if let cookie = HTTPCookie(properties: [.domain: "127.0.0.1", .path: "/", .name: "session", .value: "s3cr3t",
                                                .originURL: serverURL]) {
            cookies.setCookie(cookie)
        }
        let loader = makeLoader(disk: false) { $0.sessionConfiguration = session }
        var urlRequest = URLRequest(url: serverURL)
        urlRequest.setValue("Bearer token-1", forHTTPHeaderField: "Authorization")
        let record = try await load(ImageRequest(urlRequest: urlRequest), with: loader)
        XCTAssertEqual(record.response?.image, FakeImageFile.image(width: 64, height: 32, seed: 3))
        XCTAssertEqual(bytes.count, record.progress.last?.received)
        let seen = try XCTUnwrap(server.requests.first)
        XCTAssertEqual(seen.headers["authorization"], "Bearer token-1")
        XCTAssertEqual(seen.headers["x-app"], "feed/1.0")
        XCTAssertEqual(seen.headers["cookie"], "session=s3cr3t")
    }

    func testRedirectsAreFollowedUpToTheLimit() async throws {
        serveFake("/end.tst", seed: 4)
        server.setRoute("/r1", .redirect(to: "/r2"))
        server.setRoute("/r2", .redirect(to: "/r3"))
        server.setRoute("/r3", .redirect(to: "/end.tst"))
        let lenient = makeLoader(disk: false) { $0.maximumRedirects = 3 }
        let followed = try await load(ImageRequest(url: server.url("/r1")), with: lenient)
        XCTAssertEqual(followed.response?.image, FakeImageFile.image(width: 64, height: 32, seed: 4))
        let strict = makeLoader(disk: false) { $0.maximumRedirects = 2 }
        let refused = try await load(ImageRequest(url: server.url("/r1")), with: strict)
        XCTAssertEqual(refused.loadingError, .tooManyRedirects(limit: 2, url: server.url("/end.tst").absoluteString))
    }

    func testARedirectLoopFailsClearly() async throws {
        server.setRoute("/a", .redirect(to: "/b"))
        server.setRoute("/b", .redirect(to: "/a"))
        let record = try await load(ImageRequest(url: server.url("/a")), with: makeLoader(disk: false))
        XCTAssertEqual(record.loadingError, .redirectLoop(url: server.url("/a").absoluteString))
        XCTAssertEqual(server.requests.map(\.path), ["/a", "/b"])
    }
}
