/// The stored fields of a quake, in table order: the one list that pairs a `Quake` property with
/// its name and its kind. Made from it: the properties the feed decoder reads (`properties`, by
/// `staticName`), the engines' column lists, row writers and row readers, and every output format's
/// members (`listed`). Not made from it: the engines' `CREATE TABLE`s, which are migrations written
/// out once and never changed (SchemaTests holds each table's columns to this list). `set(_:in:)`
/// and `Quake`'s `QuakeRow` readers are the one place each field meets its `Quake` property.
///
/// Public, with its kind and the `Quake` readers inlinable, so that the engines, whose writes read
/// every field of every event, get them inlined across the module boundary.
public enum QuakeField: Int, CaseIterable, Sendable {
    case id, time, updated, magnitude, magnitudeType, place, longitude, latitude, depth, eventType, status, alert
    case tsunami, significance, feltReports, reportedIntensity, estimatedIntensity, network, code, ids, sources
    case productTypes, stationCount, minimumDistance, rms, azimuthalGap, url, detail, title, timeZoneOffset, extra
    case feedGenerated

    /// What a field holds, which decides its column type in each engine.
    public enum Kind: Sendable {
        case text, integer, real
    }

    /// A field's value.
    package enum Value: Sendable, Equatable {
        case text(String)
        case integer(Int64)
        case real(Double)
    }

    /// The name of the field as the USGS feed names the property: the column's in every engine,
    /// the member's in every output format, and the key the feed decoder reads it from.
    package var name: String {
        staticName.description
    }

    /// `name`, as static text: what the feed decoder compares a key with, in place.
    package var staticName: StaticString {
        switch self {
        case .id: "id"
        case .time: "time"
        case .updated: "updated"
        case .magnitude: "mag"
        case .magnitudeType: "magType"
        case .place: "place"
        case .longitude: "longitude"
        case .latitude: "latitude"
        case .depth: "depth"
        case .eventType: "type"
        case .status: "status"
        case .alert: "alert"
        case .tsunami: "tsunami"
        case .significance: "sig"
        case .feltReports: "felt"
        case .reportedIntensity: "cdi"
        case .estimatedIntensity: "mmi"
        case .network: "net"
        case .code: "code"
        case .ids: "ids"
        case .sources: "sources"
        case .productTypes: "types"
        case .stationCount: "nst"
        case .minimumDistance: "dmin"
        case .rms: "rms"
        case .azimuthalGap: "gap"
        case .url: "url"
        case .detail: "detail"
        case .title: "title"
        case .timeZoneOffset: "tz"
        case .extra: "extra"
        case .feedGenerated: "generated"
        }
    }

    @inlinable
    public var kind: Kind {
        switch self {
        case .id, .magnitudeType, .place, .eventType, .status, .alert, .network, .code, .ids, .sources, .productTypes,
            .url, .detail, .title, .extra:
            .text
        case .time, .updated, .tsunami, .significance, .feltReports, .stationCount, .timeZoneOffset, .feedGenerated:
            .integer
        case .magnitude, .longitude, .latitude, .depth, .reportedIntensity, .estimatedIntensity, .minimumDistance, .rms,
            .azimuthalGap:
            .real
        }
    }

    /// The fields of a quake in the machine-readable formats (JSON, ndjson, CSV, `show`), in the
    /// order of the USGS feeds' properties, then the coordinates; `extra` and the feed time are the
    /// store's own.
    static let listed: [QuakeField] = [
        .id, .magnitude, .place, .time, .updated, .timeZoneOffset, .url, .detail, .feltReports, .reportedIntensity,
        .estimatedIntensity, .alert, .status, .tsunami, .significance, .network, .code, .ids, .sources, .productTypes,
        .stationCount, .minimumDistance, .rms, .azimuthalGap, .magnitudeType, .eventType, .title, .longitude,
        .latitude, .depth,
    ]

    /// The fields that are a GeoJSON feature's `properties`, in the order USGS writes them: the
    /// listed ones but the id and the coordinates, which the feature has in its own members. The
    /// feed decoder reads these, and keeps any other property in `extra`.
    package static let properties = listed.filter { ![.id, .longitude, .latitude, .depth].contains($0) }

    /// True for the moments (milliseconds since 1970), which the listings write as ISO 8601 text.
    var isTime: Bool {
        self == .time || self == .updated || self == .feedGenerated
    }

    /// True for the fields every quake has.
    package var isRequired: Bool {
        self == .id || self == .time || self == .longitude || self == .latitude
    }

    /// The field's value in `quake`, nil when it has none.
    package func value(of quake: Quake) -> Value? {
        switch kind {
        case .text: quake.text(self).map(Value.text)
        case .integer: quake.integer(self).map(Value.integer)
        case .real: quake.real(self).map(Value.real)
        }
    }

    /// Sets the field in `quake` to `value`, which an engine read back, or the feed decoder read, as
    /// this field's kind. Always inlined: where the value's kind is known, as in the decoder, what
    /// is left is the assignment.
    @inline(__always)
    package func set(_ value: Value?, in quake: inout Quake) {
        let text: String?
        let integer: Int64?
        let real: Double?
        switch value {
        case let .text(value)?: (text, integer, real) = (value, nil, nil)
        case let .integer(value)?: (text, integer, real) = (nil, value, Double(value))
        case let .real(value)?: (text, integer, real) = (nil, Int64(exactly: value), value)
        case nil: (text, integer, real) = (nil, nil, nil)
        }
        let int = integer.flatMap { Int(exactly: $0) }
        switch self {
        case .id: quake.id = text ?? ""
        case .time: quake.time = integer ?? 0
        case .updated: quake.updated = integer
        case .magnitude: quake.magnitude = real
        case .magnitudeType: quake.magnitudeType = text
        case .place: quake.place = text
        case .longitude: quake.longitude = real ?? 0
        case .latitude: quake.latitude = real ?? 0
        case .depth: quake.depth = real
        case .eventType: quake.eventType = text
        case .status: quake.status = text
        case .alert: quake.alert = text
        case .tsunami: quake.tsunami = int
        case .significance: quake.significance = int
        case .feltReports: quake.feltReports = int
        case .reportedIntensity: quake.reportedIntensity = real
        case .estimatedIntensity: quake.estimatedIntensity = real
        case .network: quake.network = text
        case .code: quake.code = text
        case .ids: quake.ids = text
        case .sources: quake.sources = text
        case .productTypes: quake.productTypes = text
        case .stationCount: quake.stationCount = int
        case .minimumDistance: quake.minimumDistance = real
        case .rms: quake.rms = real
        case .azimuthalGap: quake.azimuthalGap = real
        case .url: quake.url = text
        case .detail: quake.detail = text
        case .title: quake.title = text
        case .timeZoneOffset: quake.timeZoneOffset = int
        case .extra: quake.extra = text
        case .feedGenerated: quake.feedGenerated = integer
        }
    }
}
