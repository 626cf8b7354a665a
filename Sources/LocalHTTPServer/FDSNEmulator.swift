import Foundation
import Locking

/// USGS ComCat's FDSN event service (`fdsnws/event/1/`) on a `LocalHTTPServer`, answering from a
/// catalogue held in memory, so that backfill and sync can be tested against the service's real
/// traps without the network.
///
/// What it copies from ComCat, as its service code and recorded answers show: the 20,000-event cap that
/// refuses a query without `limit` but silently cuts one with it; times parsed to whole seconds
/// with both ends inclusive; `updatedafter` inclusive; deleted events hidden unless asked for;
/// `eventid` resolving every id of an event, 409 for a deleted one; 400 for unknown parameters;
/// and 429 or 503 on demand. Only GeoJSON (and `count`'s text) is served: a query with no
/// `format` gets GeoJSON, where ComCat would send QuakeML.
///
/// The catalogue is kept sorted by time with an index of every id, so that a query
/// binary-searches its time range and a 20,000-event answer is written straight into bytes.
public final class FDSNEmulator: Sendable {
    /// One event of the catalogue, as ComCat's summary holds it.
    public struct Event: Sendable, Equatable {
        /// The preferred id.
        public var id: String
        /// Every id of the event, the preferred one included.
        public var ids: [String]
        /// Milliseconds since 1970.
        public var time: Int64
        /// Milliseconds since 1970.
        public var updated: Int64
        public var mag: Double?
        public var magType: String?
        public var place: String?
        public var longitude: Double
        public var latitude: Double
        public var depth: Double?
        /// "earthquake", "quarry blast", …
        public var type: String
        /// "reviewed", "automatic" or "deleted".
        public var status: String
        public var net: String
        public var code: String
        /// The networks that sent products for the event.
        public var sources: [String]
        /// The product types, such as "origin" and "phase-data".
        public var types: [String]
        /// The catalogue that made the preferred origin; what `catalog=` selects.
        public var catalog: String
        /// The network that contributed the preferred origin; what `contributor=` selects.
        public var contributor: String
        public var rms: Double?

        public init(
            id: String, ids: [String]? = nil, time: Int64, updated: Int64, mag: Double?, magType: String?,
            place: String?, longitude: Double, latitude: Double, depth: Double?, type: String = "earthquake",
            status: String = "reviewed", net: String? = nil, code: String? = nil, sources: [String]? = nil,
            types: [String] = ["origin", "phase-data"], catalog: String? = nil, contributor: String? = nil,
            rms: Double? = nil
        ) {
            let network = net ?? String(id.prefix(2))
            self.id = id
            self.ids = ids ?? [id]
            self.time = time
            self.updated = updated
            self.mag = mag
            self.magType = magType
            self.place = place
            self.longitude = longitude
            self.latitude = latitude
            self.depth = depth
            self.type = type
            self.status = status
            self.net = network
            self.code = code ?? String(id.dropFirst(network.count))
            self.sources = sources ?? [network]
            self.types = types
            self.catalog = catalog ?? network
            self.contributor = contributor ?? network
            self.rms = rms
        }

        public var isDeleted: Bool { status == "deleted" }
    }

    /// How many requests of each kind came, refused ones counted only as refused.
    public struct RequestCounts: Sendable, Equatable {
        public var query = 0
        public var count = 0
        public var eventid = 0
        /// Answered 429 or 503 by `fail(next:status:retryAfter:)`.
        public var refused = 0
        /// Answered 4xx for a bad request.
        public var invalid = 0
    }

    /// The service version ComCat reported in 2025.
    public static let version = "1.14.1"

    public let cap: Int
    /// Whether deleted events are written without time, magnitude and depth, as a USGS developer
    /// said ComCat sends them (ComCat's code falls back to the last values instead).
    public let deletedWithoutValues: Bool
    /// The service's root, ending in `/`.
    public let serviceURL: String
    /// The start of every feature's `detail` URL, escaped for JSON.
    private let detailPrefix: String
    private let host: String
    private let now: @Sendable () -> Int64
    private let catalogue = Locked(Catalogue(events: []))
    private let failures = Locked<[(status: Int, retryAfter: String?)]>([])
    private let counts = Locked(RequestCounts())

    /// Installs the service's routes on `server`. `now` (milliseconds since 1970) is the clock for
    /// the default `starttime` and the `generated` times.
    public init(
        server: LocalHTTPServer, path: String = "/fdsnws/event/1/", cap: Int = 20_000,
        deletedWithoutValues: Bool = true,
        now: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
    ) {
        self.cap = cap
        self.deletedWithoutValues = deletedWithoutValues
        self.now = now
        host = server.url("")
        serviceURL = server.url(path)
        var escaped = JSONWriter(capacity: 100)
        escaped.escaped(serviceURL + "query?eventid=")
        detailPrefix = String(decoding: escaped.bytes, as: UTF8.self)
        // The routes hold the emulator and the emulator does not hold the server: no cycle.
        server.route("\(path)query", .handler { [self] in answer($0, kind: .query) })
        server.route("\(path)count", .handler { [self] in answer($0, kind: .count) })
        server.route(
            "\(path)version",
            .respond(status: 200, headers: ["Content-Type: text/plain"], body: Array(Self.version.utf8)))
    }

    // MARK: - The catalogue

    /// The catalogue, sorted by time (events of equal time in the order they were given).
    public var events: [Event] {
        catalogue.withLock { $0.events }
    }

    public func replace(_ events: [Event]) {
        let sorted = Catalogue(events: events)
        catalogue.withLock { $0 = sorted }
    }

    /// Changes the catalogue in place, under the lock, so that no request sees half a change.
    public func update(_ body: (inout [Event]) -> Void) {
        catalogue.withLock { catalogue in
            var events = catalogue.events
            body(&events)
            catalogue = Catalogue(events: events)
        }
    }

    // MARK: - Faults and counts

    /// The next `n` requests get 429 Too Many Requests, with `Retry-After` when given, and no work.
    public func throttle(next n: Int, retryAfter: String? = nil) {
        fail(next: n, status: 429, retryAfter: retryAfter)
    }

    /// The next `n` requests get `status` (503 Service Unavailable by default), with `Retry-After`
    /// when given, and no work; after those already queued.
    public func fail(next n: Int, status: Int = 503, retryAfter: String? = nil) {
        failures.withLock { $0 += Array(repeating: (status, retryAfter), count: max(0, n)) }
    }

    public var requests: RequestCounts {
        counts.withLock { $0 }
    }

    // MARK: - Answering

    enum Kind {
        case query
        case count
    }

    private func answer(_ request: LocalHTTPServer.Request, kind: Kind) -> LocalHTTPServer.Response {
        let refusal = failures.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if let refusal {
            counts.withLock { $0.refused += 1 }
            let phrase = refusal.status == 429 ? "Too Many Requests" : "Service Unavailable"
            var response = errorResponse(refusal.status, phrase, "Please try again later.", request: request)
            if let retryAfter = refusal.retryAfter { response.headers.append("Retry-After: \(retryAfter)") }
            return response
        }
        let parameters: Parameters
        do {
            parameters = try Parameters(query: request.path, kind: kind, now: now(), cap: cap)
        } catch {
            counts.withLock { $0.invalid += 1 }
            return errorResponse(400, "Bad Request", error.message, request: request)
        }
        let snapshot = catalogue.withLock { $0 }
        if let eventid = parameters.eventid {
            counts.withLock { $0.eventid += 1 }
            return answer(eventid: eventid, parameters, snapshot, request: request)
        }
        counts.withLock {
            switch kind {
            case .query: $0.query += 1
            case .count: $0.count += 1
            }
        }
        switch kind {
        case .count:
            return answerCount(snapshot.count(parameters), parameters)
        case .query:
            switch snapshot.select(parameters, cap: cap) {
            case let .overCap(count):
                let message =
                    "\(count) matching events exceeds search limit of \(cap). "
                    + "Modify the search to match fewer events."
                return errorResponse(400, "Bad Request", message, request: request)
            case let .page(page):
                return json(collection(page, snapshot, parameters, request: request))
            }
        }
    }

    private func answerCount(_ matching: Int, _ parameters: Parameters) -> LocalHTTPServer.Response {
        var count = matching
        if let limit = parameters.limit { count = min(max(0, matching - (parameters.offset - 1)), limit) }
        guard parameters.format == "geojson" else {
            return LocalHTTPServer.Response(headers: ["Content-Type: text/plain"], body: Array(String(count).utf8))
        }
        var body = #"{"count":\#(count),"maxAllowed":\#(cap)"#
        if parameters.limit == nil, count > cap {
            body += #","error":"\#(count) matching events exceeds search limit of \#(cap). "#
            body += #"Modify the search to match fewer events.""#
        }
        return json(Array((body + "}").utf8))
    }

    private func answer(
        eventid: String, _ parameters: Parameters, _ snapshot: Catalogue, request: LocalHTTPServer.Request
    ) -> LocalHTTPServer.Response {
        guard let index = snapshot.index[eventid] else {
            if parameters.nodata == 204 { return LocalHTTPServer.Response(status: 204, body: []) }
            return errorResponse(404, "Not Found", "Event \(eventid) was not found.", request: request)
        }
        let event = snapshot.events[index]
        if event.isDeleted, parameters.includeDeleted != .true {
            let message =
                "The requested event has been deleted. To see information for deleted events, "
                + #"perform a search and use the "includedeleted" option."#
            return errorResponse(409, "Conflict", message, request: request)
        }
        var writer = JSONWriter(capacity: 2048)
        writeFeature(event, into: &writer, products: true)
        return json(writer.bytes)
    }

    private func json(_ body: [UInt8]) -> LocalHTTPServer.Response {
        LocalHTTPServer.Response(headers: ["Content-Type: application/json"], body: body)
    }

    /// An error as ComCat words it, in plain text.
    private func errorResponse(
        _ status: Int, _ phrase: String, _ message: String, request: LocalHTTPServer.Request
    ) -> LocalHTTPServer.Response {
        let body = """
            Error \(status): \(phrase)

            \(message)

            Usage details are available from https://earthquake.usgs.gov/fdsnws/event/1

            Request:
            \(request.path)

            Request Submitted:
            \(UTC.iso8601(milliseconds: now()))

            Service version:
            \(Self.version)
            """
        return LocalHTTPServer.Response(status: status, headers: ["Content-Type: text/plain"], body: Array(body.utf8))
    }

    // MARK: - GeoJSON

    private func collection(
        _ page: ArraySlice<Int>, _ snapshot: Catalogue, _ parameters: Parameters, request: LocalHTTPServer.Request
    ) -> [UInt8] {
        var writer = JSONWriter(capacity: 512 + page.count * 800)
        writer.raw(#"{"type":"FeatureCollection","metadata":{"generated":"#)
        writer.integer(now())
        writer.raw(#","url":"#)
        writer.string(host + request.path)
        writer.raw(#","title":"USGS Earthquakes","status":200,"api":"#)
        writer.string(Self.version)
        writer.raw(#","count":"#)
        writer.integer(Int64(page.count))
        if let limit = parameters.limit {
            writer.raw(#","limit":"#)
            writer.integer(Int64(limit))
            writer.raw(#","offset":"#)
            writer.integer(Int64(parameters.offset))
        }
        writer.raw(#"},"features":["#)
        var box = BoundingBox()
        // By position, not `enumerated()`: see `JSONWriter`.
        for position in page.indices {
            let index = page[position]
            if position > page.startIndex { writer.byte(UInt8(ascii: ",")) }
            // Not bound to a local: a copy of an event retains each of its strings.
            writeFeature(snapshot.events[index], into: &writer, products: false)
            box.add(snapshot.events[index], depth: writtenDepth(snapshot.events[index]))
        }
        writer.raw("]")
        if !page.isEmpty {
            writer.raw(#","bbox":["#)
            let values = box.values
            for position in values.indices {
                if position > 0 { writer.byte(UInt8(ascii: ",")) }
                let value = values[position]
                writer.number(value)
            }
            writer.raw("]")
        }
        writer.raw("}")
        return writer.bytes
    }

    private func writtenDepth(_ event: Event) -> Double? {
        event.isDeleted && deletedWithoutValues ? nil : event.depth
    }

    private func writeFeature(_ event: Event, into writer: inout JSONWriter, products: Bool) {
        let blank = event.isDeleted && deletedWithoutValues
        let mag = blank ? nil : event.mag
        writer.raw(#"{"type":"Feature","properties":{"mag":"#)
        writer.number(mag)
        writer.raw(#","place":"#)
        writer.string(event.place)
        writer.raw(#","time":"#)
        if blank { writer.raw("null") } else { writer.integer(event.time) }
        writer.raw(#","updated":"#)
        writer.integer(event.updated)
        writer.raw(#","tz":null,"url":"https://earthquake.usgs.gov/earthquakes/eventpage/"#)
        writer.escaped(event.id)
        writer.raw(#"","detail":""#)
        writer.raw(detailPrefix)
        writer.escaped(event.id)
        writer.raw(#"&format=geojson","felt":null,"cdi":null,"mmi":null,"alert":null,"status":"#)
        writer.string(event.status)
        writer.raw(#","tsunami":0,"sig":"#)
        writer.integer(mag.map { Int64(($0 * 100 * $0 / 6.5).rounded()) } ?? 0)
        writer.raw(#","net":"#)
        writer.string(event.net)
        writer.raw(#","code":"#)
        writer.string(event.code)
        writer.raw(#","ids":"#)
        writer.list(event.ids)
        writer.raw(#","sources":"#)
        writer.list(event.sources)
        writer.raw(#","types":"#)
        writer.list(event.types)
        writer.raw(#","nst":null,"dmin":null,"rms":"#)
        writer.number(event.rms)
        writer.raw(#","gap":null,"magType":"#)
        writer.string(event.magType)
        writer.raw(#","type":"#)
        writer.string(event.type)
        writer.raw(#","title":""#)
        if let mag {
            // One decimal, rounded half away from zero as PHP's number_format does.
            let tenths = Int64((mag * 10).rounded())
            writer.raw(tenths < 0 ? "M -" : "M ")
            writer.integer(abs(tenths) / 10)
            writer.byte(UInt8(ascii: "."))
            writer.integer(abs(tenths) % 10)
        } else {
            writer.raw("M ?")
        }
        writer.raw(" - ")
        writer.escaped(event.place ?? "")
        writer.raw(products ? #"","products":{}},"# : #""},"#)
        writer.raw(#""geometry":{"type":"Point","coordinates":["#)
        writer.number(event.longitude)
        writer.byte(UInt8(ascii: ","))
        writer.number(event.latitude)
        writer.byte(UInt8(ascii: ","))
        writer.number(writtenDepth(event))
        writer.raw(#"]},"id":"#)
        writer.string(event.id)
        writer.raw("}")
    }
}
