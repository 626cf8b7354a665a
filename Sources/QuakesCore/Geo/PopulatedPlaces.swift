/// The places `--near` knows by name: Natural Earth's 1:110m populated places, 243 capitals and
/// large cities, read from the small GeoJSON quakes ships (`cities-110m.geojson`) only when a
/// command is given a name instead of LAT,LON.
///
/// The list is coarse on purpose (one point per city, no towns, no alternative names): for
/// anywhere else, LAT,LON says exactly what is meant.
package struct PopulatedPlaces: Sendable {
    package struct Place: Sendable, Equatable {
        package var name: String
        package var point: GeoPoint

        package init(name: String, point: GeoPoint) {
            self.name = name
            self.point = point
        }
    }

    /// The name of the places' file among the data files quakes ships.
    package static let fileName = "cities-110m.geojson"
    /// How many of the closest names an unknown name's error lists.
    static let suggestionCount = 5

    package var places: [Place]

    package init(places: [Place]) {
        self.places = places
    }

    /// The places of the file that `data` finds.
    package static func load(from data: SharedData) throws(SharedDataError) -> PopulatedPlaces {
        try PopulatedPlaces(geoJSON: data.contents(of: fileName))
    }

    /// The places of a GeoJSON FeatureCollection of named Points.
    package init(geoJSON bytes: [UInt8]) throws(SharedDataError) {
        let document = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONSyntaxError) in try JSONValue(parsing: buffer) }
        }
        guard case .success(let document) = document, case .array(let features)? = document[member: "features"] else {
            throw SharedDataError(file: Self.fileName, problem: .damaged(reason: "not a GeoJSON FeatureCollection"))
        }
        var places: [Place] = []
        for feature in features {
            guard let name = feature[member: "properties"]?[member: "name"]?.stringValue,
                let position = feature[member: "geometry"]?[member: "coordinates"]?.arrayValue, position.count >= 2,
                let longitude = position[0].doubleValue, let latitude = position[1].doubleValue
            else {
                throw SharedDataError(
                    file: Self.fileName, problem: .damaged(reason: "a place without a name or a point"))
            }
            places.append(Place(name: name, point: GeoPoint(latitude: latitude, longitude: longitude)))
        }
        self.places = places
    }

    /// The one place called `name`, ignoring case, accents and runs of spaces (`sao paulo` is São
    /// Paulo, `washington, d.c.` is Natural Earth's `Washington,  D.C.`); a name that several places
    /// share, or none, is a usage error that lists them, or the closest names.
    package func place(named name: String) throws(UsageError) -> Place {
        let folded = Self.key(name)
        let matches = places.filter { Self.key($0.name) == folded }
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            let listed = matches.map { "\($0.name) (\(Self.coordinates($0.point)))" }.joined(separator: ", ")
            throw UsageError("The place '\(name)' given to '--near' is ambiguous: \(listed); give LAT,LON instead")
        }
        let closest = Suggestion.nearest(
            to: folded, among: places.map(\.name), count: Self.suggestionCount, by: Self.key)
        let hint = closest.isEmpty ? "" : "; the closest names: " + closest.joined(separator: ", ")
        throw UsageError(
            "The place '\(name)' given to '--near' is not among the \(places.count) capitals and large cities quakes "
                + "knows\(hint); give LAT,LON for anywhere else")
    }

    /// What names are compared by: folded, with every run of white space one space.
    static func key(_ name: String) -> String {
        TextFolding.fold(name).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// `35.687,139.749`: LAT,LON as `--near` takes it.
    static func coordinates(_ point: GeoPoint) -> String {
        "\(JSONValue.number(point.latitude)),\(JSONValue.number(point.longitude))"
    }
}
