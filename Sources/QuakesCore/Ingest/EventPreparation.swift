/// What an engine makes of each decoded event before its store writes it, on the decoders'
/// threads: a form its writes take in place of the `Quake` (a copy packed in one buffer, say,
/// whose texts a database binds where they lie). The decoders have cores to spare in a first load, while
/// the store's thread is a fetch's critical path; an engine that would not use such a form offers
/// none (`QuakeWriting.eventPreparation` is nil), and the decoders make nothing for it.
public protocol EventPreparation: Sendable {
    /// The engine's form of `quake`, handed back to its store with the event
    /// (`IdentityStore.writeEvent(_:prepared:)`).
    func prepare(_ quake: Quake) -> any AnyObject & Sendable
}
