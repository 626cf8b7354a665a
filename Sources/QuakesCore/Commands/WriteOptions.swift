/// The options of the commands that write the database and then report what they did (`fetch`,
/// `backfill`, `sync`): how long to wait for another writer, and how the summary is written.
/// Declared once, for help, the manual and the completions, and read once into typed values.
///
/// Each declaration is its own value, so that a command lists it where its help has always shown
/// it; `prune` takes `--wait` too.
struct WriteOptions: Sendable {
    /// The summary's formats.
    enum Format: String, Sendable, CaseIterable {
        case table, json
    }

    static let wait = ValueOption(
        "wait", value: "seconds", help: "How long to wait for another quakes process writing the database.",
        default: "0", expected: "a number of seconds, 0 or more"
    ) { Double($0).flatMap { $0 >= 0 && $0.isFinite ? $0 : nil } }
    .defaulting(to: 0)

    static let format = CommonOptions.format(
        Format.self,
        help:
            "The summary's format: table (also text; lines on standard error) or json (one object on standard output).",
        default: .table)

    static let quiet = Flag("quiet", short: "q", help: "Print nothing on success (for cron).")

    /// `--wait`: how long to wait for another process's writer lock, in seconds.
    var wait: Double
    var format: Format
    /// `--quiet`: no progress line and, in the table format, no summary unless something fails.
    var quiet: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        wait = try arguments.read(Self.wait)
        format = try arguments.read(Self.format)
        quiet = arguments.read(Self.quiet)
    }

    /// True when a progress line may be drawn: on a terminal, without `--quiet`.
    func showsProgress(in environment: Environment) -> Bool {
        environment.standardErrorIsTerminal && !quiet
    }

    /// Writes the summary as `--format` and `--quiet` ask: `json` on standard output, or `text` on
    /// standard error unless quiet.
    func write(json: () -> JSONValue, text: () -> String, in environment: Environment) {
        switch format {
        case .json: environment.standardOutput.writeLine(json().serialized())
        case .table where !quiet: environment.standardError.write(text())
        case .table: break
        }
    }

    /// The one JSON object a command with these options writes when it fails as a whole (see
    /// `Command.failureOutput`), nil when it was not asked for JSON.
    static func jsonFailure(_ arguments: [String], for help: CommandHelp, _ object: () -> JSONValue) -> String? {
        let parsed = ParsedArguments.leniently(arguments, for: help)
        guard (try? parsed.read(format)) == .json else { return nil }
        return object().serialized() + "\n"
    }
}
