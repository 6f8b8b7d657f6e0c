import ImageCore

/// The memory the two threads of a ``ScanlinePipeline`` share: a ring of bands of filtered bytes
/// and the ``ScanlineDecoder`` that unfilters and draws them.
///
/// `@unchecked Sendable`, and why that is safe: the caller's thread writes a band only while it
/// is not in flight, and hands it to the worker (a serial Dispatch queue) with `async`; the
/// worker reads it, draws with `rows`, and signals a semaphore the caller waits on before it
/// fills that band again or touches `rows` (``ScanlinePipeline`` keeps the count). So each band
/// and `rows` belong to one thread at a time, and the queue and semaphore order the hand-overs.
/// Jobs keep this box alive, so a decoder dropped mid-image cannot free the ring under the worker.
final class ScanlineBands: @unchecked Sendable {
    /// Bands in the ring: one being filled, up to three waiting or being drawn.
    static let count = 4

    /// The drawing stage; the worker's while any band is in flight.
    let rows: ScanlineDecoder
    /// Bytes per band.
    let bandBytes: Int
    /// `count × bandBytes` bytes: band `i` at `storage + i × bandBytes`.
    let storage: UnsafeMutablePointer<UInt8>
    /// The first error `rows` threw on the worker (none is expected: the caller's thread has
    /// checked every filter type already). Read by the caller only after waiting for the job.
    private(set) var workerFailure: ImageDecodingError?

    init(rows: ScanlineDecoder, bandBytes: Int) {
        self.rows = rows
        self.bandBytes = bandBytes
        storage = .allocate(capacity: Self.count * bandBytes)
    }

    deinit { storage.deallocate() }

    /// The first byte of band `index`.
    func band(_ index: Int) -> UnsafeMutablePointer<UInt8> { storage + index * bandBytes }

    /// On the worker: unfilters and draws the first `count` bytes of band `index`.
    func draw(band index: Int, count: Int) {
        guard workerFailure == nil else { return }
        do {
            try rows.consume(UnsafeRawBufferPointer(start: band(index), count: count))
        } catch {
            workerFailure = error as? ImageDecodingError
                ?? ImageDecodingError(.internal, at: nil, "PNG worker thread failed: \(error)")
        }
    }
}
