/// A command's arguments, read against its `CommandHelp`: options by name, then positionals.
///
/// It accepts what Unix users type: `--name value`, `--name=value`, `-q`, grouped short flags
/// (`-qh`), and `--` to end the options. A value option always takes the next word as its value,
/// so negative numbers work (`--min-magnitude -1`). Unknown options, missing values and values
/// given to flags are usage errors worded like swift-argument-parser's.
public struct ParsedArguments: Sendable {
    /// The command the arguments were read for.
    public let command: CommandHelp
    /// The words that are not options, in order.
    public private(set) var positionals: [String] = []
    /// The options given, in order: a flag with no value, a value option with its value. A command
    /// takes a handful, so a list serves look-ups as well as a dictionary would, and builds no hash
    /// table (and no search of the binary for `String`'s `Hashable` conformance) at start-up.
    private var given: [(name: String, value: String?)] = []

    public init(_ arguments: [String], for command: CommandHelp) throws(UsageError) {
        try self.init(arguments, for: command, leniently: false)
    }

    /// The arguments as far as they can be read, skipping what is wrong (an unknown option, a
    /// missing value): for a command that failed and still owes its caller output in the format
    /// the arguments ask for.
    static func leniently(_ arguments: [String], for command: CommandHelp) -> ParsedArguments {
        // Nothing throws when lenient.
        (try? ParsedArguments(arguments, for: command, leniently: true)) ?? ParsedArguments(command: command)
    }

    private init(command: CommandHelp) {
        self.command = command
    }

    private init(_ arguments: [String], for command: CommandHelp, leniently lenient: Bool) throws(UsageError) {
        self.command = command
        var remaining = arguments[...]
        while let word = remaining.popFirst() {
            if word == "--" {
                positionals += remaining
                break
            }
            if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                let inlineValue =
                    body.contains("=") ? String(body[body.index(after: body.firstIndex(of: "=")!)...]) : nil
                guard let option = command.options.first(where: { $0.name == name }) else {
                    if lenient { continue }
                    throw UsageError(
                        "Unknown option '--\(name)'"
                            + Suggestion.hint(for: "--\(name)", among: command.options.map { "--\($0.name)" }))
                }
                try take(option, inlineValue: inlineValue, from: &remaining, spelled: "--\(name)", lenient)
            } else if word.hasPrefix("-"), word.count > 1 {
                // Short options, possibly grouped: -qh. Only the last may take a value.
                let letters = Array(word.dropFirst())
                for (position, letter) in letters.enumerated() {
                    guard let option = command.options.first(where: { $0.short == letter }) else {
                        if lenient { break }
                        throw UsageError("Unknown option '-\(letter)'")
                    }
                    if option.value != nil, position != letters.count - 1 {
                        let rest = String(letters[(position + 1)...])
                        try take(option, inlineValue: rest, from: &remaining, spelled: "-\(letter)", lenient)
                        break
                    }
                    try take(option, inlineValue: nil, from: &remaining, spelled: "-\(letter)", lenient)
                }
            } else {
                positionals.append(word)
            }
        }
    }

    private mutating func take(
        _ option: CommandHelp.Option, inlineValue: String?, from remaining: inout ArraySlice<String>,
        spelled: String, _ lenient: Bool
    ) throws(UsageError) {
        guard option.value != nil else {
            if inlineValue != nil, !lenient { throw UsageError("The option '\(spelled)' does not take a value") }
            given.append((option.name, nil))
            return
        }
        guard let value = inlineValue ?? remaining.popFirst() else {
            if lenient { return }
            throw UsageError("Missing value for '\(option.label)'")
        }
        given.append((option.name, value))
    }

    /// True when `--help` or `-h` was given.
    public var wantsHelp: Bool { flag(.help) }

    /// True when the flag was given.
    public func flag(_ name: OptionName) -> Bool {
        checkDeclared(name)
        return given.contains { $0.name == name.rawValue && $0.value == nil }
    }

    /// The option's value; the last one when it was given more than once.
    public func value(_ name: OptionName) -> String? {
        checkDeclared(name)
        return given.last { $0.name == name.rawValue }?.value
    }

    /// Every value the option was given, in order.
    public func values(_ name: OptionName) -> [String] {
        checkDeclared(name)
        return given.compactMap { $0.name == name.rawValue ? $0.value : nil }
    }

    /// The option's value converted by `convert`, or nil when it was not given.
    ///
    /// A value `convert` rejects is a usage error: "The value 'abc' is invalid for '--timeout <seconds>'",
    /// followed by `expected`, which says what is accepted.
    public func value<Value>(_ name: OptionName, expected: String, _ convert: (String) -> Value?)
        throws(UsageError) -> Value?
    {
        guard let text = value(name) else { return nil }
        guard let converted = convert(text) else {
            let option = command.options.first { $0.name == name.rawValue }
            throw UsageError(
                "The value '\(text)' is invalid for '\(option?.label ?? "--\(name.rawValue)")': expected \(expected)"
                    + Self.hint(for: text, among: option?.choices ?? []))
        }
        return converted
    }

    /// True when the command declares the option: for option groups that commands take in part
    /// (the filters, of which `backfill` and `sync` take those a service answers).
    public func declares(_ name: OptionName) -> Bool {
        command.options.contains { $0.name == name.rawValue }
    }

    /// Stops on an option the command does not declare: reading one would always find it not
    /// given. Every command's `init` reads all its options whatever the words, so the first test
    /// of the command meets it; no input can.
    private func checkDeclared(_ name: OptionName) {
        precondition(
            command.options.contains { $0.name == name.rawValue },
            "\(command.commandName) reads the option '--\(name.rawValue)', which it does not declare")
    }

    /// "Did you mean" for the first word of `text` that is none of `choices`: the words are the
    /// comma-separated parts, each without what follows a colon (`magnitude:asc`).
    static func hint(for text: String, among choices: [String]) -> String {
        guard !choices.isEmpty else { return "" }
        let known = Set(choices.map { $0.lowercased() })
        let words = text.split(separator: ",").map { String($0.split(separator: ":").first ?? "") }
        guard let unknown = words.first(where: { !known.contains($0.lowercased()) }) else { return "" }
        return Suggestion.hint(for: unknown, among: choices)
    }

    /// Fails when more positionals were given than `limit`.
    public func checkPositionalCount(atMost limit: Int) throws(UsageError) {
        guard positionals.count > limit else { return }
        throw UsageError("Unexpected argument '\(positionals[limit])'")
    }
}
