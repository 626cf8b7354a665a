/// Options several commands share, and how they are read.
package enum CommonOptions {
    package static let utc = CommandHelp.Option(
        .utc, help: "Read and show calendar times (dates, days, tables) in UTC instead of the TZ zone.")

    package static let section = CommandHelp.Option(
        .section, value: "key",
        help: "Divide into sections by day or magnitude (also hour, week, month, type, network, alert).",
        choices: SectionKey.allCases.map(\.rawValue))

    package static let color = CommandHelp.Option(
        .color, value: "when",
        help: "Colour: auto (on a terminal, unless NO_COLOR is set or TERM is dumb), always or never.",
        default: "auto", choices: ColorChoice.allCases.map(\.rawValue))

    package static let limitPerSection = CommandHelp.Option(
        .limitPerSection, value: "n", help: "At most N events in each section, the first in output order.")

    /// `--format`, whose choices are `Format`'s cases; `table` is also accepted as `text` where a
    /// command called it that first.
    package static func format<Format: RawRepresentable & CaseIterable>(
        _: Format.Type, help: String, default defaultValue: Format
    ) -> CommandHelp.Option where Format.RawValue == String {
        CommandHelp.Option(
            .format, value: "format", help: help, default: defaultValue.rawValue,
            choices: Format.allCases.map(\.rawValue))
    }

    /// Reads `--format`; `text` means `table`.
    package static func format<Format: RawRepresentable & CaseIterable>(
        _ arguments: ParsedArguments, default defaultValue: Format
    ) throws(UsageError) -> Format where Format.RawValue == String {
        let names = Format.allCases.map(\.rawValue)
        let expected =
            Array(names.dropLast()).concatenated(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
        return try arguments.value(.format, expected: expected) { text in
            let name = text.lowercased()
            return Format(rawValue: name == "text" ? "table" : name)
        } ?? defaultValue
    }

    /// `--section`, read.
    package static func section(_ arguments: ParsedArguments) throws(UsageError) -> SectionKey? {
        try arguments.value(.section, expected: SectionKey.form) { SectionKey(rawValue: $0.lowercased()) }
    }

    /// `--limit` and `--limit-per-section`, read; the second needs sections.
    package static func limits(_ arguments: ParsedArguments, sectioned: Bool) throws(UsageError)
        -> (limit: Int?, perSection: Int?)
    {
        func read(_ name: OptionName) throws(UsageError) -> Int? {
            try arguments.value(name, expected: "a whole number of events, 0 or more") { text in
                Int(text).flatMap { $0 >= 0 ? $0 : nil }
            }
        }
        let perSection = try read(.limitPerSection)
        if perSection != nil, !sectioned { throw UsageError("'--limit-per-section <n>' needs '--section <key>'") }
        return (try read(.limit), perSection)
    }

    /// When to colour output.
    package enum ColorChoice: String, Sendable, CaseIterable {
        case auto, always, never

        /// Reads `--color`.
        package init(_ arguments: ParsedArguments) throws(UsageError) {
            self =
                try arguments.value(.color, expected: "auto, always or never") {
                    ColorChoice(rawValue: $0.lowercased())
                }
                ?? .auto
        }

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
