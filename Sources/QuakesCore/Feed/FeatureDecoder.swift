/// Decodes one GeoJSON feature, checking it as it goes, into a `Quake` or the reason it is not one.
///
/// Two kinds of failure are kept apart. Text that is not JSON throws `JSONSyntaxError`: the whole
/// document is then rejected. A well-formed feature that is not a usable event (no id, no time, a
/// point off the globe) comes back as `.invalid`, so the caller can skip it and store the rest.
///
/// Every summary property has a typed field in `Quake`; a property of the wrong JSON type (a string
/// magnitude, say) leaves that field nil and keeps its value in `extra`, with the properties this
/// version does not know, so nothing the feed carried is lost. Duplicate keys make a feature invalid:
/// JSON leaves their meaning open, and guessing would store something the feed may not have meant.
struct FeatureDecoder {
    /// What one feature decodes to.
    enum Outcome: Equatable {
        case quake(Quake)
        /// The feature is well-formed JSON but not a usable event; `id` is its id when it had one.
        case invalid(reason: String, id: String?)
    }

    /// Decodes the feature that fills `element` (surrounding whitespace allowed).
    ///
    /// `origin` is the document offset of the element's first byte, for error messages.
    static func decode(_ element: UnsafeRawBufferPointer, origin: Int64) throws(JSONSyntaxError) -> Outcome {
        var scanner = JSONScanner(element, origin: origin)
        var decoder = FeatureDecoder()
        let outcome = try decoder.decodeFeature(&scanner)
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { throw scanner.unexpected("expected ',' or ']' after a feature") }
        return outcome
    }

    private var quake = Quake(id: "", time: 0, longitude: 0, latitude: 0)
    private var problem: String?
    /// Known properties of an unexpected type, as raw JSON values.
    private var mistyped: [(property: Property, value: [UInt8])] = []
    /// Unknown properties, as `"key":value` members separated by commas.
    /// Made at the first unknown property: a decoder is made per feature, and most have none.
    private var unknown: JSONBuffer?
    private var unknownKeys: [String] = []

    // MARK: - Feature

    private mutating func decodeFeature(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Outcome {
        guard scanner.peek() == .openBrace else {
            try scanner.skipValue()
            return .invalid(reason: "the feature is not a JSON object", id: nil)
        }
        var id: String?
        var hasTime = false
        var hasPoint = false
        var seen = MemberSet()
        if try scanner.beginObject() {
            repeat {
                let key = try scanner.key()
                if scanner.matches(key, "type") {
                    noteDuplicate(&seen, 0, "type")
                    try expectString(&scanner, "Feature", path: "type")
                } else if scanner.matches(key, "id") {
                    noteDuplicate(&seen, 1, "id")
                    id = try decodeID(&scanner)
                } else if scanner.matches(key, "properties") {
                    noteDuplicate(&seen, 2, "properties")
                    hasTime = try decodeProperties(&scanner)
                } else if scanner.matches(key, "geometry") {
                    noteDuplicate(&seen, 3, "geometry")
                    hasPoint = try decodeGeometry(&scanner)
                } else if scanner.matches(key, "generated"), let byte = scanner.peek(), byte == .minus || byte.isDigit {
                    // quakes' own foreign member: the feed time of a version that `quakes list
                    // --format geojson` wrote out, so that reading it back gives the same row.
                    quake.feedGenerated = scanner.integer(try scanner.scanNumber())
                } else {
                    try scanner.skipValue()  // Other GeoJSON foreign members: USGS sends none.
                }
            } while try scanner.nextMember(closer: .closeBrace)
        }
        if !seen.contains(1) { report("id is missing") }
        if !seen.contains(2) { report("properties is missing") }
        if !seen.contains(3) { report("geometry is missing") }
        guard problem == nil, let id, hasTime, hasPoint else {
            return .invalid(reason: problem ?? "the feature is incomplete", id: id)
        }
        quake.id = id
        quake.extra = extra()
        return .quake(quake)
    }

    private mutating func decodeID(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> String? {
        guard scanner.peek() == .quote else {
            try reportNonObject("id", &scanner, expected: "a string")
            return nil
        }
        let id = scanner.string(try scanner.scanString())
        if id.isEmpty { report("id is empty") }
        return id
    }

    // MARK: - Geometry

    /// Decodes `geometry`; returns true when it held a usable point.
    private mutating func decodeGeometry(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Bool {
        guard scanner.peek() == .openBrace else {
            try reportNonObject("geometry", &scanner, expected: "an object")
            return false
        }
        var seen = MemberSet()
        var hasPoint = false
        if try scanner.beginObject() {
            repeat {
                let key = try scanner.key()
                if scanner.matches(key, "type") {
                    noteDuplicate(&seen, 0, "geometry.type")
                    try expectString(&scanner, "Point", path: "geometry.type")
                } else if scanner.matches(key, "coordinates") {
                    noteDuplicate(&seen, 1, "geometry.coordinates")
                    hasPoint = try decodeCoordinates(&scanner)
                } else {
                    try scanner.skipValue()
                }
            } while try scanner.nextMember(closer: .closeBrace)
        }
        if !seen.contains(0) { report("geometry.type is missing") }
        if !seen.contains(1) { report("geometry.coordinates is missing") }
        return hasPoint
    }

    /// Decodes `[longitude, latitude, depth]`; returns true when longitude and latitude are usable.
    private mutating func decodeCoordinates(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Bool {
        guard scanner.peek() == .openBracket else {
            report("geometry.coordinates is not an array")
            try scanner.skipValue()
            return false
        }
        var index = 0
        var valid = true
        if try scanner.beginArray() {
            repeat {
                let path = { "geometry.coordinates[\(index)]" }
                switch index {
                case 0, 1:
                    let range: ClosedRange<Double> = index == 0 ? -180...180 : -90...90
                    if let value = try number(&scanner, path: path) {
                        if range.contains(value) {
                            if index == 0 { quake.longitude = value } else { quake.latitude = value }
                        } else {
                            report(
                                "\(path()) \(index == 0 ? "longitude" : "latitude") \(value) is outside [\(Int(range.lowerBound)), \(Int(range.upperBound))]"
                            )
                            valid = false
                        }
                    } else {
                        valid = false
                    }
                case 2:
                    if try !scanner.consumeNull() {
                        quake.depth = try number(&scanner, path: path)
                        valid = valid && quake.depth != nil
                    }
                default:
                    try scanner.skipValue()  // GeoJSON allows more positions; USGS sends three.
                }
                index += 1
            } while try scanner.nextMember(closer: .closeBracket)
        }
        if index < 2 {
            report("geometry.coordinates has \(index) of the 2 numbers a point needs")
            valid = false
        }
        return valid
    }

    /// Reads a finite number, or reports `path` as invalid and skips the value.
    private mutating func number(_ scanner: inout JSONScanner, path: () -> String) throws(JSONSyntaxError) -> Double? {
        guard let byte = scanner.peek(), byte == .minus || byte.isDigit else {
            report("\(path()) is not a number")
            try scanner.skipValue()
            return nil
        }
        let value = scanner.double(try scanner.scanNumber())
        guard value.isFinite else {
            report("\(path()) is too large")
            return nil
        }
        return value
    }

    // MARK: - Properties

    /// Decodes `properties`; returns true when it held a usable `time`.
    private mutating func decodeProperties(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Bool {
        guard scanner.peek() == .openBrace else {
            try reportNonObject("properties", &scanner, expected: "an object")
            return false
        }
        var seen = MemberSet()
        var hasTime = false
        var predicted = 0
        // Taken once a feature, not once a key.
        let properties = QuakeField.properties
        if try scanner.beginObject() {
            repeat {
                let key = try scanner.key()
                guard let property = Property.matching(key, among: properties, in: scanner, predicted: predicted) else {
                    try keepUnknown(key, &scanner)
                    continue
                }
                predicted = property.position + 1
                noteDuplicate(&seen, property.position, "properties.\(property.field.name)" as String)
                hasTime = try decode(property, &scanner) || hasTime
            } while try scanner.nextMember(closer: .closeBrace)
        }
        let timeSeen = seen.contains(Property.timePosition)
        if !hasTime, problem == nil, quake.isDeleted, timeSeen {
            // The FDSN service may send a deleted event without its time: the deletion is still
            // news, and its tombstone is kept as long as one deleted when it was.
            quake.time = quake.updated ?? 0
            hasTime = true
        }
        if !hasTime, problem == nil {
            report(timeSeen ? "properties.time is null" : "properties.time is missing")
        }
        return hasTime
    }

    /// Decodes one known property into its field; returns true for a usable `time`. Inlined into
    /// the loop over the properties, as the switch it replaced was.
    @inline(__always)
    private mutating func decode(_ property: Property, _ scanner: inout JSONScanner) throws(JSONSyntaxError)
        -> Bool
    {
        let field = property.field
        guard field != .time else {
            guard let byte = scanner.peek(), byte == .minus || byte.isDigit else {
                if try !scanner.consumeNull() {
                    report("properties.time is not a number")
                    try scanner.skipValue()
                }
                return false
            }
            guard let time = scanner.integer(try scanner.scanNumber()), abs(time) <= maximumMilliseconds else {
                report("properties.time is not a whole number of milliseconds in range")
                return false
            }
            quake.time = time
            return true
        }
        let value: QuakeField.Value?
        switch field.kind {
        case .text: value = try string(property, &scanner).map(QuakeField.Value.text)
        case .integer: value = try integer(property, &scanner).map(QuakeField.Value.integer)
        case .real: value = try double(property, &scanner).map(QuakeField.Value.real)
        }
        field.set(value, in: &quake)
        return false
    }

    /// A string property, or nil for null; any other value goes to `extra`.
    private mutating func string(_ property: Property, _ scanner: inout JSONScanner) throws(JSONSyntaxError)
        -> String?
    {
        if scanner.peek() == .quote { return scanner.string(try scanner.scanString()) }
        if try scanner.consumeNull() { return nil }
        try keepMistyped(property, &scanner)
        return nil
    }

    /// A finite number property, or nil for null; any other value goes to `extra`.
    private mutating func double(_ property: Property, _ scanner: inout JSONScanner) throws(JSONSyntaxError)
        -> Double?
    {
        if let byte = scanner.peek(), byte == .minus || byte.isDigit {
            let start = scanner.position
            let value = scanner.double(try scanner.scanNumber())
            if value.isFinite { return value }
            scanner.position = start
        } else if try scanner.consumeNull() {
            return nil
        }
        try keepMistyped(property, &scanner)
        return nil
    }

    /// A whole-number property, or nil for null; any other value (12.5 included) goes to `extra`.
    private mutating func integer(_ property: Property, _ scanner: inout JSONScanner) throws(JSONSyntaxError)
        -> Int64?
    {
        if let byte = scanner.peek(), byte == .minus || byte.isDigit {
            let start = scanner.position
            if let value = scanner.integer(try scanner.scanNumber()) { return value }
            scanner.position = start
        } else if try scanner.consumeNull() {
            return nil
        }
        try keepMistyped(property, &scanner)
        return nil
    }

    // MARK: - Extra properties

    private mutating func keepMistyped(_ property: Property, _ scanner: inout JSONScanner) throws(JSONSyntaxError) {
        var value = JSONBuffer(capacity: 0)
        try scanner.copyValue(into: &value)
        mistyped.append((property, value.bytes))
    }

    /// Keeps `"key":value`, the key as written (escapes and all, so it stays valid JSON) and the
    /// value without insignificant whitespace.
    private mutating func keepUnknown(_ key: JSONScanner.RawString, _ scanner: inout JSONScanner)
        throws(JSONSyntaxError)
    {
        let name = scanner.string(key)
        if unknownKeys.contains(name) { report("duplicate key 'properties.\(name)'") }
        unknownKeys.append(name)
        if unknown == nil { unknown = JSONBuffer(capacity: 256) } else { unknown!.raw(.comma) }
        unknown!.raw(UnsafeBufferPointer(start: scanner.bytes + key.start - 1, count: key.count + 2))
        unknown!.raw(.colon)
        try scanner.copyValue(into: &unknown!)
    }

    /// The `extra` object: mistyped known properties in USGS order, then unknown ones as they came.
    /// The order is canonical, so a feature written back by `list --format geojson` reads the same.
    private func extra() -> String? {
        guard !mistyped.isEmpty || unknown != nil else { return nil }
        var extra: [UInt8] = [.openBrace]
        for (property, value) in mistyped.sorted(by: { $0.property.position < $1.property.position }) {
            if extra.count > 1 { extra.append(.comma) }
            extra += Array("\"\(property.field.name)\":".utf8) + value
        }
        if let unknown {
            if extra.count > 1 { extra.append(.comma) }
            extra += unknown.bytes
        }
        extra.append(.closeBrace)
        return String(decoding: extra, as: UTF8.self)
    }

    // MARK: - Helpers

    /// Records the first problem; the rest of the feature is still read, to find syntax errors.
    private mutating func report(_ reason: String) {
        if problem == nil { problem = reason }
    }

    /// `path` is built only when there is something to report: most features have no duplicate.
    private mutating func noteDuplicate(_ seen: inout MemberSet, _ member: Int, _ path: @autoclosure () -> String) {
        if seen.contains(member) { report("duplicate key '\(path())'") }
        seen.insert(member)
    }

    /// Checks that the next value is the string `expected`, reporting `path` otherwise.
    private mutating func expectString(_ scanner: inout JSONScanner, _ expected: StaticString, path: String)
        throws(JSONSyntaxError)
    {
        guard scanner.peek() == .quote else {
            report("\(path) is not a string")
            return try scanner.skipValue()
        }
        let value = try scanner.scanString()
        if !scanner.matches(value, expected) {
            report("\(path) is '\(scanner.string(value))', not '\(expected)'")
        }
    }

    /// Reports that `path` is null or not of the `expected` kind, and skips its value.
    private mutating func reportNonObject(_ path: String, _ scanner: inout JSONScanner, expected: String)
        throws(JSONSyntaxError)
    {
        if try scanner.consumeNull() {
            report("\(path) is null")
        } else {
            report("\(path) is not \(expected)")
            try scanner.skipValue()
        }
    }
}

/// About 285,000 years either side of 1970: far beyond any real event, and safe for date arithmetic.
private let maximumMilliseconds: Int64 = 9_000_000_000_000_000

/// A set of small integers, for noticing duplicate keys without allocating.
private struct MemberSet {
    private var bits: UInt64 = 0
    func contains(_ member: Int) -> Bool { bits & (1 << member) != 0 }
    mutating func insert(_ member: Int) { bits |= 1 << member }
}

/// A summary property of a USGS feature: a field of `QuakeField.properties`, and its position there,
/// which is the order USGS writes them in.
struct Property {
    let field: QuakeField
    let position: Int

    /// Where `time` is among the properties.
    static let timePosition = QuakeField.properties.firstIndex(of: .time)!

    /// The property a key names, among `properties` (`QuakeField.properties`). USGS writes
    /// properties in a fixed order, so the one after the previous key is tried first: one
    /// comparison per key on real feeds.
    static func matching(
        _ key: JSONScanner.RawString, among properties: [QuakeField], in scanner: JSONScanner, predicted: Int
    ) -> Property? {
        if predicted < properties.count, scanner.matches(key, properties[predicted].staticName) {
            return Property(field: properties[predicted], position: predicted)
        }
        let position: Int?
        if key.hasEscapes {  // "m\u0061g" is "mag".
            let name = scanner.string(key)
            position = properties.firstIndex { $0.name == name }
        } else {
            position = properties.firstIndex {
                $0.staticName.utf8CodeUnitCount == key.count && scanner.matches(key, $0.staticName)
            }
        }
        return position.map { Property(field: properties[$0], position: $0) }
    }
}
