/// Options several commands share.
enum CommonOptions {
    static let utc = CommandHelp.Option("utc", help: "Show times and local sections in UTC instead of the TZ zone.")

    static let section = CommandHelp.Option(
        "section", value: "key",
        help: "Divide into sections by day or magnitude (also hour, week, month, type, network, alert).")

    /// `--section`, read.
    static func section(_ arguments: ParsedArguments) throws(UsageError) -> SectionKey? {
        try arguments.value("section", expected: SectionKey.form) { SectionKey(rawValue: $0.lowercased()) }
    }

    /// The zone to show times in: UTC with `--utc`, else `TZ`'s.
    static func zone(_ arguments: ParsedArguments, in environment: Environment) -> DisplayZone {
        arguments.flag("utc") ? .utc : environment.displayZone
    }
}
