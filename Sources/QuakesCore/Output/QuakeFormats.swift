/// A quake as the machine-readable formats write it: the USGS property names in USGS order, times
/// as ISO 8601 UTC strings with milliseconds, then the coordinates.
enum QuakeFormats {
    /// The fields of a quake object and of a CSV row, in order.
    static let fieldNames = [
        "id", "mag", "place", "time", "updated", "tz", "url", "detail", "felt", "cdi", "mmi", "alert", "status",
        "tsunami", "sig", "net", "code", "ids", "sources", "types", "nst", "dmin", "rms", "gap", "magType", "type",
        "title", "longitude", "latitude", "depth",
    ]

    /// The values of `fieldNames`, as JSON values.
    static func values(_ quake: Quake) -> [JSONValue] {
        [
            .string(quake.id), .number(quake.magnitude), .string(quake.place), .string(CivilTime.iso8601(quake.time)),
            .string(quake.updated.map(CivilTime.iso8601)), .integer(quake.timeZoneOffset), .string(quake.url),
            .string(quake.detail), .integer(quake.feltReports), .number(quake.reportedIntensity),
            .number(quake.estimatedIntensity), .string(quake.alert), .string(quake.status), .integer(quake.tsunami),
            .integer(quake.significance), .string(quake.network), .string(quake.code), .string(quake.ids),
            .string(quake.sources), .string(quake.productTypes), .integer(quake.stationCount),
            .number(quake.minimumDistance), .number(quake.rms), .number(quake.azimuthalGap),
            .string(quake.magnitudeType), .string(quake.eventType), .string(quake.title), .number(quake.longitude),
            .number(quake.latitude), .number(quake.depth),
        ]
    }

    /// The quake object, with `extraMembers` after its fields.
    static func jsonObject(_ quake: Quake, extraMembers: [(String, JSONValue)] = []) -> JSONValue {
        .object(Array(zip(fieldNames, values(quake))) + extraMembers)
    }

    /// Writes the quake object straight into `json`, the fields of `jsonObject` in its order, then
    /// `"distanceKm"`, `"section"` and `"zone"` when given: the fast path of long listings.
    static func writeJSONObject(
        _ quake: Quake, distance: Double? = nil, section: String? = nil, zone: String? = nil, to json: inout JSONBuffer
    ) {
        json.raw(#"{"id":"#)
        json.string(quake.id)
        json.raw(#","mag":"#)
        json.number(quake.magnitude)
        json.raw(#","place":"#)
        json.string(quake.place)
        json.raw(#","time":"#)
        json.time(quake.time)
        json.raw(#","updated":"#)
        json.time(quake.updated)
        json.raw(#","tz":"#)
        json.integer(quake.timeZoneOffset)
        json.raw(#","url":"#)
        json.string(quake.url)
        json.raw(#","detail":"#)
        json.string(quake.detail)
        json.raw(#","felt":"#)
        json.integer(quake.feltReports)
        json.raw(#","cdi":"#)
        json.number(quake.reportedIntensity)
        json.raw(#","mmi":"#)
        json.number(quake.estimatedIntensity)
        json.raw(#","alert":"#)
        json.string(quake.alert)
        json.raw(#","status":"#)
        json.string(quake.status)
        json.raw(#","tsunami":"#)
        json.integer(quake.tsunami)
        json.raw(#","sig":"#)
        json.integer(quake.significance)
        json.raw(#","net":"#)
        json.string(quake.network)
        json.raw(#","code":"#)
        json.string(quake.code)
        json.raw(#","ids":"#)
        json.string(quake.ids)
        json.raw(#","sources":"#)
        json.string(quake.sources)
        json.raw(#","types":"#)
        json.string(quake.productTypes)
        json.raw(#","nst":"#)
        json.integer(quake.stationCount)
        json.raw(#","dmin":"#)
        json.number(quake.minimumDistance)
        json.raw(#","rms":"#)
        json.number(quake.rms)
        json.raw(#","gap":"#)
        json.number(quake.azimuthalGap)
        json.raw(#","magType":"#)
        json.string(quake.magnitudeType)
        json.raw(#","type":"#)
        json.string(quake.eventType)
        json.raw(#","title":"#)
        json.string(quake.title)
        json.raw(#","longitude":"#)
        json.number(quake.longitude)
        json.raw(#","latitude":"#)
        json.number(quake.latitude)
        json.raw(#","depth":"#)
        json.number(quake.depth)
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
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else {
            return text
        }
        return "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// The quake as a GeoJSON feature in the USGS shape: millisecond times, `[lon, lat, depth]`, and
    /// the properties kept in `extra` back in place, so `quakes fetch` reads it back to the same row.
    /// The feed time of the version travels as the feature's `generated` member.
    static func geoJSONFeature(_ quake: Quake) -> String {
        let extra = ExtraProperties(quake.extra)
        func known(_ name: String, _ value: JSONValue) -> (String, JSONValue) {
            // A property stored in `extra` because its type was unexpected goes back under its name.
            guard value == .null, let raw = extra.raw(name) else { return (name, value) }
            return (name, .raw(raw))
        }
        var properties: [(String, JSONValue)] = [
            known("mag", .number(quake.magnitude)), known("place", .string(quake.place)),
            known("time", .integer(quake.time)), known("updated", .integer(quake.updated)),
            known("tz", .integer(quake.timeZoneOffset)), known("url", .string(quake.url)),
            known("detail", .string(quake.detail)), known("felt", .integer(quake.feltReports)),
            known("cdi", .number(quake.reportedIntensity)), known("mmi", .number(quake.estimatedIntensity)),
            known("alert", .string(quake.alert)), known("status", .string(quake.status)),
            known("tsunami", .integer(quake.tsunami)), known("sig", .integer(quake.significance)),
            known("net", .string(quake.network)), known("code", .string(quake.code)), known("ids", .string(quake.ids)),
            known("sources", .string(quake.sources)), known("types", .string(quake.productTypes)),
            known("nst", .integer(quake.stationCount)), known("dmin", .number(quake.minimumDistance)),
            known("rms", .number(quake.rms)), known("gap", .number(quake.azimuthalGap)),
            known("magType", .string(quake.magnitudeType)), known("type", .string(quake.eventType)),
            known("title", .string(quake.title)),
        ]
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
        members.first { $0.name == name }?.raw
    }

    /// The members as a JSON object value.
    var object: JSONValue {
        .object(members.map { ($0.name, .raw($0.raw)) })
    }
}
