import Foundation

extension FDSNEmulator {
    /// A request's parameters, read and checked as ComCat does: names exactly, times to whole
    /// seconds in UTC, the cap on `limit`.
    struct Parameters {
        /// Why a request was refused, in ComCat's words.
        struct Refusal: Error {
            var message: String
        }

        enum IncludeDeleted {
            case `false`
            case `true`
            case only
        }

        /// "geojson", or "text" for `count`.
        var format: String
        /// Milliseconds, a whole second.
        var start: Int64?
        var end: Int64?
        var updatedAfter: Int64?
        var minMagnitude: Double?
        var maxMagnitude: Double?
        var minLatitude: Double?
        var maxLatitude: Double?
        var minLongitude: Double?
        var maxLongitude: Double?
        var circle: (latitude: Double, longitude: Double, kilometres: Double)?
        var minDepth: Double?
        var maxDepth: Double?
        var eventTypes: Set<String>?
        var catalog: String?
        var contributor: String?
        var includeDeleted = IncludeDeleted.false
        var eventid: String?
        var orderBy = OrderBy.time
        var limit: Int?
        var offset = 1
        var nodata = 404

        private static let names: Set<String> = [
            "format", "starttime", "endtime", "updatedafter", "minmagnitude", "maxmagnitude", "minlatitude",
            "maxlatitude", "minlongitude", "maxlongitude", "latitude", "longitude", "maxradiuskm", "maxradius",
            "mindepth", "maxdepth", "eventtype", "catalog", "contributor", "includedeleted", "eventid", "orderby",
            "limit", "offset", "nodata",
        ]

        /// Reads the query string of `path`; `now` (milliseconds) gives the default `starttime`.
        init(query path: String, kind: Kind, now: Int64, cap: Int = 20_000) throws(Refusal) {
            var values: [String: String] = [:]
            if let question = path.firstIndex(of: "?") {
                for pair in path[path.index(after: question)...].split(separator: "&") {
                    let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    let name = Self.decode(parts[0])
                    guard Self.names.contains(name) else { throw Refusal(message: #"Unknown parameter "\#(name)"."#) }
                    values[name] = parts.count > 1 ? Self.decode(parts[1]) : ""
                }
            }
            func number(_ name: String) throws(Refusal) -> Double? {
                guard let text = values[name] else { return nil }
                guard let value = Double(text), value.isFinite else { throw Self.bad(name, text) }
                return value
            }
            func time(_ name: String) throws(Refusal) -> Int64? {
                guard let text = values[name] else { return nil }
                guard let seconds = UTC.seconds(parsing: text) else { throw Self.bad(name, text) }
                return seconds * 1000
            }

            let defaultFormat = kind == .count ? "text" : "geojson"
            format = values["format"] ?? defaultFormat
            guard format == "geojson" || (kind == .count && format == "text") else {
                throw Self.bad("format", format)
            }
            if let text = values["includedeleted"] {
                switch text {
                case "true": includeDeleted = .true
                case "false": includeDeleted = .false
                case "only": includeDeleted = .only
                default: throw Self.bad("includedeleted", text)
                }
                // ComCat checks the format asked for, and a query's default is QuakeML.
                if values["format"] != "geojson", values["format"] != "csv" {
                    throw Refusal(message: "includedeleted is only supported for format=geojson or format=csv")
                }
            }
            if let text = values["nodata"] {
                guard let code = Int(text), code == 204 || code == 404 else { throw Self.bad("nodata", text) }
                nodata = code
            }
            eventid = values["eventid"]
            start = try time("starttime")
            end = try time("endtime")
            updatedAfter = try time("updatedafter")
            if start == nil, eventid == nil { start = (now / 1000 - 30 * 86_400) * 1000 }
            minMagnitude = try number("minmagnitude")
            maxMagnitude = try number("maxmagnitude")
            minLatitude = try number("minlatitude")
            maxLatitude = try number("maxlatitude")
            minLongitude = try number("minlongitude")
            maxLongitude = try number("maxlongitude")
            minDepth = try number("mindepth")
            maxDepth = try number("maxdepth")
            let latitude = try number("latitude")
            let longitude = try number("longitude")
            var kilometres = try number("maxradiuskm")
            if kilometres == nil, let degrees = try number("maxradius") { kilometres = degrees * 111.195 }
            if let kilometres {
                circle = (latitude ?? 0, longitude ?? 0, kilometres)
            }
            eventTypes = values["eventtype"].map { Set($0.split(separator: ",").map(String.init)) }
            catalog = values["catalog"]
            contributor = values["contributor"]
            if let text = values["orderby"] {
                guard let column = OrderBy(rawValue: text) else { throw Self.bad("orderby", text) }
                orderBy = column
            }
            if let text = values["limit"] {
                guard let value = Int(text), value >= 1, value <= cap else {
                    throw Refusal(message: "Bad limit value \"\(text)\". Valid values are 1 to \(cap).")
                }
                limit = value
            }
            if let text = values["offset"] {
                guard let value = Int(text), value >= 1 else { throw Self.bad("offset", text) }
                offset = value
            }
        }

        /// Whether a row passes the numeric filters and `includedeleted`; time is the binary search's.
        func selects(_ row: Catalogue.Row) -> Bool {
            switch includeDeleted {
            case .false: if row.deleted { return false }
            case .only: if !row.deleted { return false }
            case .true: break
            }
            if let updatedAfter, row.updated < updatedAfter { return false }
            // A NaN (unknown) magnitude or depth fails every comparison, so `!(x >= low)`.
            if let minMagnitude, !(row.mag >= minMagnitude) { return false }
            if let maxMagnitude, !(row.mag <= maxMagnitude) { return false }
            if let minDepth, !(row.depth >= minDepth) { return false }
            if let maxDepth, !(row.depth <= maxDepth) { return false }
            if let minLatitude, row.latitude < minLatitude { return false }
            if let maxLatitude, row.latitude > maxLatitude { return false }
            if let minLongitude, let maxLongitude, minLongitude > maxLongitude {
                // A box across the antimeridian.
                if row.longitude < minLongitude, row.longitude > maxLongitude { return false }
            } else {
                if let minLongitude, row.longitude < minLongitude { return false }
                if let maxLongitude, row.longitude > maxLongitude { return false }
            }
            if let circle,
                Self.kilometres(circle.latitude, circle.longitude, row.latitude, row.longitude) > circle.kilometres
            {
                return false
            }
            return true
        }

        /// Whether any filter reads the events' strings, which the scan then looks at.
        var readsText: Bool {
            eventTypes != nil || catalog != nil || contributor != nil
        }

        /// Whether `event` passes the filters on strings.
        func selectsText(_ event: Event) -> Bool {
            if let eventTypes, !eventTypes.contains(event.type) { return false }
            if let catalog, catalog.lowercased() != event.catalog.lowercased() { return false }
            if let contributor, contributor.lowercased() != event.contributor.lowercased() { return false }
            return true
        }

        /// The great-circle distance, by the haversine formula on a sphere of 6,371 km.
        static func kilometres(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double)
            -> Double
        {
            let radians = Double.pi / 180
            let dLatitude = (latitude2 - latitude1) * radians
            let dLongitude = (longitude2 - longitude1) * radians
            let a =
                sin(dLatitude / 2) * sin(dLatitude / 2)
                + cos(latitude1 * radians) * cos(latitude2 * radians) * sin(dLongitude / 2) * sin(dLongitude / 2)
            return 2 * 6371 * asin(min(1, a.squareRoot()))
        }

        private static func bad(_ name: String, _ value: String) -> Refusal {
            Refusal(message: #"Bad \#(name) value "\#(value)"."#)
        }

        /// Percent-decoding, with `+` as a space as HTML forms send it.
        private static func decode(_ text: Substring) -> String {
            var bytes: [UInt8] = []
            var utf8 = Array(text.utf8)[...]
            while let byte = utf8.popFirst() {
                if byte == UInt8(ascii: "%"), utf8.count >= 2,
                    let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
                {
                    bytes.append(value)
                    utf8 = utf8.dropFirst(2)
                } else {
                    bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// `orderby`'s values.
    enum OrderBy: String {
        case time
        case timeAscending = "time-asc"
        case magnitude
        case magnitudeAscending = "magnitude-asc"
    }
}
