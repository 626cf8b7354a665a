/// The formats of `quakes list`.
public enum ListFormat: String, Sendable, CaseIterable {
    case table, json, ndjson, csv, geojson
}

/// What a listing writes beside each quake: its distance from the point of `--near`, and the zone
/// its calendar sections belong to.
struct ListingContext: Sendable {
    /// The point of `--near`, when given.
    var origin: GeoPoint?
    /// The zone of day, hour, week and month sections, which sectioned machine formats name.
    var zone: DisplayZone = .utc

    func distance(to quake: Quake) -> Double? {
        origin?.distance(to: quake)
    }

    /// The distance to a row's epicentre, computed as for a `Quake`.
    func distance(to row: some QuakeRow) -> Double? {
        guard let origin else { return nil }
        return Geodesy.distance(
            latitude: origin.latitude, longitude: origin.longitude, toLatitude: row.real(.latitude) ?? 0,
            toLongitude: row.real(.longitude) ?? 0)
    }
}

/// Writes a listing in one format as its events arrive, section by section, so that memory stays
/// flat however long the listing.
protocol ListingWriter {
    /// Starts the listing; `sectioned` says whether sections will come.
    mutating func begin(sectioned: Bool)
    /// Starts a section, of which `shown` events will follow.
    mutating func beginSection(_ section: QuerySection, shown: Int)
    mutating func write(_ quake: Quake, section: QuerySection?)
    /// Writes a reader's row; writers that need a whole `Quake` get one (the default).
    mutating func write(row: some QuakeRow, section: QuerySection?)
    mutating func endSection()
    mutating func end()
}

extension ListingWriter {
    mutating func write(row: some QuakeRow, section: QuerySection?) {
        write(row.quake, section: section)
    }
}

/// `--format json`: an array of quake objects, or of sections holding them.
struct JSONListingWriter: ListingWriter {
    let output: any TextOutput
    let context: ListingContext
    private var buffer = JSONBuffer()
    private var first = true
    private var firstSection = true
    private var sectioned = false

    init(output: any TextOutput, context: ListingContext = ListingContext()) {
        self.output = output
        self.context = context
    }

    mutating func begin(sectioned: Bool) {
        self.sectioned = sectioned
        output.write("[")
    }

    mutating func beginSection(_ section: QuerySection, shown: Int) {
        output.write((firstSection ? "\n" : ",\n") + "{\"id\":")
        var header = ""
        JSONValue.quote(section.id, into: &header)
        header += ",\"title\":"
        JSONValue.quote(section.title, into: &header)
        header += ",\"count\":\(shown),\"zone\":"
        JSONValue.quote(context.zone.name, into: &header)
        output.write(header + ",\"quakes\":[")
        firstSection = false
        first = true
    }

    mutating func write(_ quake: Quake, section: QuerySection?) {
        write(row: quake, section: section)
    }

    mutating func write(row: some QuakeRow, section: QuerySection?) {
        buffer.raw(first ? "\n" : ",\n")
        QuakeFormats.writeJSONObject(row, distance: context.distance(to: row), to: &buffer)
        if buffer.count >= JSONBuffer.batchSize { buffer.write(to: output) }
        first = false
    }

    mutating func endSection() {
        buffer.write(to: output)
        output.write("\n]}")
    }

    mutating func end() {
        buffer.write(to: output)
        output.write((sectioned ? !firstSection : !first) ? "\n]\n" : "]\n")
    }
}

/// `--format ndjson`: one quake object per line, with `"section"` and `"zone"` when sectioned.
struct NDJSONListingWriter: ListingWriter {
    let output: any TextOutput
    let context: ListingContext
    private var buffer = JSONBuffer()

    init(output: any TextOutput, context: ListingContext = ListingContext()) {
        self.output = output
        self.context = context
    }

    mutating func begin(sectioned: Bool) {}
    mutating func beginSection(_ section: QuerySection, shown: Int) {}

    mutating func write(_ quake: Quake, section: QuerySection?) {
        write(row: quake, section: section)
    }

    mutating func write(row: some QuakeRow, section: QuerySection?) {
        QuakeFormats.writeJSONObject(
            row, distance: context.distance(to: row), section: section?.id,
            zone: section == nil ? nil : context.zone.name, to: &buffer)
        buffer.raw(.newline)
        if buffer.count >= JSONBuffer.batchSize { buffer.write(to: output) }
    }

    mutating func endSection() {}

    mutating func end() {
        buffer.write(to: output)
    }
}

/// `--format csv`: a header row, then a row per quake (RFC 4180: quoted fields, CRLF line ends), with
/// a leading `section` and a last `zone` column when sectioned, and `distanceKm` with `--near`.
struct CSVListingWriter: ListingWriter {
    let output: any TextOutput
    let context: ListingContext
    private var sectioned = false

    init(output: any TextOutput, context: ListingContext = ListingContext()) {
        self.output = output
        self.context = context
    }

    mutating func begin(sectioned: Bool) {
        self.sectioned = sectioned
        let columns =
            (sectioned ? ["section"] : []) + QuakeFormats.fieldNames + (context.origin == nil ? [] : ["distanceKm"])
            + (sectioned ? ["zone"] : [])
        output.write(columns.joined(separator: ",") + "\r\n")
    }

    mutating func beginSection(_ section: QuerySection, shown: Int) {}

    mutating func write(_ quake: Quake, section: QuerySection?) {
        output.write(
            QuakeFormats.csvRow(
                quake, distance: context.distance(to: quake), section: sectioned ? section?.id ?? "" : nil,
                zone: sectioned ? context.zone.name : nil) + "\r\n")
    }

    mutating func endSection() {}
    mutating func end() {}
}

/// `--format geojson`: a FeatureCollection of the stored features in the USGS shape, which
/// `quakes fetch` reads back to identical rows. Sections do not show in GeoJSON.
struct GeoJSONListingWriter: ListingWriter {
    let output: any TextOutput
    private var first = true

    init(output: any TextOutput) {
        self.output = output
    }

    mutating func begin(sectioned: Bool) {
        output.write(
            #"{"type":"FeatureCollection","metadata":{"title":"quakes list","api":"quakes \#(Quakes.version)"},"features":["#
        )
    }

    mutating func beginSection(_ section: QuerySection, shown: Int) {}

    mutating func write(_ quake: Quake, section: QuerySection?) {
        output.write((first ? "\n" : ",\n") + QuakeFormats.geoJSONFeature(quake))
        first = false
    }

    mutating func endSection() {}

    mutating func end() {
        output.write((first ? "" : "\n") + "]}\n")
    }
}
