/// The filter options that the commands asking the database share (`count`, `list`, `watch`,
/// `chart`, `map`; `backfill` and `sync` take those a service answers), and how they become a
/// `QuakeFilter`.
package struct FilterOptions: Sendable, Equatable {
    /// The PAGER alert levels, as feeds write them (`pending` until PAGER has run).
    package static let alertLevels = ["green", "yellow", "orange", "red", "pending"]
    package static let statuses = ["automatic", "reviewed"]

    package typealias Moment = TimeExpression.Moment

    static let last = ValueOption(
        "last", value: "duration",
        help: "Events of the last DURATION: now − DURATION ≤ time ≤ now. Units s, m, h, d, w: 30m, 5h, 1.5d.",
        expected: TimeExpression.durationForm, TimeExpression.duration)
    static let since = ValueOption(
        "since", value: "when",
        help:
            "Events at or after WHEN: YYYY-MM-DD (midnight in the display zone), a date-time in the display zone or with Z or an offset, or a duration before now.",
        expected: TimeExpression.momentForm, Moment.init)
    static let until = ValueOption(
        "until", value: "when", help: "Events before WHEN (exclusive), written as for --since.",
        expected: TimeExpression.momentForm, Moment.init)
    static let now = now(help: "The moment taken as now, for reproducible queries over old data.")
    static let minMagnitude = ValueOption(
        "min-magnitude", value: "m", help: "Magnitude at least M; events with no magnitude never match.",
        expected: magnitude, finiteNumber)
    static let maxMagnitude = ValueOption(
        "max-magnitude", value: "m", help: "Magnitude at most M.", expected: magnitude, finiteNumber)
    static let place = ValueOption(
        "place", value: "text", help: "Place contains TEXT, ignoring case and accents (Unicode-aware).",
        expected: "some text"
    ) { $0.isEmpty ? nil : $0 }
    static let `type` = ValueOption(
        "type", value: "type", help: "Event type, ignoring case: earthquake, quarry blast, explosion…",
        expected: "an event type, such as earthquake"
    ) { $0.isEmpty ? nil : $0 }
    static let status = ValueOption(
        "status", value: "status", help: "automatic or reviewed, ignoring case.", choices: statuses,
        expected: "automatic or reviewed"
    ) { text in statuses.contains(text.lowercased()) ? text.lowercased() : nil }
    static let alert = ValueOption(
        "alert", value: "level", help: "PAGER alert level: green, yellow, orange, red or pending.",
        choices: alertLevels, expected: "green, yellow, orange, red or pending"
    ) { text in alertLevels.contains(text.lowercased()) ? text.lowercased() : nil }
    static let tsunami = Flag("tsunami", help: "Only events flagged for a possible tsunami.")
    static let near = ValueOption(
        "near", value: "lat,lon",
        help:
            "Measure distances from this point (a distance column, --sort distance); with --radius, keep only events within KM. Also a capital's or large city's name, ignoring case and accents: tokyo, sao paulo.",
        expected: "LAT,LON with latitude in [-90, 90] and longitude in [-180, 180], such as 35.7,139.7"
    ) { text -> Near? in
        if namesAPlace(text) { return .place(text) }
        guard let numbers = numberList(text, count: 2), abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 else {
            return nil
        }
        return .point(GeoPoint(latitude: numbers[0], longitude: numbers[1]))
    }
    static let radius = ValueOption(
        "radius", value: "km", help: "The radius of --near, in kilometres.",
        expected: "a number of kilometres greater than 0"
    ) { finiteNumber($0).flatMap { $0 > 0 ? $0 : nil } }
    static let bbox = ValueOption(
        "bbox", value: "minlon,minlat,maxlon,maxlat",
        help: "Events in this box; it crosses the date line when MINLON > MAXLON.",
        expected:
            "MINLON,MINLAT,MAXLON,MAXLAT in degrees, latitudes in [-90, 90] with MINLAT ≤ MAXLAT, longitudes in [-180, 180]",
        box)
    static let minDepth = ValueOption(
        "min-depth", value: "km", help: "Depth at least KM (negative above sea level).",
        expected: "a number of kilometres", finiteNumber)
    static let maxDepth = ValueOption(
        "max-depth", value: "km", help: "Depth at most KM.", expected: "a number of kilometres", finiteNumber)

    private static let magnitude = "a number, such as 4.5 or -0.5"

    /// Every filter, in the order help lists them and `asGiven` spells them: what `count`, `list`,
    /// `watch`, `chart` and `map` take.
    package static let options: [CommandHelp.Option] = [
        last.declaration, since.declaration, until.declaration, now.declaration, minMagnitude.declaration,
        maxMagnitude.declaration, place.declaration, `type`.declaration, status.declaration, alert.declaration,
        tsunami.declaration, near.declaration, radius.declaration, bbox.declaration, minDepth.declaration,
        maxDepth.declaration,
    ]

    /// `--now`, with the help of the command that takes it: the moment taken as now.
    static func now(help: String) -> ValueOption<Moment> {
        ValueOption(
            "now", value: "when", help: help, default: "$QUAKES_NOW, else the clock",
            expected: TimeExpression.momentForm, Moment.init)
    }

    package var last: Int64?
    package var since: Moment?
    package var until: Moment?
    package var now: Moment?
    /// The point of `--near`, which distances are measured from; nil for a place's name until
    /// `resolvingPlace(in:)` looks it up.
    package var origin: GeoPoint?
    /// The name `--near` was given instead of LAT,LON. It is looked up when the command runs, not
    /// here: only such a command reads the list of places, from the data folder the environment
    /// names, and a list that is missing is the installation's fault, not a usage error.
    package var place: String?
    /// `--radius`: the circle around `origin` to keep events in.
    package var radius: Double?
    /// Everything that does not depend on "now" or on the calendar's zone.
    package var fixed = QuakeFilter()
    /// The filter options as given, in the order of `options` (`--min-magnitude 4.5 --last 7d`): what
    /// a picture's title says it shows. Empty unless asked for (`describing`).
    package var asGiven = ""
    /// `--since` and `--until` as typed (`--since 2021-07-22`), for the error that says they
    /// contradict each other, which only their resolved moments can tell.
    private var sinceAsTyped: String?
    private var untilAsTyped: String?

    /// Reads and checks the filter options; malformed values are usage errors naming the option
    /// and the form it accepts. `describing` also spells them out in `asGiven`, for the commands that
    /// draw: built for every command, it would be a large part of `count`'s parsing.
    package init(_ arguments: ParsedArguments, describing: Bool = false) throws(UsageError) {
        // Commands may take some of the filters only (`backfill` and `sync` those a service answers).
        func declared<Value>(_ option: ValueOption<Value>) throws(UsageError) -> Value? {
            arguments.declares(option) ? try arguments.read(option) : nil
        }
        last = try declared(Self.last)
        since = try declared(Self.since)
        until = try declared(Self.until)
        now = try declared(Self.now)
        fixed.minimumMagnitude = try declared(Self.minMagnitude)
        fixed.maximumMagnitude = try declared(Self.maxMagnitude)
        fixed.minimumDepth = try declared(Self.minDepth)
        fixed.maximumDepth = try declared(Self.maxDepth)
        fixed.placeContains = try declared(Self.place)
        fixed.eventType = try declared(Self.`type`)
        fixed.status = try declared(Self.status)
        fixed.alert = try declared(Self.alert)
        fixed.tsunamiOnly = arguments.declares(Self.tsunami) && arguments.read(Self.tsunami)
        let near = try declared(Self.near)
        radius = try declared(Self.radius)
        switch near {
        case .point(let point)?: measure(from: point)
        case .place(let name)?: place = name
        case nil: if radius != nil { throw UsageError("'--radius <km>' needs '--near <lat,lon>'") }
        }
        fixed.box = try declared(Self.bbox)
        sinceAsTyped = Self.typed(Self.since.declaration, in: arguments)
        untilAsTyped = Self.typed(Self.until.declaration, in: arguments)
        try Self.checkRange(
            fixed.minimumMagnitude, fixed.maximumMagnitude, Self.minMagnitude, Self.maxMagnitude, arguments)
        try Self.checkRange(fixed.minimumDepth, fixed.maximumDepth, Self.minDepth, Self.maxDepth, arguments)
        guard describing else { return }
        asGiven = Self.options.compactMap { option -> String? in
            guard arguments.declares(option) else { return nil }
            switch arguments.given(option) {
            case .flag?: return "--" + option.name
            case .value(let value)?: return "--\(option.name) " + Self.quotedForShell(value)
            case nil: return nil
            }
        }.concatenated(separator: " ")
    }

    /// A box as `--bbox` writes it: `MINLON,MINLAT,MAXLON,MAXLAT`, across the date line when
    /// MINLON > MAXLON; nil when malformed.
    package static func box(_ text: String) -> QuakeFilter.Box? {
        guard let numbers = numberList(text, count: 4), numbers[1] <= numbers[3],
            [numbers[0], numbers[2]].allSatisfy({ abs($0) <= 180 }),
            [numbers[1], numbers[3]].allSatisfy({ abs($0) <= 90 })
        else { return nil }
        return QuakeFilter.Box(
            minimumLongitude: numbers[0], minimumLatitude: numbers[1],
            maximumLongitude: numbers[2], maximumLatitude: numbers[3])
    }

    /// A minimum greater than its maximum, which no event could match, is a usage error that names both.
    private static func checkRange(
        _ minimum: Double?, _ maximum: Double?, _ minimumOption: ValueOption<Double>,
        _ maximumOption: ValueOption<Double>, _ arguments: ParsedArguments
    ) throws(UsageError) {
        guard let minimum, let maximum, minimum > maximum else { return }
        throw UsageError(
            "'\(typed(minimumOption.declaration, in: arguments) ?? "")' is greater than "
                + "'\(typed(maximumOption.declaration, in: arguments) ?? "")'")
    }

    /// `--name value`: an option that takes a value as it was last given, for messages; nil when it
    /// was not.
    private static func typed(_ option: CommandHelp.Option, in arguments: ParsedArguments) -> String? {
        guard case .value(let value)? = arguments.given(option) else { return nil }
        return "--\(option.name) \(value)"
    }

    /// A value as a shell would need it: as it is when it is one plain word, else in single quotes.
    private static func quotedForShell(_ value: String) -> String {
        let plain =
            !value.isEmpty
            && value.unicodeScalars.allSatisfy { scalar in
                scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                    || ",.:+-_/@%".unicodeScalars.contains(scalar)
            }
        return plain ? value : "'" + value.replacingEvery("'", with: #"'\''"#) + "'"
    }

    /// True when `--near` was given, as a point or a place: distances can be measured.
    package var measuresDistance: Bool {
        origin != nil || place != nil
    }

    /// The options with the place `--near` names looked up among the places quakes ships, so that
    /// both the filter's circle and the distances are measured from its point.
    package func resolvingPlace(in environment: Environment) throws -> FilterOptions {
        guard let place else { return self }
        var resolved = self
        resolved.place = nil
        resolved.measure(from: try PopulatedPlaces.load(from: SharedData(environment)).place(named: place).point)
        return resolved
    }

    /// Measures distances from `point`, and keeps the events within `radius` of it when one was given.
    private mutating func measure(from point: GeoPoint) {
        origin = point
        if let radius {
            fixed.circle = QuakeFilter.Circle(latitude: point.latitude, longitude: point.longitude, radius: radius)
        }
    }

    /// "Now": `--now`, else `QUAKES_NOW`, else the clock; a calendar time in `zone`.
    package func now(in environment: Environment, zone: DisplayZone) throws(UsageError) -> Int64 {
        try Self.now(now, in: environment, zone: zone)
    }

    /// "Now": `option` (a `--now` value), else `QUAKES_NOW`, else the clock; a calendar time in `zone`.
    package static func now(_ now: Moment?, in environment: Environment, zone: DisplayZone) throws(UsageError) -> Int64
    {
        let clock = environment.clock()
        if let now { return now.resolve(now: clock, zone: zone) }
        if let text = environment.variables["QUAKES_NOW"], !text.isEmpty {
            guard let moment = Moment(text) else {
                throw UsageError("The value '\(text)' of QUAKES_NOW is invalid: expected \(TimeExpression.momentForm)")
            }
            return moment.resolve(now: clock, zone: zone)
        }
        return clock
    }

    /// True when the filter moves with the clock (`--last`, or a bound given as a duration), so a
    /// result set can change without any write.
    package var dependsOnNow: Bool {
        guard now == nil else { return false }
        if last != nil { return true }
        return [since, until].contains { if case .beforeNow = $0 { true } else { false } }
    }

    /// The filter, with time bounds resolved against "now" and calendar times in `zone`.
    ///
    /// A `--since` at or after `--until` is a usage error rather than an empty answer: which one is
    /// later may depend on now (a duration) and on the zone (a date), so it is told here.
    package func filter(in environment: Environment, zone: DisplayZone) throws(UsageError) -> QuakeFilter {
        let now = try now(in: environment, zone: zone)
        var filter = fixed
        if let last {
            filter.earliest = now - last
            filter.latest = now
        }
        let start = since?.resolve(now: now, zone: zone)
        let end = until?.resolve(now: now, zone: zone)
        if let start, let end, start >= end {
            let since = "'\(sinceAsTyped ?? "--since")'"
            let until = "'\(untilAsTyped ?? "--until")'"
            throw UsageError(
                start > end
                    ? "\(since) is after \(until)" : "\(since) is the same moment as \(until) (--until is exclusive)")
        }
        if let start { filter.earliest = max(filter.earliest ?? .min, start) }
        if let end { filter.before = end }
        return filter
    }
}

extension FilterOptions {
    /// What `--near` was given: a point, or a place's name (`--near tokyo`).
    enum Near: Sendable {
        case point(GeoPoint)
        case place(String)
    }
}

/// True when `text` is a name (`São Paulo`, `Washington, D.C.`): it has a letter, and is not a
/// list of numbers, which keeps every malformed LAT,LON (`91,0`, `nan,0`) the error it always was.
private func namesAPlace(_ text: String) -> Bool {
    text.contains(where: \.isLetter)
        && !text.split(separator: ",", omittingEmptySubsequences: false).allSatisfy {
            Double($0.trimmingCharacters(where: \.isBlank)) != nil
        }
}

private func finiteNumber(_ text: String) -> Double? {
    Double(text).flatMap { $0.isFinite ? $0 : nil }
}

/// `count` comma-separated finite numbers.
private func numberList(_ text: String, count: Int) -> [Double]? {
    let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map {
        finiteNumber($0.trimmingCharacters(where: \.isBlank))
    }
    guard numbers.count == count, numbers.allSatisfy({ $0 != nil }) else { return nil }
    return numbers.map { $0! }
}
