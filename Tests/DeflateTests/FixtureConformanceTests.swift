import XCTest
import Deflate
import TestSupport

/// Every stream of `TestImages/deflate/` (zlib levels, strategies, windows, flushes, gzip header
/// fields and members, raw streams, PNG IDAT streams) inflates to its recorded SHA-256 and size.
final class FixtureConformanceTests: XCTestCase {
    func testFixtureListCoversEveryFileInTheFolder() throws {
        let listed = Set(try DeflateFixture.all().map(\.name))
        let onDisk = Set(try Fixtures.files(in: "deflate").map { String($0.dropFirst("deflate/".count)) }
            .filter { DeflateFixture.format(ofFileNamed: $0) != nil })
        XCTAssertEqual(listed, onDisk)
        XCTAssertGreaterThanOrEqual(listed.count, 70)
    }

    func testEveryFixtureInflatesWholeToItsExpectedHashAndSize() throws {
        for fixture in try DeflateFixture.all() {
            let run = InflateHarness.run(try fixture.bytes(), format: fixture.format)
            XCTAssertNil(run.error, "\(fixture.name): \(String(describing: run.error))")
            XCTAssertEqual(run.output.count, fixture.size, fixture.name)
            XCTAssertEqual(Digest.sha256(run.output), fixture.sha256, fixture.name)
            XCTAssertTrue(run.inflater.isFinished, fixture.name)
            XCTAssertEqual(run.inflater.totalOut, fixture.size, fixture.name)
        }
    }

    func testEveryFixtureInflatesWithTheOneShotHelper() throws {
        for fixture in try DeflateFixture.all() {
            do {
                let output = try Inflater.decompress(try fixture.bytes(), format: fixture.format)
                XCTAssertEqual(Digest.sha256(output), fixture.sha256, fixture.name)
            } catch {
                XCTFail("\(fixture.name): \(error)")
            }
        }
    }

    func testEveryFixtureConsumesExactlyItsInput() throws {
        for fixture in try DeflateFixture.all() {
            let bytes = try fixture.bytes()
            let run = InflateHarness.run(bytes, format: fixture.format)
            XCTAssertEqual(run.inflater.totalIn, bytes.count, fixture.name)
            XCTAssertEqual(run.inflater.trailingByteCount, 0, fixture.name)
        }
    }

    /// The slow reference decoder of the tests agrees with the recorded hashes, so tests that
    /// rely on it (Deflater round trips) rest on something checked.
    func testReferenceInflaterAgreesWithEveryFixtureUpTo200KB() throws {
        for fixture in try DeflateFixture.all() where fixture.size <= 200_000 {
            do {
                let output = try ReferenceInflater.inflate(try fixture.bytes(), format: fixture.format)
                XCTAssertEqual(Digest.sha256(output), fixture.sha256, fixture.name)
            } catch {
                XCTFail("\(fixture.name): \(error)")
            }
        }
    }
}
