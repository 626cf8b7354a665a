import Glibc

/// One earthquake (or other seismic event) as USGS describes it in a GeoJSON feature.
///
/// Every summary property has a typed field named for the phrase it reads as at the call site; the
/// comment after each gives the USGS property name, which is also its column in the database.
/// Times stay integer milliseconds since 1970 in UTC from the feed to the database, so nothing is
/// rounded on the way; units are converted only when printing. Any property this type does not know
/// is kept, as JSON, in `extra`.
public struct Quake: Sendable, Hashable {
    /// The preferred event id (`id`), such as `ci39746767`.
    public var id: String
    /// When the event happened, in milliseconds since 1970-01-01 UTC (`time`).
    public var time: Int64
    /// When USGS last changed the event, in milliseconds since 1970-01-01 UTC (`updated`).
    public var updated: Int64?
    /// The preferred magnitude (`mag`); USGS leaves it null for events a few minutes old.
    public var magnitude: Double?
    /// How the magnitude was computed, such as `ml` or `mww` (`magType`).
    public var magnitudeType: String?
    /// A description of the place, such as `10km NNE of Coso Junction, CA` (`place`).
    public var place: String?
    /// Degrees east, in [-180, 180] (`geometry.coordinates[0]`).
    public var longitude: Double
    /// Degrees north, in [-90, 90] (`geometry.coordinates[1]`).
    public var latitude: Double
    /// Kilometres below sea level; negative above it (`geometry.coordinates[2]`).
    public var depth: Double?
    /// The kind of event, such as `earthquake` or `quarry blast` (`type`).
    public var eventType: String?
    /// `automatic`, `reviewed` or `deleted`; older feeds write them in capitals (`status`).
    public var status: String?
    /// The PAGER alert level: `green`, `yellow`, `orange` or `red` (`alert`).
    public var alert: String?
    /// 1 when the event is large enough, in an oceanic region, for a tsunami message (`tsunami`).
    public var tsunami: Int?
    /// USGS's significance score, from magnitude, felt reports and impact (`sig`).
    public var significance: Int?
    /// The number of "Did You Feel It?" reports (`felt`).
    public var feltReports: Int?
    /// The largest reported intensity (`cdi`).
    public var reportedIntensity: Double?
    /// The largest estimated instrumental intensity (`mmi`).
    public var estimatedIntensity: Double?
    /// The network that contributed the preferred solution, such as `ci` (`net`).
    public var network: String?
    /// The network's code for the event (`code`).
    public var code: String?
    /// Every id the event has had, comma-separated with commas at both ends (`ids`).
    public var ids: String?
    /// The networks that contributed, comma-separated with commas at both ends (`sources`).
    public var sources: String?
    /// The product types available, comma-separated with commas at both ends (`types`).
    public var productTypes: String?
    /// The number of seismic stations used (`nst`).
    public var stationCount: Int?
    /// Horizontal distance to the nearest station, in degrees (`dmin`).
    public var minimumDistance: Double?
    /// The root-mean-square travel-time residual, in seconds (`rms`).
    public var rms: Double?
    /// The largest azimuthal gap between stations, in degrees (`gap`).
    public var azimuthalGap: Double?
    /// The event page on earthquake.usgs.gov (`url`).
    public var url: String?
    /// The event's detail GeoJSON feed (`detail`).
    public var detail: String?
    /// The title USGS gives the event, such as `M 2.8 - 5 km SW of Cobb, CA` (`title`).
    public var title: String?
    /// The event's local time zone as minutes from UTC; null in feeds since 2020 (`tz`).
    public var timeZoneOffset: Int?
    /// Properties this version does not know, as a JSON object text; nil when there are none.
    public var extra: String?
    /// When USGS generated the feed this version of the event came from, in milliseconds since
    /// 1970 UTC (the feed's `metadata.generated`); nil for documents without it.
    ///
    /// USGS sometimes rewrites an event (its place name, say) without changing `updated`; of two
    /// versions with the same `updated`, the one from the later feed is the newer.
    public var feedGenerated: Int64?

    public init(id: String, time: Int64, longitude: Double, latitude: Double) {
        self.id = id
        self.time = time
        self.longitude = longitude
        self.latitude = latitude
    }

    /// The event ids in `ids`, without the empty ends.
    public var allIDs: [Substring] {
        (ids ?? "").split(separator: ",")
    }

    /// The ids in `ids` other than `id`, each once; for the usual `,id,`, found empty without
    /// splitting.
    package var otherIDs: [String] {
        Self.otherIDs(in: ids, besides: id)
    }

    /// Every id the version names, its own first, each once: the ids the identity rules give it.
    package var namedIDs: [String] {
        [id] + otherIDs
    }

    /// The ids in the `ids` list `ids` other than `id`, each once (what `otherIDs` is, for a
    /// feature not decoded).
    package static func otherIDs(in ids: String?, besides id: String) -> [String] {
        guard var ids else { return [] }
        var id = id
        let onlyOwn = ids.withUTF8 { list in
            id.withUTF8 { own in
                list.count == own.count + 2 && list.first == UInt8(ascii: ",") && list.last == UInt8(ascii: ",")
                    && (own.isEmpty || memcmp(list.baseAddress! + 1, own.baseAddress!, own.count) == 0)
            }
        }
        if onlyOwn { return [] }
        var others: [String] = []
        for other in ids.split(separator: ",") where other != id && !others.contains(where: { $0 == other }) {
            others.append(String(other))
        }
        return others
    }

    /// The quake without the time of the feed it came in: what compares two versions' data.
    var withoutFeedTime: Quake {
        var quake = self
        quake.feedGenerated = nil
        return quake
    }

    /// True when USGS flags the event as deleted, which removes it from the store.
    public var isDeleted: Bool {
        guard let status, status.utf8.count == 7 else { return false }  // Spares the lower-casing.
        return status.lowercased() == "deleted"
    }
}
