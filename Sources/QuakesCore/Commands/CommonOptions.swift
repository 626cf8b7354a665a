/// Options several commands share, each declared once with how its value is read.
package enum CommonOptions {
    package static let utc = Flag(
        "utc", help: "Read and show calendar times (dates, days, tables) in UTC instead of the TZ zone.")

    package static let section = ValueOption(
        "section", value: "key",
        help: "Divide into sections by day or magnitude (also hour, week, month, type, network, alert).",
        choices: SectionKey.allCases.map(\.rawValue), expected: SectionKey.form
    ) { SectionKey(rawValue: $0.lowercased()) }

    package static let color = ValueOption(
        "color", value: "when",
        help: "Colour: auto (on a terminal, unless NO_COLOR is set or TERM is dumb), always or never.",
        default: "auto", choices: ColorChoice.allCases.map(\.rawValue), expected: "auto, always or never"
    ) { ColorChoice(rawValue: $0.lowercased()) }
    .defaulting(to: .auto)

    /// `--limit`, with the help of the command that takes it.
    package static func limit(help: String) -> ValueOption<Int> {
        ValueOption("limit", value: "n", help: help, expected: eventCount, count)
    }

    package static let limitPerSection = ValueOption(
        "limit-per-section", value: "n", help: "At most N events in each section, the first in output order.",
        expected: eventCount, count)

    private static let eventCount = "a whole number of events, 0 or more"

    /// A count of events: a whole number, 0 or more.
    private static func count(_ text: String) -> Int? {
        Int(text).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// `--format`, whose choices are `Format`'s cases; `table` is also accepted as `text` where a
    /// command called it that first.
    package static func format<Format: RawRepresentable & CaseIterable & Sendable & Equatable>(
        _: Format.Type, help: String, default defaultValue: Format
    ) -> DefaultedOption<Format> where Format.RawValue == String {
        let names = Format.allCases.map(\.rawValue)
        let expected =
            Array(names.dropLast()).concatenated(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
        return ValueOption(
            "format", value: "format", help: help, default: defaultValue.rawValue, choices: names, expected: expected
        ) { text in
            let name = text.lowercased()
            return Format(rawValue: name == "text" ? "table" : name)
        }
        .defaulting(to: defaultValue)
    }

    /// `--limit` (as `limit` declares it) and `--limit-per-section`, read; the second needs sections.
    package static func limits(_ arguments: ParsedArguments, limit: ValueOption<Int>, sectioned: Bool)
        throws(UsageError) -> (limit: Int?, perSection: Int?)
    {
        let perSection = try arguments.read(limitPerSection)
        if perSection != nil, !sectioned { throw UsageError("'--limit-per-section <n>' needs '--section <key>'") }
        return (try arguments.read(limit), perSection)
    }

    /// When to colour output.
    package enum ColorChoice: String, Sendable, CaseIterable {
        case auto, always, never

        /// True when output is coloured: always, never, or, for `auto`, when the environment allows.
        package func usesColour(in environment: Environment) -> Bool {
            switch self {
            case .always: true
            case .never: false
            case .auto: environment.usesColour
            }
        }
    }
}

extension Environment {
    /// The zone calendar times are read and shown in: UTC with `--utc`, else `TZ`'s (the system's).
    package func zone(utc: Bool) -> DisplayZone {
        utc ? .utc : displayZone
    }
}
