/// An option declared once: what help, the manual, the completions and the parser show and accept
/// (its `declaration`), and, in the conforming types, how its value is read and what type it has.
///
/// A command lists its options' declarations in its `CommandHelp`, and reads each option through
/// the same value (`try arguments.read(Self.limit)`): nothing pairs a value's form with its option
/// by name when the command runs.
public protocol DeclaredOption: Sendable {
    /// The option as help, the manual, the completions and the parser see it.
    var declaration: CommandHelp.Option { get }
}

/// A flag, such as `-q, --quiet`: read as true when given.
public struct Flag: DeclaredOption {
    public let declaration: CommandHelp.Option

    package init(_ name: String, short: Character? = nil, help: String) {
        declaration = CommandHelp.Option(name, short: short, help: help)
    }
}

/// An option that takes a value, such as `--limit <n>`: read as the `Value` that `convert` makes of
/// the last text given, or nil when it was not given (`defaulting(to:)` makes one read as a `Value`).
public struct ValueOption<Value: Sendable>: DeclaredOption {
    public let declaration: CommandHelp.Option
    /// What a malformed value's message says is accepted: `a whole number of events, 0 or more`.
    let expected: String
    /// The value a text means, nil when it is malformed; it may throw a message of its own.
    private let convert: @Sendable (String) throws(UsageError) -> Value?

    /// `value` is the placeholder (`seconds`), `default` the default as help shows it (`60`, `$QUAKES_NOW,
    /// else the clock`), `choices` the words a value is made of, for completion and for the "did you
    /// mean" of a mistyped one.
    package init(
        _ name: String, short: Character? = nil, value placeholder: String, help: String,
        default shownDefault: String? = nil, choices: [String] = [], takesPath: Bool = false, expected: String,
        _ convert: @escaping @Sendable (String) throws(UsageError) -> Value?
    ) {
        declaration = CommandHelp.Option(
            name, short: short, value: placeholder, help: help, default: shownDefault, choices: choices,
            takesPath: takesPath)
        self.expected = expected
        self.convert = convert
    }

    /// The value `text` means. A text `convert` rejects is a usage error: "The value 'abc' is invalid
    /// for '--timeout <seconds>': expected …", with a "did you mean" among the choices.
    func value(of text: String) throws(UsageError) -> Value {
        guard let value = try convert(text) else {
            throw UsageError(
                "The value '\(text)' is invalid for '\(declaration.label)': expected \(expected)"
                    + ParsedArguments.hint(for: text, among: declaration.choices))
        }
        return value
    }

    /// The option read as `value` when it is not given. The default help shows is the text that
    /// reads as `value`: the two are the same fact, and a debug build (every test) stops where they
    /// part.
    package func defaulting(to value: Value) -> DefaultedOption<Value> where Value: Equatable {
        assert(
            declaration.defaultValue.flatMap { try? convert($0) } == value,
            "--\(declaration.name)'s default, as help shows it, does not read as its value")
        return DefaultedOption(option: self, defaultValue: value)
    }
}

/// An option that takes a value and has one when not given, such as `--timeout <seconds>`.
///
/// The default as help shows it is the declaration's (`60`, `1G`): the text that reads as
/// `defaultValue` (`ValueOption.defaulting(to:)` checks it).
public struct DefaultedOption<Value: Sendable>: DeclaredOption {
    /// The option without its default.
    let option: ValueOption<Value>
    /// The value when the option is not given.
    let defaultValue: Value

    public var declaration: CommandHelp.Option {
        option.declaration
    }
}
