/// A command line that cannot be run, with the reason.
struct ArgumentError: Error {
    let message: String
}
