import QuakesCore

/// `quakes chart [FILTERS] [--by UNIT]`: how many events, by time, magnitude or depth, as a bar
/// chart in the terminal; with `--by magnitude --cumulative`, the magnitude–frequency distribution
/// and its b-value.
package struct ChartCommand: Command {
    package static let name = "chart"

    package static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "Draw how many events match, by time, magnitude or depth, as a bar chart.",
        discussion: """
            Counts the events of the same query as 'list' in buckets (empty ones included: a gap in \
            time is information) and draws them with block characters fitted to the terminal \
            (COLUMNS and LINES, else 80x24 when not a terminal): a bar per line when the buckets fit \
            its height, else a column each; when they fit neither way, it counts them in wider \
            buckets (2 hours, 6 hours, a day...) and its title says so. With --by magnitude \
            --cumulative it draws the magnitude-frequency distribution on a log scale and prints the \
            b-value (Aki's maximum-likelihood estimate, corrected for binned magnitudes) above the \
            magnitude of completeness (--mc, else by maximum curvature). With --output it writes the \
            chart as an SVG, PNG, PDF or HTML file instead.
            """,
        options: [DatabaseLocation.option.declaration] + FilterOptions.options + [
            by.declaration, cumulative.declaration, mc.declaration, format.declaration,
        ] + pictureOptions.options + [CommonOptions.utc.declaration])

    static let by = ValueOption(
        "by", value: "unit", help: "What to count by.", default: "day",
        choices: Histogram.Dimension.allCases.map(\.rawValue),
        expected: "one of " + Histogram.Dimension.allCases.map(\.rawValue).joined(separator: ", ")
    ) { Histogram.Dimension(rawValue: $0.lowercased()) }
    .defaulting(to: .day)
    static let cumulative = Flag("cumulative", help: "With --by magnitude: N(≥M) on a log scale, and the b-value.")
    static let mc = ValueOption(
        "mc", value: "m", help: "The magnitude of completeness of the b-value.", default: "by maximum curvature",
        expected: "a magnitude, such as 2.5"
    ) { Double($0).flatMap { $0.isFinite ? $0 : nil } }
    static let format = CommonOptions.format(
        Format.self, help: "table (also text): the chart; json: its data.", default: .table)
    static let pictureOptions = PictureOptions.Declarations(defaultSize: .init(width: 1000, height: 560))

    enum Format: String, Sendable, CaseIterable {
        case table, json
    }

    var database: String?
    var filters: FilterOptions
    var dimension: Histogram.Dimension
    var cumulative: Bool
    var completeness: Double?
    var picture: PictureOptions
    var format: Format
    var utc: Bool

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 0)
        database = try arguments.read(DatabaseLocation.option)
        filters = try FilterOptions(arguments, describing: true)
        dimension = try arguments.read(Self.by)
        cumulative = arguments.read(Self.cumulative)
        if cumulative, dimension != .magnitude { throw UsageError("'--cumulative' needs '--by magnitude'") }
        completeness = try arguments.read(Self.mc)
        if completeness != nil, !cumulative { throw UsageError("'--mc <m>' needs '--by magnitude --cumulative'") }
        picture = try PictureOptions(arguments, Self.pictureOptions)
        format = try arguments.read(Self.format)
        if picture.output != nil, format == .json {
            throw UsageError("'--output <file>' draws the chart: leave out '--format json'")
        }
        utc = arguments.read(CommonOptions.utc)
    }

    package func run(in environment: Environment) async throws -> ExitStatus {
        let zone = environment.zone(utc: utc)
        let filter = try filters.resolvingPlace(in: environment).filter(in: environment, zone: zone)
        let (dimension, cumulative, completeness) = (dimension, cumulative, completeness)
        let size = environment.textPictureSize
        // In the terminal, the buckets must fit it: a chart that does not is counted again in wider
        // buckets. JSON and pictures have every bucket asked for.
        let screen =
            format == .table && picture.output == nil
            ? BarChart(
                histogram: Histogram(dimension: dimension, buckets: []), title: "", width: size.columns,
                height: size.lines, reserved: cumulative ? 1 : 0)
            : nil
        let database = try DatabaseLocation.reader(option: database, in: environment)
        let (histogram, estimate, total) = try await database.reading(zone: zone) {
            reader -> (Histogram, GutenbergRichter?, Int) in
            let total = try reader.count(filter)
            switch dimension {
            case .hour, .day, .week, .month:
                return (try Self.sections(dimension, filter, zone: zone, reader: reader, fitting: screen), nil, total)
            case .magnitude where !cumulative:
                return (try Self.sections(dimension, filter, zone: zone, reader: reader, fitting: screen), nil, total)
            case .magnitude:
                var magnitudes: [Double] = []
                try reader.forEachQuake(filter, in: nil, sort: .time, origin: nil, limit: nil) { quake in
                    if let magnitude = quake.magnitude, magnitude.isFinite { magnitudes.append(magnitude) }
                    return true
                }
                let binWidth = GutenbergRichter.binWidth(of: magnitudes)
                let width = binWidth == 0 ? 0.1 : binWidth
                func distribution(every: Int64) throws -> Histogram {
                    Histogram(
                        dimension: .magnitude,
                        buckets: try Histogram.cumulative(magnitudes, width: width, every: every), isCumulative: true,
                        unit: Histogram.cumulativeUnit(width: width, every: every))
                }
                let wider = Histogram.roundNumbers(upTo: 100_000).dropFirst().map { every in
                    { try distribution(every: every) }
                }
                return (
                    try Self.fitted(distribution(every: 1), wider, in: screen),
                    GutenbergRichter(magnitudes: magnitudes, completeness: completeness), total
                )
            case .depth:
                var depths: [Double] = []
                try reader.forEachQuake(filter, in: nil, sort: .time, origin: nil, limit: nil) { quake in
                    if let depth = quake.depth, depth.isFinite { depths.append(depth) }
                    return true
                }
                let asked = Histogram.depthWidth(depths)
                let wider = Histogram.widerDepths(than: asked).map { width in
                    {
                        Histogram(
                            dimension: .depth, buckets: try Histogram.depths(depths, width: width),
                            unit: Histogram.depthUnit(width: width, asked: asked))
                    }
                }
                let histogram = Histogram(dimension: .depth, buckets: try Histogram.depths(depths))
                return (try Self.fitted(histogram, wider, in: screen), nil, total)
            }
        }
        switch format {
        case .json:
            var members: [(String, JSONValue)] = [
                ("by", .string(dimension.rawValue)), ("cumulative", .bool(cumulative)), ("zone", .string(zone.name)),
                ("events", .integer(total)),
                (
                    "buckets",
                    .array(
                        histogram.buckets.map {
                            .object([("label", .string($0.label)), ("count", .integer($0.count))])
                        })
                ),
            ]
            if cumulative {
                members += [
                    ("bValue", .number(estimate?.bValue)), ("bValueUncertainty", .number(estimate?.uncertainty)),
                    ("mc", .number(estimate?.completeness)), ("mcMethod", .string(estimate?.method.rawValue)),
                    ("mcEvents", .integer(estimate?.events)),
                ]
            }
            environment.standardOutput.writeLine(JSONValue.object(members).serialized())
        case .table:
            let unit = (cumulative ? "N(≥M) by " : "by ") + histogram.unit
            let title = "\(TerminalText.grouped(total)) events \(unit) (\(zone.name))"
            let bValue = estimate?.line ?? GutenbergRichter.tooFewEvents
            if let file = picture.file(in: environment) {
                let chart = ChartPicture(
                    histogram: histogram, estimate: estimate, title: title, subtitle: filters.asGiven,
                    width: Double(picture.width), height: Double(picture.height))
                try await file.write(chart.drawing())
                // The b-value is the chart's one number: said on standard output, picture or not.
                if cumulative { environment.standardOutput.writeLine(bValue) }
                return .success
            }
            let query = filters.asGiven.isEmpty ? "" : "  " + filters.asGiven
            let chart = BarChart(
                histogram: histogram, title: title + query, width: size.columns, height: size.lines,
                reserved: cumulative ? 1 : 0, ascii: picture.plainText(in: environment),
                colour: picture.color.usesColour(in: environment))
            environment.standardOutput.write(chart.render())
            if cumulative { environment.standardOutput.writeLine(TerminalText.truncated(bValue, to: size.columns)) }
        }
        return .success
    }

    /// Counts by a calendar unit or by magnitude band, as the engine counts `--section`; in wider
    /// buckets when these do not fit `screen`.
    private static func sections(
        _ dimension: Histogram.Dimension, _ filter: QuakeFilter, zone: DisplayZone, reader: any QuakeReading,
        fitting screen: BarChart?
    ) throws -> Histogram {
        let key = SectionKey(rawValue: dimension.rawValue)!
        let numbers = try Histogram.sectionNumbers(key, filter, zone: zone, reader: reader)
        let asked = Histogram(dimension: dimension, buckets: try Histogram.counts(key, numbers))
        // Each section key's counts (hours for 6 hours, months for years) are asked of the engine once.
        var sections = [key: numbers]
        let wider = Histogram.Bins(key: key).wider.map { bins in
            {
                let numbers =
                    try sections[bins.key] ?? Histogram.sectionNumbers(bins.key, filter, zone: zone, reader: reader)
                sections[bins.key] = numbers
                return Histogram(dimension: dimension, buckets: bins.buckets(numbers), unit: bins.name)
            }
        }
        return try fitted(asked, wider, in: screen)
    }

    /// `histogram`, or when it does not fit `screen`, the first of the wider ones that does (else
    /// the widest); `histogram` itself without a screen (JSON, a picture).
    private static func fitted(_ histogram: Histogram, _ wider: [() throws -> Histogram], in screen: BarChart?)
        throws -> Histogram
    {
        guard let screen else { return histogram }
        var histogram = histogram
        for next in wider where !screen.fits(histogram) { histogram = try next() }
        return histogram
    }

}
