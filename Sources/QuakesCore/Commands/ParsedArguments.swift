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
    private var givenOptions: [(name: String, value: String?)] = []

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
            givenOptions.append((option.name, nil))
            return
        }
        guard let value = inlineValue ?? remaining.popFirst() else {
            if lenient { return }
            throw UsageError("Missing value for '\(option.label)'")
        }
        givenOptions.append((option.name, value))
    }

    /// True when `--help` or `-h` was given.
    public var wantsHelp: Bool { read(CommandHelp.help) }

    /// True when the flag was given.
    package func read(_ flag: Flag) -> Bool {
        assertDeclared(flag)
        let name = flag.declaration.name
        return givenOptions.contains { $0.name == name && $0.value == nil }
    }

    /// The option's value, from the last text given for it, or nil when it was not given; a malformed
    /// one is a usage error that names the option and the form it accepts.
    package func read<Value>(_ option: ValueOption<Value>) throws(UsageError) -> Value? {
        assertDeclared(option)
        let name = option.declaration.name
        guard let text = givenOptions.last(where: { $0.name == name })?.value else { return nil }
        return try option.value(of: text)
    }

    /// The option's value, from the last text given for it, or its default when it was not given.
    package func read<Value>(_ option: DefaultedOption<Value>) throws(UsageError) -> Value {
        try read(option.option) ?? option.defaultValue
    }

    /// Every value the option was given, in order.
    package func values<Value>(_ option: ValueOption<Value>) throws(UsageError) -> [Value] {
        assertDeclared(option)
        let name = option.declaration.name
        var values: [Value] = []
        for entry in givenOptions where entry.name == name {
            if let text = entry.value { values.append(try option.value(of: text)) }
        }
        return values
    }

    /// How an option was given, as typed.
    package enum Given: Equatable, Sendable {
        /// A flag.
        case flag
        /// An option that takes a value, with the last one given.
        case value(String)
    }

    /// How `option` was last given, as typed; nil when it was not. For spelling out the options a
    /// command was given (`FilterOptions.asGiven`), not for reading them: `read` does that.
    package func given(_ option: CommandHelp.Option) -> Given? {
        givenOptions.last { $0.name == option.name }.map { $0.value.map(Given.value) ?? .flag }
    }

    /// True when the command declares the option: for option groups that commands take in part
    /// (the filters, of which `backfill` and `sync` take those a service answers).
    package func declares(_ option: some DeclaredOption) -> Bool {
        declares(option.declaration)
    }

    /// True when the command declares the option.
    package func declares(_ option: CommandHelp.Option) -> Bool {
        let name = option.name
        return command.options.contains { $0.name == name }
    }

    /// Stops, in a debug build, on reading an option the command does not declare: it would always
    /// read as not given. A command could still do so (an option group's reading of an option the
    /// command did not list), so it is checked, not impossible; every command's `init` reads all its
    /// options whatever the words (but for a usage error that ends it early), so the command's
    /// first test meets it, and no input can.
    private func assertDeclared(_ option: some DeclaredOption) {
        assert(
            declares(option),
            "\(command.commandName) reads the option '--\(option.declaration.name)', which it does not declare")
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
