@testable import QuakesCore

/// What tests ask of any engine's reader beside the commands' own questions.
extension QuakeReading {
    /// Every stored event.
    func count() throws -> Int {
        try count(QuakeFilter())
    }

    /// The event stored under `id` itself, without following re-identified ids as `show` does.
    func quake(id: String) throws -> Quake? {
        try allQuakes().first { $0.id == id }
    }
}
