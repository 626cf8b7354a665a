/// What a storage engine says of itself: the `--db` values it keeps, what a database of it is, and
/// what it can do. Help, the manual and messages name engines from these, so that the core names
/// none and a new engine needs no word changed outside its own module.
package struct EngineDescription: Sendable {
    /// The `--db` values it keeps, as help lists them: `postgresql://…`, `*.geojson, *.json`.
    package var values: String
    /// What it is for, in a sentence, for help and the manual.
    package var summary: String
    /// What a database of the engine is, in messages: `a GeoJSON-file store`.
    package var kind: String
    /// How to keep a catalogue with it, in a message that suggests it: `a SQLite file (--db
    /// quakes.sqlite)`.
    package var suggestion: String
    package var capabilities: EngineCapabilities
    /// Why it lacks a capability, when the lack would surprise: said where a command refuses for it.
    package var limitation: String?

    package init(
        values: String, summary: String, kind: String, suggestion: String, capabilities: EngineCapabilities,
        limitation: String? = nil
    ) {
        self.values = values
        self.summary = summary
        self.kind = kind
        self.suggestion = suggestion
        self.capabilities = capabilities
        self.limitation = limitation
    }
}

/// What an engine can do beyond keeping events, which commands ask before they rely on it.
package struct EngineCapabilities: OptionSet, Sendable {
    package let rawValue: UInt8

    package init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// It keeps the history's transactions (`history` lists them); every engine keeps the last token.
    package static let keepsHistory = EngineCapabilities(rawValue: 1 << 0)
    /// It records when a fetch of each source last succeeded (`status --fresh-within`).
    package static let recordsChecks = EngineCapabilities(rawValue: 1 << 1)
    /// It tells other processes of a commit as it happens (`DatabaseReader.changeListener()`, which
    /// `watch` asks for only then), so that `watch --no-fetch` need not look again every interval.
    package static let announcesCommits = EngineCapabilities(rawValue: 1 << 2)
}

extension [any StorageEngine] {
    /// The engines that can do `capability`, as a message suggests them: `a PostgreSQL database
    /// (--db postgresql://…) or a SQLite file (--db quakes.sqlite)`.
    package func suggestions(for capability: EngineCapabilities) -> String {
        let names = map(\.description).filter { $0.capabilities.contains(capability) }.map(\.suggestion)
        guard let last = names.last else { return "another engine" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
    }
}
