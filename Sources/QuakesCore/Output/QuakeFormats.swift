/// A quake as the machine-readable formats write it: the USGS property names in USGS order, times
/// as ISO 8601 UTC strings with milliseconds, then the coordinates.
package enum QuakeFormats {
    /// The fields of a quake object and of a CSV row, in order.
    static let fieldNames = QuakeField.listed.map(\.name)

    /// The values of `fieldNames`, as JSON values.
    static func values(_ quake: Quake) -> [JSONValue] {
        QuakeField.listed.map { value(of: $0, in: quake, timesAsText: true) }
    }

    /// A field's value as JSON: null when it has none, a moment as ISO 8601 text when `timesAsText`
    /// (the listings) or as its milliseconds (GeoJSON, as USGS writes it).
    static func value(of field: QuakeField, in quake: Quake, timesAsText: Bool) -> JSONValue {
        switch field.value(of: quake) {
        case nil: .null
        case let .text(text)?: .string(text)
        case let .integer(number)? where field.isTime && timesAsText: .string(CivilTime.iso8601(number))
        case let .integer(number)?: .integer(number)
        case let .real(number)?: .number(number)
        }
    }

    /// The quake object, with `extraMembers` after its fields.
    static func jsonObject(_ quake: Quake, extraMembers: [(String, JSONValue)] = []) -> JSONValue {
        .object(Array(zip(fieldNames, values(quake))) + extraMembers)
    }

    /// The JSON text that leads each listed field's member (`{"id":`, `,"mag":`…), made once, all in
    /// one array with where each ends: a row's keys are then copied from one pointer, where an array
    /// per key was retained and released for every member of every row.
    private static let memberKeys: (bytes: [UInt8], ends: [Int]) = {
        var keys = JSONBuffer(capacity: 512)
        var ends: [Int] = []
        for (index, field) in QuakeField.listed.enumerated() {
            keys.raw(index == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
            keys.string(field.name)
            keys.raw(UInt8(ascii: ":"))
            ends.append(keys.count)
        }
        return (keys.bytes, ends)
    }()

    /// Writes the quake object straight into `json`, the fields of `jsonObject` in its order, then
    /// `"distanceKm"`, `"section"` and `"zone"` when given: the fast path of long listings, which
    /// writes a reader's row as it is, without a `Quake` in between.
    ///
    /// Inlined into each caller, where the output's type is known: a listing's writer is generic
    /// over its rows, so this would not otherwise be specialised for the JSON buffer, and every byte
    /// it writes would go through the witness table of `JSONOutput`.
    @inline(__always) static func writeJSONObject(
        _ row: some QuakeRow, distance: Double? = nil, section: String? = nil, zone: String? = nil,
        to json: inout some JSONOutput
    ) {
        let keys = memberKeys
        let fields = QuakeField.listed
        keys.bytes.withUnsafeBufferPointer { keyBytes in
            var start = 0
            // By index, not `zip`: in the debug builds the tests run, each step of an unspecialised
            // zip asks the Swift runtime for its element's type under a lock, which the threads of
            // concurrent listings queue on.
            for index in fields.indices {
                let field = fields[index]
                let end = keys.ends[index]
                json.raw(UnsafeBufferPointer(rebasing: keyBytes[start..<end]))
                start = end
                switch field.kind {
                case .text:
                    row.withText(field) { text in
                        if let text { json.append(quoting: text) } else { json.raw("null") }
                    }
                case .integer where field.isTime: json.time(row.integer(field))
                case .integer: json.integer(row.integer(field))
                case .real: json.number(row.real(field))
                }
            }
        }
        if let distance {
            json.raw(#","distanceKm":"#)
            json.number(roundedDistance(distance))
        }
        if let section {
            json.raw(#","section":"#)
            json.string(section)
        }
        if let zone {
            json.raw(#","zone":"#)
            json.string(zone)
        }
        json.raw("}")
    }

    /// A distance in kilometres as listings give it: to the metre.
    static func roundedDistance(_ kilometres: Double) -> Double {
        (kilometres * 1000).rounded() / 1000
    }

    /// The quake as a CSV row (without the line end), RFC 4180 quoted; null is an empty field. The
    /// section leads, the distance and the zone follow the fields, when given.
    static func csvRow(_ quake: Quake, distance: Double? = nil, section: String? = nil, zone: String? = nil) -> String {
        var fields = values(quake).map(csvField)
        if let section { fields.insert(csvQuoted(section), at: 0) }
        if let distance { fields.append(JSONValue.number(roundedDistance(distance))) }
        if let zone { fields.append(csvQuoted(zone)) }
        return fields.joined(separator: ",")
    }

    static func csvField(_ value: JSONValue) -> String {
        switch value {
        case .null: ""
        case let .string(text): csvQuoted(text)
        case let .integer(number): String(number)
        case let .number(number): JSONValue.number(number)
        case let .bool(flag): flag ? "true" : "false"
        case .array, .object, .raw: csvQuoted(value.serialized())
        }
    }

    /// A field quoted when it must be: when it holds a comma, a quote, or a line break.
    static func csvQuoted(_ text: String) -> String {
        // By byte, as CSV readers split and unquote: a comma or quote that a combining mark follows
        // is one Character but still the byte they act on (and a CR LF holds a CR). A loop of its
        // own, not `contains(where:)`: see `writeJSONObject`.
        var needsQuotes = false
        for byte in text.utf8 where byte == .comma || byte == .quote || byte == .newline || byte == .carriageReturn {
            needsQuotes = true
            break
        }
        guard needsQuotes else { return text }
        var quoted: [UInt8] = [.quote]
        quoted.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            quoted.append(byte)
            if byte == .quote { quoted.append(.quote) }
        }
        quoted.append(.quote)
        return String(decoding: quoted, as: UTF8.self)
    }

    /// The quake as a GeoJSON feature in the USGS shape: millisecond times, `[lon, lat, depth]`, and
    /// the properties kept in `extra` back in place, so `quakes fetch` reads it back to the same row.
    /// The feed time of the version travels as the feature's `generated` member.
    package static func geoJSONFeature(_ quake: Quake) -> String {
        let extra = ExtraProperties(quake.extra)
        func known(_ name: String, _ value: JSONValue) -> (String, JSONValue) {
            // A property stored in `extra` because its type was unexpected goes back under its name.
            guard value == .null, let raw = extra.raw(name) else { return (name, value) }
            return (name, .raw(raw))
        }
        var properties = QuakeField.properties.map { field in
            known(field.name, value(of: field, in: quake, timesAsText: false))
        }
        let knownNames = Set(properties.map(\.0))
        properties += extra.members.filter { !knownNames.contains($0.name) }.map { ($0.name, .raw($0.raw)) }
        var coordinates: [JSONValue] = [.number(quake.longitude), .number(quake.latitude)]
        if let depth = quake.depth { coordinates.append(.number(depth)) }
        var feature: [(String, JSONValue)] = [
            ("type", .string("Feature")),
            ("properties", .object(properties)),
            ("geometry", .object([("type", .string("Point")), ("coordinates", .array(coordinates))])),
            ("id", .string(quake.id)),
        ]
        if let generated = quake.feedGenerated { feature.append(("generated", .integer(generated))) }
        return JSONValue.object(feature).serialized()
    }
}

/// The members of a stored `extra` object, as raw JSON texts.
struct ExtraProperties {
    struct Member {
        var name: String
        var raw: String
    }

    private(set) var members: [Member] = []

    init(_ extra: String?) {
        guard let extra else { return }
        let bytes = Array(extra.utf8)
        members = bytes.withUnsafeBytes { buffer in
            var scanner = JSONScanner(buffer)
            var members: [Member] = []
            // `extra` is written only by the decoder, always a valid object; should it not be, the
            // members read so far are what there is.
            guard (try? scanner.beginObject()) == true else { return members }
            repeat {
                guard let key = try? scanner.key() else { break }
                scanner.skipWhitespace()
                let start = scanner.position
                guard (try? scanner.skipValue()) != nil else { break }
                members.append(
                    Member(
                        name: scanner.string(key),
                        raw: String(decoding: buffer[start..<scanner.position], as: UTF8.self)))
            } while (try? scanner.nextMember(closer: .closeBrace)) == true
            return members
        }
    }

    /// `dyfi 1, origin 3, shakemap 2`: how many products of each type a detail feed's `products`
    /// object lists, by type; the raw text when it is not an object of arrays.
    static func productSummary(_ raw: String) -> String {
        let bytes = Array(raw.utf8)
        let counts: [(String, Int)]? = bytes.withUnsafeBytes { buffer in
            var scanner = JSONScanner(buffer)
            var counts: [(String, Int)] = []
            do {
                guard try scanner.beginObject() else { return [] }
                repeat {
                    let key = try scanner.key()
                    scanner.skipWhitespace()
                    guard scanner.peek() == .openBracket else { return nil }
                    var count = 0
                    if try scanner.beginArray() {
                        repeat {
                            try scanner.skipValue()
                            count += 1
                        } while try scanner.nextMember(closer: .closeBracket)
                    }
                    counts.append((scanner.string(key), count))
                } while try scanner.nextMember(closer: .closeBrace)
            } catch {
                return nil
            }
            return counts
        }
        guard let counts else { return raw }
        guard !counts.isEmpty else { return "none" }
        return counts.sorted { $0.0 < $1.0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    /// The raw JSON of member `name`, if present.
    func raw(_ name: String) -> String? {
        for member in members where member.name == name { return member.raw }
        return nil
    }

    /// The members as a JSON object value.
    var object: JSONValue {
        .object(members.map { ($0.name, .raw($0.raw)) })
    }
}
