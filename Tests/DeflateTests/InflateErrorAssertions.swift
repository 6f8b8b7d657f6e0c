import XCTest
import Deflate
import TestSupport

extension XCTestCase {
    /// Asserts that `bytes` fail with `kind` (at an offset in `offsets`, if given) both when fed
    /// whole and one byte at a time, with the same kind and offset either way; returns the error.
    @discardableResult
    func assertInflateFails(_ bytes: [UInt8], format: DeflateFormat, kind: InflateError.Kind,
                            offsets: ClosedRange<Int>? = nil, options: InflateOptions = InflateOptions(),
                            file: StaticString = #filePath, line: UInt = #line) -> InflateError? {
        let whole = InflateHarness.run(bytes, format: format, options: options)
        let bytewise = InflateHarness.run(Chunking.fixed(bytes, size: 1), format: format, options: options)
        guard let error = whole.inflateError else {
            XCTFail("expected \(kind), got \(String(describing: whole.error))", file: file, line: line)
            return nil
        }
        XCTAssertEqual(error.kind, kind, error.description, file: file, line: line)
        if let offsets {
            XCTAssertTrue(offsets.contains(error.offset), "offset \(error.offset) not in \(offsets): \(error)",
                          file: file, line: line)
        }
        XCTAssertFalse(error.message.isEmpty, file: file, line: line)
        XCTAssertEqual(bytewise.inflateError?.kind, kind, "fed byte by byte: \(String(describing: bytewise.error))",
                       file: file, line: line)
        XCTAssertEqual(bytewise.inflateError?.offset, error.offset, "fed byte by byte", file: file, line: line)
        return error
    }
}
