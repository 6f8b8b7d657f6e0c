import Foundation
import GIFCodec
import ImageCore
import TestSupport

/// What `TestImages/gif/references.json` (made by `make_fixtures.py`) says about one fixture.
struct GIFReference {
    struct Frame {
        let sha256: String
        let durationCentiseconds: Int
        let disposal: FrameDisposal
        let region: FrameRegion
    }

    let width: Int
    let height: Int
    let playCount: Int
    let frames: [Frame]

    /// Every fixture, by file name.
    static let all: [String: GIFReference] = {
        guard let data = try? Data(contentsOf: Fixtures.url("gif/references.json")),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]] else { return [:] }
        var references: [String: GIFReference] = [:]
        for (name, entry) in json {
            let frames = (entry["frames"] as? [[String: Any]] ?? []).map { frame -> Frame in
                let region = frame["region"] as? [Int] ?? [0, 0, 0, 0]
                let disposal: FrameDisposal = switch frame["disposal"] as? String {
                case "background": .background
                case "previous": .previous
                default: .none
                }
                return Frame(sha256: frame["sha256"] as? String ?? "", durationCentiseconds: frame["duration_cs"] as? Int ?? -1,
                             disposal: disposal, region: FrameRegion(x: region[0], y: region[1], width: region[2], height: region[3]))
            }
            references[name] = GIFReference(width: entry["width"] as? Int ?? 0, height: entry["height"] as? Int ?? 0,
                                            playCount: entry["play_count"] as? Int ?? -1, frames: frames)
        }
        return references
    }()

    /// Fixture names, sorted.
    static var names: [String] { all.keys.sorted() }
}

/// Everything a decode produced: the frames pulled, the default image, the error if any.
struct GIFOutcome {
    var frames: [AnimationFrame] = []
    var image: Image?
    var error: ImageDecodingError?
    var animation: AnimationInfo?
    var examined = 0
}

/// Feeds `pieces`, pulling frames after every piece (as a player would), then finishes and pulls the rest.
func decodeGIF(_ pieces: [ArraySlice<UInt8>], options: DecodingOptions = DecodingOptions(),
               pullWhileFeeding: Bool = true) -> GIFOutcome {
    let decoder = GIFDecoder(options: options)
    var outcome = GIFOutcome()
    do {
        for piece in pieces {
            try decoder.feed(piece)
            if pullWhileFeeding { while let frame = try decoder.nextFrame() { outcome.frames.append(frame) } }
        }
        outcome.image = try decoder.finish()
        while let frame = try decoder.nextFrame() { outcome.frames.append(frame) }
    } catch let error as ImageDecodingError {
        outcome.error = error
    } catch {
        outcome.error = ImageDecodingError(.internal, at: nil, "unexpected error \(error)")
    }
    outcome.animation = decoder.animation
    outcome.examined = decoder.inputBytesExamined
    return outcome
}

/// The fixture's bytes (empty if missing, which the reference comparison then reports).
func gifFixture(_ name: String) -> [UInt8] {
    (try? Fixtures.bytes("gif/" + name)) ?? []
}
