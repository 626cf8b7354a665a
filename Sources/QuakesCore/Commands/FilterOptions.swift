/// The filter options that the commands asking the database share (`count`, `list`, `watch`,
/// `chart`, `map`; `backfill` and `sync` take those a service answers), and how they become a
/// `QuakeFilter`.
package struct FilterOptions: Sendable, Equatable {
    /// The PAGER alert levels, as feeds write them (`pending` until PAGER has run).
    package static let alertLevels = ["green", "yellow", "orange", "red", "pending"]
    package static let statuses = ["automatic", "reviewed"]

    package static let options: [CommandHelp.Option] = [
        .init(
            .last, value: "duration",
            help: "Events of the last DURATION: now − DURATION ≤ time ≤ now. Units s, m, h, d, w: 30m, 5h, 1.5d."),
        .init(
            .since, value: "when",
            help:
                "Events at or after WHEN: YYYY-MM-DD (midnight in the display zone), a date-time in the display zone or with Z or an offset, or a duration before now."
        ),
        .init(.until, value: "when", help: "Events before WHEN (exclusive), written as for --since."),
        .init(
            .now, value: "when", help: "The moment taken as now, for reproducible queries over old data.",
            default: "$QUAKES_NOW, else the clock"),
        .init(.minMagnitude, value: "m", help: "Magnitude at least M; events with no magnitude never match."),
        .init(.maxMagnitude, value: "m", help: "Magnitude at most M."),
        .init(.place, value: "text", help: "Place contains TEXT, ignoring case and accents (Unicode-aware)."),
        .init(.`type`, value: "type", help: "Event type, ignoring case: earthquake, quarry blast, explosion…"),
        .init(.status, value: "status", help: "automatic or reviewed, ignoring case.", choices: statuses),
        .init(
            .alert, value: "level", help: "PAGER alert level: green, yellow, orange, red or pending.",
            choices: alertLevels),
        .init(.tsunami, help: "Only events flagged for a possible tsunami."),
        .init(
            .near, value: "lat,lon",
            help:
                "Measure distances from this point (a distance column, --sort distance); with --radius, keep only events within KM. Also a capital's or large city's name, ignoring case and accents: tokyo, sao paulo."
        ),
        .init(.radius, value: "km", help: "The radius of --near, in kilometres."),
        .init(
            .bbox, value: "minlon,minlat,maxlon,maxlat",
            help: "Events in this box; it crosses the date line when MINLON > MAXLON."),
        .init(.minDepth, value: "km", help: "Depth at least KM (negative above sea level)."),
        .init(.maxDepth, value: "km", help: "Depth at most KM."),
    ]

    package typealias Moment = TimeExpression.Moment

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

    /// Reads and checks the filter options; malformed values are usage errors naming the option
    /// and the form it accepts. `describing` also spells them out in `asGiven`, for the commands that
    /// draw: built for every command, it would be a large part of `count`'s parsing.
    package init(_ arguments: ParsedArguments, describing: Bool = false) throws(UsageError) {
        // Commands may take some of the filters only (`backfill` and `sync` those a service answers).
        func declared<Value>(_ name: OptionName, expected: String, _ convert: (String) -> Value?) throws(UsageError)
            -> Value?
        {
            arguments.declares(name) ? try arguments.value(name, expected: expected, convert) : nil
        }
        last = try declared(.last, expected: TimeExpression.durationForm, TimeExpression.duration)
        since = try declared(.since, expected: TimeExpression.momentForm, Moment.init)
        until = try declared(.until, expected: TimeExpression.momentForm, Moment.init)
        now = try declared(.now, expected: TimeExpression.momentForm, Moment.init)
        let magnitude = "a number, such as 4.5 or -0.5"
        fixed.minimumMagnitude = try declared(.minMagnitude, expected: magnitude, finiteNumber)
        fixed.maximumMagnitude = try declared(.maxMagnitude, expected: magnitude, finiteNumber)
        fixed.minimumDepth = try declared(.minDepth, expected: "a number of kilometres", finiteNumber)
        fixed.maximumDepth = try declared(.maxDepth, expected: "a number of kilometres", finiteNumber)
        fixed.placeContains = try declared(.place, expected: "some text") { $0.isEmpty ? nil : $0 }
        fixed.eventType = try declared(.`type`, expected: "an event type, such as earthquake") {
            $0.isEmpty ? nil : $0
        }
        fixed.status = try declared(.status, expected: "automatic or reviewed") { text in
            Self.statuses.contains(text.lowercased()) ? text.lowercased() : nil
        }
        fixed.alert = try declared(.alert, expected: "green, yellow, orange, red or pending") { text in
            Self.alertLevels.contains(text.lowercased()) ? text.lowercased() : nil
        }
        fixed.tsunamiOnly = arguments.declares(.tsunami) && arguments.flag(.tsunami)
        let near = try declared(
            .near,
            expected: "LAT,LON with latitude in [-90, 90] and longitude in [-180, 180], such as 35.7,139.7"
        ) { text -> Near? in
            if namesAPlace(text) { return .place(text) }
            guard let numbers = numberList(text, count: 2), abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 else {
                return nil
            }
            return .point(GeoPoint(latitude: numbers[0], longitude: numbers[1]))
        }
        radius = try declared(.radius, expected: "a number of kilometres greater than 0") { text in
            finiteNumber(text).flatMap { $0 > 0 ? $0 : nil }
        }
        switch near {
        case .point(let point)?: measure(from: point)
        case .place(let name)?: place = name
        case nil: if radius != nil { throw UsageError("'--radius <km>' needs '--near <lat,lon>'") }
        }
        fixed.box = try declared(
            .bbox,
            expected:
                "MINLON,MINLAT,MAXLON,MAXLAT in degrees, latitudes in [-90, 90] with MINLAT ≤ MAXLAT, longitudes in [-180, 180]",
            Self.box)
        guard describing else { return }
        asGiven = Self.options.compactMap { option -> String? in
            guard let name = OptionName(rawValue: option.name), arguments.declares(name) else { return nil }
            guard option.value != nil else { return arguments.flag(name) ? "--" + option.name : nil }
            return arguments.value(name).map { "--\(option.name) " + Self.quotedForShell($0) }
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
    package func filter(in environment: Environment, zone: DisplayZone) throws(UsageError) -> QuakeFilter {
        let now = try now(in: environment, zone: zone)
        var filter = fixed
        if let last {
            filter.earliest = now - last
            filter.latest = now
        }
        if let since { filter.earliest = max(filter.earliest ?? .min, since.resolve(now: now, zone: zone)) }
        if let until { filter.before = until.resolve(now: now, zone: zone) }
        return filter
    }
}

/// What `--near` was given: a point, or a place's name (`--near tokyo`).
private enum Near {
    case point(GeoPoint)
    case place(String)
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
