import Foundation
import ImageCore
import PNGCodec
import TestSupport

/// What `TestImages/apng/references.json` (made by `make_fixtures.py`: libpng for each frame's
/// pixels, the APNG spec's compositing in numpy) says about the fixtures.
struct APNGReferences: Decodable {
    struct Frame: Decodable {
        var region: [Int]
        var dispose: String
        var blend: String
        var delay: [Int]
        var sha256: String
        var region_sha256: String
    }

    struct Animation: Decodable {
        var width: Int
        var height: Int
        var plays: Int
        var declared_frames: Int
        var default_image_in_animation: Bool
        var default_image_sha256: String
        var frames: [Frame]
        var frames_rgba8: [String]?
    }

    struct Broken: Decodable {
        var frames_before_error: [String]
        var error_kind: String
        var error_offset: Int
        var default_image_sha256: String?
    }

    struct Still: Decodable {
        var default_image_sha256: String
    }

    var animations: [String: Animation]
    var broken: [String: Broken]
    var still: [String: Still]

    /// The references (empty if the file is missing, which the tests then report).
    static let all: APNGReferences = {
        guard let data = try? Data(contentsOf: Fixtures.url("apng/references.json")),
              let references = try? JSONDecoder().decode(APNGReferences.self, from: data) else {
            return APNGReferences(animations: [:], broken: [:], still: [:])
        }
        return references
    }()
}

/// Everything a decode gave: the frames pulled, the default image, the errors.
struct APNGOutcome {
    var frames: [AnimationFrame] = []
    var image: Image?
    /// The error of `feed`/`finish` (the default image's).
    var imageError: ImageDecodingError?
    /// The error `nextFrame()` threw (the animation's).
    var frameError: ImageDecodingError?
    var animation: AnimationInfo?
    var examined = 0
}

/// Feeds `pieces`, pulling frames after every piece when `pullWhileFeeding` (as a player does),
/// then finishes and pulls the rest. Feed and frame errors are kept apart, as the API keeps them.
func decodeAPNG(_ pieces: [ArraySlice<UInt8>], options: DecodingOptions = DecodingOptions(),
                pullWhileFeeding: Bool = true) -> APNGOutcome {
    let decoder = PNGDecoder(options: options)
    var outcome = APNGOutcome()
    func pull() {
        guard outcome.frameError == nil else { return }
        do {
            while let frame = try decoder.nextFrame() { outcome.frames.append(frame) }
        } catch let error as ImageDecodingError {
            outcome.frameError = error
        } catch {
            outcome.frameError = ImageDecodingError(.internal, at: nil, "unexpected \(error)")
        }
    }
    do {
        for piece in pieces {
            try decoder.feed(piece)
            if pullWhileFeeding { pull() }
        }
        outcome.image = try decoder.finish()
    } catch let error as ImageDecodingError {
        outcome.imageError = error
    } catch {
        outcome.imageError = ImageDecodingError(.internal, at: nil, "unexpected \(error)")
    }
    pull()
    outcome.animation = decoder.animation
    outcome.examined = decoder.inputBytesExamined
    return outcome
}

/// The fixture's bytes (empty if missing).
func apngFixture(_ name: String) -> [UInt8] {
    (try? Fixtures.bytes("apng/" + name)) ?? []
}

/// The chunkings every test runs: whole, 1, 7 and 4096 bytes, and two random splits.
func apngChunkings(_ bytes: [UInt8]) -> [(String, [ArraySlice<UInt8>])] {
    [("whole", [bytes[...]]), ("1", Chunking.fixed(bytes, size: 1)), ("7", Chunking.fixed(bytes, size: 7)),
     ("4096", Chunking.fixed(bytes, size: 4096)), ("random 1", Chunking.random(bytes, seed: 1, maxSize: 50)),
     ("random 2", Chunking.random(bytes, seed: 2, maxSize: 700))]
}

/// The reference's name for an error kind ("none" for no error).
func kindName(_ kind: ImageDecodingError.Kind?) -> String { kind?.rawValue ?? "none" }
