import XCTest
import TestSupport

final class DigestTests: XCTestCase {
    func testSHA256MatchesFIPSExamples() {
        XCTAssertEqual(Digest.sha256(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(Digest.sha256([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(Digest.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func testMD5MatchesRFC1321Examples() {
        XCTAssertEqual(Digest.md5([]), "d41d8cd98f00b204e9800998ecf8427e")
        XCTAssertEqual(Digest.md5(Array("message digest".utf8)), "f96b697d7cb7938d525a2f31aaf161d0")
    }

    func testManifestLoadsEveryCorpusFile() throws {
        let manifest = try CorpusManifest.load()
        XCTAssertEqual(manifest.files.count, 317)
        for entry in manifest.files {
            XCTAssertTrue(FileManager.default.fileExists(atPath: Fixtures.url("corpus/" + entry.path).path), entry.path)
        }
    }
}
