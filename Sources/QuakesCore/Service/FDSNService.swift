/// An FDSN event service that answers GeoJSON: USGS ComCat's unless `--service` names another.
///
/// What it relies on of ComCat (its documentation, https://earthquake.usgs.gov/fdsnws/event/1/,
/// and its service code): `query` with `format=geojson`; times in UTC, read to whole seconds, with
/// `starttime`, `endtime` and `updatedafter` inclusive; a query without `limit` that matches more
/// than the cap (20,000) refused with HTTP 400 saying how many matched, never cut short, which is
/// why quakes never sends `limit`; `eventid` answering one event, 409 for a deleted one unless
/// `includedeleted=true`, 404 for an unknown one.
package struct FDSNService: Sendable, Equatable {
    /// USGS ComCat's event service.
    static let comCat = "https://earthquake.usgs.gov/fdsnws/event/1/"
    /// ComCat's, as a service.
    static let usgsComCat = FDSNService(base: comCat)
    /// What `--service` accepts, as its messages say.
    static let form = "the http or https URL of an FDSN event service, such as \(comCat)"
    /// The most events ComCat answers at once.
    static let resultCap = 20_000

    /// The service's base URL, ending in `/`: `query` is appended to it.
    var base: String

    /// Reads `--service`: an http or https URL of the service's base (`…/fdsnws/event/1/`), with or
    /// without its trailing `/` or `query`.
    init(_ text: String) throws(UsageError) {
        var base = text.trimmingCharacters(where: \.isBlank)
        let lowered = base.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), !base.contains("?"),
            base.count > "https://".count
        else {
            throw UsageError(
                "The value '\(text)' of '--service <url>' is invalid: expected \(Self.form)")
        }
        if base.hasSuffix("/query") { base.removeLast("query".count) }
        if !base.hasSuffix("/") { base += "/" }
        self.base = base
    }

    private init(base: String) {
        self.base = base
    }

    /// The URL of a query.
    func queryURL(_ parameters: [(name: String, value: String)]) -> String {
        base + "query?" + parameters.map { "\($0.name)=\(Self.escaped($0.value))" }.joined(separator: "&")
    }

    /// The URL that asks for one event by any of its ids, deleted or not.
    func eventURL(id: String) -> String {
        queryURL([("eventid", id), ("format", "geojson"), ("includedeleted", "true")])
    }

    /// A moment as FDSN writes it, in UTC to the second: `2011-03-11T05:46:24`. The service drops
    /// fractions, so callers choose whole seconds.
    static func time(_ milliseconds: Int64) -> String {
        let fields = CivilTime.fields(milliseconds)
        return "\(CivilTime.date(fields))T\(CivilTime.clock(fields))"
    }

    /// A number as a query parameter: `4.5`, `-10`, `120`.
    package static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// How many events the service said a refused query matched, and its cap, from the message of
    /// its HTTP 400: ComCat's `33980 matching events exceeds search limit of 20000`. Nil for any
    /// other refusal; (nil, nil) for a 413 or a refusal that names no numbers but is about size.
    static func refusal(of error: any Error) -> (matching: Int?, cap: Int?)? {
        guard case let .httpStatus(_, status, _, message)? = error as? DownloadError else { return nil }
        if status == 413 { return (nil, nil) }
        guard status == 400, let message else { return nil }
        let words = message.split(whereSeparator: \.isWhitespace)
        guard let exceeds = words.firstIndex(where: { $0 == "exceeds" }), exceeds >= 3,
            words[exceeds - 2] == "matching", words[exceeds - 1].hasPrefix("event")
        else { return nil }
        let matching = Int(words[exceeds - 3])
        let cap = words.dropFirst(exceeds).first { Int($0.trimmingCharacters(where: \.isPunctuation)) != nil }
            .flatMap { Int($0.trimmingCharacters(where: \.isPunctuation)) }
        return (matching, cap)
    }

    /// A query value with everything but unreserved characters percent-encoded.
    private static func escaped(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: ":"), UInt8(ascii: ","):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
