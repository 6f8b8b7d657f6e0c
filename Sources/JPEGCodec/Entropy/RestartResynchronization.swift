/// What to do when a restart interval ends at a marker other than the expected RSTn.
///
/// The rules are libjpeg's `jpeg_resync_to_restart` (jdmarker.c), so corrupt files decode to the
/// same picture: the data of a lost interval is left gray and decoding resumes where it can.
enum RestartResynchronization: Equatable {
    /// Treat the marker as the expected one: drop it and decode the next interval.
    case acceptMarker
    /// The marker is stale or invalid: drop it and look for the next marker.
    case skipMarker
    /// Leave the marker for later: the coming interval has no data (decoded as zeros).
    case keepMarker

    /// Decides for `marker` when RST`expected` (0...7) was due.
    static func decide(marker: UInt8, expected: Int) -> RestartResynchronization {
        if marker < 0xC0 { return .skipMarker }                  // not a valid marker at all
        if !JPEGMarker.isRestart(marker) { return .keepMarker }  // SOS, EOI…: the scan's data ended
        let number = Int(marker - JPEGMarker.rst0)
        if number == (expected + 1) & 7 || number == (expected + 2) & 7 { return .keepMarker }
        if number == (expected - 1) & 7 || number == (expected - 2) & 7 { return .skipMarker }
        return .acceptMarker
    }
}
