import XCTest
import Dispatch
@testable import ImageCore

/// ``EventCounter``: a semaphore whose polls never sleep.
final class EventCounterTests: XCTestCase {
    func testEachSignalIsTakenExactlyOnce() {
        let counter = EventCounter()
        XCTAssertFalse(counter.tryTake())
        for _ in 0..<3 { counter.signal() }
        XCTAssertEqual((0..<5).map { _ in counter.tryTake() }, [true, true, true, false, false])
        counter.signal()
        counter.take()
        XCTAssertFalse(counter.tryTake())
    }

    func testTakeWaitsForAnotherThreadsSignalAndSeesItsWrites() {
        // The worker writes a value, then signals; the taker must see the value after `take`, for
        // every round, whether it was asleep, spinning or found the signal waiting.
        let counter = EventCounter(), back = EventCounter()
        let box = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        box.initialize(to: 0)
        defer { box.deallocate() }
        let shared = SendablePointer(pointer: box)
        let rounds = 2000
        DispatchQueue.global().async {
            for round in 1...rounds {
                back.take()
                shared.pointer.pointee = round
                counter.signal()
            }
        }
        var seen: [Int] = []
        for round in 1...rounds {
            back.signal()
            switch round % 3 {
            case 0: counter.take()
            case 1: counter.take(spinningFor: 1_000_000)
            default: while !counter.tryTake() {}
            }
            seen.append(box.pointee)
        }
        XCTAssertEqual(seen, Array(1...rounds))
        XCTAssertFalse(counter.tryTake())
    }
}

/// A pointer handed to the worker in the test above; the counters order every access.
private struct SendablePointer: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Int>
}
