import Foundation

@testable import QuakesCore

/// An independent decoder of USGS features: Foundation's JSONDecoder reads the JSON, and this
/// file applies the feed rules to the values it returns. It is the differential oracle for the
/// hand-written byte decoder, so it shares no code with it.
enum ReferenceDecoder {
    /// A JSON value as JSONDecoder reads it.
    indirect enum Value: Decodable, Equatable {
        case null
        case bool(Bool)
        case number(Double, integer: Int64?)
        case string(String)
        case array([Value])
        case object([String: Value])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            // Tried in the order of how often each kind occurs in feeds: every failed try throws.
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value, integer: value.rounded() == value ? try? container.decode(Int64.self) : nil)
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode([Value].self) {
                self = .array(value)
            } else {
                self = .object(try container.decode([String: Value].self))
            }
        }

        /// The value as a Foundation object, for comparing JSON texts regardless of key order.
        var foundationObject: Any {
            switch self {
            case .null: NSNull()
            case let .bool(value): value
            case let .number(value, _): value
            case let .string(value): value
            case let .array(values): values.map(\.foundationObject)
            case let .object(members): members.mapValues(\.foundationObject)
            }
        }
    }

    private struct Document: Decodable {
        struct Metadata: Decodable {
            var generated: Int64?
        }

        var type: String
        var features: [Value]?
        var metadata: Metadata?
    }

    /// The usable features of a FeatureCollection or Feature document, in order, and the positions
    /// of the features it skips.
    static func decode(_ data: Data) throws -> (quakes: [Quake], skipped: [Int]) {
        // RFC 8259: JSON text is UTF-8; JSONDecoder repairs what is not.
        guard String(validating: data, as: UTF8.self) != nil else { throw CocoaError(.coderReadCorrupt) }
        // Every value is read, so that nothing the rules ignore (a bbox, metadata) escapes validation:
        // JSONDecoder skips the members a type does not ask for without checking them.
        _ = try JSONDecoder().decode(Value.self, from: data)
        let document = try JSONDecoder().decode(Document.self, from: data)
        let features: [Value]
        switch document.type {
        case "FeatureCollection":
            // GeoJSON (RFC 7946, 3.3): a FeatureCollection has a "features" array.
            guard let members = document.features else { throw CocoaError(.coderReadCorrupt) }
            features = members
        case "Feature": features = [try JSONDecoder().decode(Value.self, from: data)]
        default: throw CocoaError(.coderReadCorrupt)
        }
        var quakes: [Quake] = []
        var skipped: [Int] = []
        for (index, feature) in features.enumerated() {
            if var quake = quake(from: feature) {
                quake.feedGenerated = document.metadata?.generated
                quakes.append(quake)
            } else {
                skipped.append(index)
            }
        }
        return (quakes, skipped)
    }

    /// The event's time: its `time`, or, for a deleted event whose `time` is null, its `updated`
    /// (or 0).
    private static func time(of properties: [String: Value]) -> Int64? {
        if case let .number(_, time?)? = properties["time"], abs(time) <= 9_000_000_000_000_000 { return time }
        guard properties["time"] == .null, case let .string(status)? = properties["status"],
            status.lowercased() == "deleted"
        else { return nil }
        if case let .number(_, updated?)? = properties["updated"] { return updated }
        return 0
    }

    /// The feature as a quake, or nil when the rules make it unusable.
    static func quake(from feature: Value) -> Quake? {
        guard case let .object(members) = feature,
            members["type"].map({ $0 == .string("Feature") }) ?? true,
            case let .string(id)? = members["id"], !id.isEmpty,
            case let .object(properties)? = members["properties"],
            let time = time(of: properties),
            case let .object(geometry)? = members["geometry"],
            geometry["type"] == .string("Point"),
            case let .array(coordinates)? = geometry["coordinates"], coordinates.count >= 2,
            case let .number(longitude, _) = coordinates[0], (-180...180).contains(longitude),
            case let .number(latitude, _) = coordinates[1], (-90...90).contains(latitude)
        else { return nil }
        var quake = Quake(id: id, time: time, longitude: longitude, latitude: latitude)
        if coordinates.count > 2 {
            switch coordinates[2] {
            case .null: break
            case let .number(depth, _) where depth.isFinite: quake.depth = depth
            default: return nil
            }
        }
        var extra: [String: Value] = [:]
        func real(_ key: String) -> Double? {
            switch properties[key] {
            case nil, .null?: return nil
            case let .number(value, _)? where value.isFinite: return value
            case let other?:
                extra[key] = other
                return nil
            }
        }
        func integer(_ key: String) -> Int64? {
            switch properties[key] {
            case nil, .null?: return nil
            case let .number(_, value?)?: return value
            case let other?:
                extra[key] = other
                return nil
            }
        }
        func text(_ key: String) -> String? {
            switch properties[key] {
            case nil, .null?: return nil
            case let .string(value)?: return value
            case let other?:
                extra[key] = other
                return nil
            }
        }
        quake.updated = integer("updated")
        quake.magnitude = real("mag")
        quake.magnitudeType = text("magType")
        quake.place = text("place")
        quake.eventType = text("type")
        quake.status = text("status")
        quake.alert = text("alert")
        quake.tsunami = integer("tsunami").map(Int.init)
        quake.significance = integer("sig").map(Int.init)
        quake.feltReports = integer("felt").map(Int.init)
        quake.reportedIntensity = real("cdi")
        quake.estimatedIntensity = real("mmi")
        quake.network = text("net")
        quake.code = text("code")
        quake.ids = text("ids")
        quake.sources = text("sources")
        quake.productTypes = text("types")
        quake.stationCount = integer("nst").map(Int.init)
        quake.minimumDistance = real("dmin")
        quake.rms = real("rms")
        quake.azimuthalGap = real("gap")
        quake.url = text("url")
        quake.detail = text("detail")
        quake.title = text("title")
        quake.timeZoneOffset = integer("tz").map(Int.init)
        let known: Set = [
            "mag", "place", "time", "updated", "tz", "url", "detail", "felt", "cdi", "mmi", "alert",
            "status", "tsunami", "sig", "net", "code", "ids", "sources", "types", "nst", "dmin", "rms",
            "gap", "magType", "type", "title",
        ]
        for (key, value) in properties where !known.contains(key) { extra[key] = value }
        if !extra.isEmpty {
            let data = try? JSONSerialization.data(
                withJSONObject: Value.object(extra).foundationObject,
                options: [.sortedKeys])
            quake.extra = data.map { String(decoding: $0, as: UTF8.self) }
        }
        return quake
    }
}

extension Quake {
    /// The quake with `extra` rewritten with sorted keys, so that two quakes whose extras hold the
    /// same JSON compare equal whatever their key order and spacing.
    var normalized: Quake {
        var copy = self
        if let extra, let object = try? JSONSerialization.jsonObject(with: Data(extra.utf8)),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        {
            copy.extra = String(decoding: data, as: UTF8.self)
        }
        return copy
    }
}
