import Foundation

/// The formats of `quakes list`.
public enum ListFormat: String, Sendable, CaseIterable {
    case table, json, ndjson, csv, geojson

    static let form = "one of " + allCases.map(\.rawValue).joined(separator: ", ")
}

/// Writes a listing in one format as its events arrive, section by section, so that memory stays
/// flat however long the listing.
protocol ListingWriter {
    /// Starts the listing; `sectioned` says whether sections will come.
    mutating func begin(sectioned: Bool)
    /// Starts a section, of which `shown` events will follow.
    mutating func beginSection(_ section: QuerySection, shown: Int)
    mutating func write(_ quake: Quake, section: QuerySection?)
    mutating func endSection()
    mutating func end()
}

/// `--format json`: an array of quake objects, or of sections holding them.
struct JSONListingWriter: ListingWriter {
    let output: any TextOutput
    private var buffer = JSONBuffer()
    private var first = true
    private var firstSection = true
    private var sectioned = false

    init(output: any TextOutput) {
        self.output = output
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
        output.write(header + ",\"count\":\(shown),\"quakes\":[")
        firstSection = false
        first = true
    }

    mutating func write(_ quake: Quake, section: QuerySection?) {
        buffer.raw(first ? "\n" : ",\n")
        QuakeFormats.writeJSONObject(quake, to: &buffer)
        if buffer.bytes.count >= JSONBuffer.batchSize { buffer.write(to: output) }
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

/// `--format ndjson`: one quake object per line, with `"section"` when sectioned.
struct NDJSONListingWriter: ListingWriter {
    let output: any TextOutput
    private var buffer = JSONBuffer()

    init(output: any TextOutput) {
        self.output = output
    }

    mutating func begin(sectioned: Bool) {}
    mutating func beginSection(_ section: QuerySection, shown: Int) {}

    mutating func write(_ quake: Quake, section: QuerySection?) {
        QuakeFormats.writeJSONObject(quake, section: section?.id, to: &buffer)
        buffer.raw(.newline)
        if buffer.bytes.count >= JSONBuffer.batchSize { buffer.write(to: output) }
    }

    mutating func endSection() {}

    mutating func end() {
        buffer.write(to: output)
    }
}

/// `--format csv`: a header row, then a row per quake (RFC 4180: quoted fields, CRLF line ends).
struct CSVListingWriter: ListingWriter {
    let output: any TextOutput
    private var sectioned = false

    init(output: any TextOutput) {
        self.output = output
    }

    mutating func begin(sectioned: Bool) {
        self.sectioned = sectioned
        output.write(((sectioned ? ["section"] : []) + QuakeFormats.fieldNames).joined(separator: ",") + "\r\n")
    }

    mutating func beginSection(_ section: QuerySection, shown: Int) {}

    mutating func write(_ quake: Quake, section: QuerySection?) {
        output.write(QuakeFormats.csvRow(quake, section: sectioned ? section?.id ?? "" : nil) + "\r\n")
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
