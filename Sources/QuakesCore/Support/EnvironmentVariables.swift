import Glibc

/// The variables a command reads (`QUAKES_DB`, `TZ`, `HOME`…): the process's own, each read when
/// asked for, or a fixed set that a test hands in.
///
/// Commands only ever look variables up by name, a handful per run, so the process's are never
/// copied into a dictionary: building one at start-up would have the Swift runtime instantiate
/// `[String: String]` and search the binary for `String`'s `Hashable` conformance, a cost every
/// command would pay.
public struct EnvironmentVariables: Sendable, ExpressibleByDictionaryLiteral {
    /// The fixed set, or nil for the process's own.
    private let fixed: [String: String]?

    /// This process's variables, read with `getenv` (the first of duplicates) at each look-up.
    /// Nothing in quakes may change its own environment (`setenv`, `putenv`): a look-up on another
    /// thread would race with it. So a look-up sees what the process started with.
    package static let process = EnvironmentVariables(fixed: nil)

    private init(fixed: [String: String]?) {
        self.fixed = fixed
    }

    /// Exactly `variables`, whatever the process has.
    public init(_ variables: [String: String]) {
        fixed = variables
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fixed = Dictionary(uniqueKeysWithValues: elements)
    }

    /// The value of the variable `name`, or nil when it is unset.
    public subscript(name: String) -> String? {
        if let fixed { return fixed[name] }
        return getenv(name).map { String(cString: $0) }
    }
}
