import Foundation
import LocalHTTPServer
import Testing

/// The FDSN emulator over real HTTP: ComCat's cap, its silent cut, its inclusive whole-second
/// times, deleted and merged events, and its refusals, as a client of backfill and sync meets them.
@Suite struct FDSNEmulatorTests {
    /// 2024-01-02T03:00:00Z, in milliseconds.
    private static let three: Int64 = 1_704_164_400_000
    /// The emulator's clock: a month after `three`, so that the default start takes in nothing older.
    private static let now: Int64 = three + 30 * 86_400_000

    private static func event(
        _ id: String, _ time: Int64, mag: Double? = 3, updated: Int64? = nil, status: String = "reviewed",
        ids: [String]? = nil
    ) -> FDSNEmulator.Event {
        FDSNEmulator.Event(
            id: id, ids: ids, time: time, updated: updated ?? time + 60_000, mag: mag, magType: "ml",
            place: "10 km N of \"Quoted\", CA", longitude: -117.5, latitude: 35.5, depth: 8.25, status: status)
    }

    private static func emulator(_ events: [FDSNEmulator.Event], cap: Int = 20_000) throws -> (
        LocalHTTPServer, FDSNEmulator
    ) {
        let server = try LocalHTTPServer()
        let emulator = FDSNEmulator(server: server, cap: cap, now: { now })
        emulator.replace(events)
        return (server, emulator)
    }

    // MARK: - The cap

    @Test func aQueryOverTheCapWithoutLimitIsRefusedWithTheCountAndOneWithLimitIsSilentlyCut() throws {
        let events = (0..<150).map { Self.event("ci\($0)", Self.three + Int64($0) * 1000) }
        let (server, emulator) = try Self.emulator(events, cap: 100)
        let window = "starttime=2024-01-02T03:00:00&endtime=2024-01-02T04:00:00"

        let refused = try HTTP.get(server, "/fdsnws/event/1/query?format=geojson&\(window)")
        #expect(refused.status == 400)
        #expect(refused.headers["content-type"] == "text/plain")
        #expect(refused.text.hasPrefix("Error 400: Bad Request\n\n150 matching events exceeds search limit of 100."))
        #expect(refused.text.contains("Request:\n/fdsnws/event/1/query?format=geojson&\(window)\n"))
        #expect(refused.text.hasSuffix("Service version:\n1.14.1"))

        let cut = try HTTP.get(server, "/fdsnws/event/1/query?format=geojson&\(window)&limit=100&orderby=time-asc")
        #expect(cut.status == 200)
        #expect(cut.headers["content-type"] == "application/json")
        let collection = try cut.object()
        let metadata = try #require(collection["metadata"] as? [String: Any])
        #expect(metadata["count"] as? Int == 100)
        #expect(metadata["limit"] as? Int == 100)
        #expect(metadata["offset"] as? Int == 1)
        #expect(try cut.ids() == (0..<100).map { "ci\($0)" })

        #expect(try HTTP.get(server, "/fdsnws/event/1/query?\(window)&limit=101").text.contains("Bad limit value"))
        #expect(try HTTP.get(server, "/fdsnws/event/1/count?\(window)").text == "150")
        #expect(try HTTP.get(server, "/fdsnws/event/1/count?\(window)&limit=40").text == "40")
        let count = try HTTP.get(server, "/fdsnws/event/1/count?\(window)&format=geojson&limit=100")
        #expect(count.text == #"{"count":100,"maxAllowed":100}"#)
        #expect(emulator.requests.query == 2 && emulator.requests.count == 3 && emulator.requests.invalid == 1)
        #expect(server.received.count == 6)
    }

    @Test func theDefaultCapRefusesTwentyThousandAndOne() throws {
        let events = FDSNEmulator.catalogue(
            count: 20_001, from: Self.three, to: Self.three + 86_400_000, seed: 7, boundaryEvents: false
        ).map { event -> FDSNEmulator.Event in
            var event = event
            event.status = "reviewed"
            return event
        }
        let (server, _) = try Self.emulator(events)
        let window = "starttime=2024-01-02T03:00:00&endtime=2024-01-03T03:00:00"
        let refused = try HTTP.get(server, "/fdsnws/event/1/query?format=geojson&\(window)")
        #expect(refused.text.contains("20001 matching events exceeds search limit of 20000."))
        let cut = try HTTP.get(server, "/fdsnws/event/1/query?format=geojson&\(window)&limit=20000")
        #expect(try cut.ids().count == 20_000)
        #expect(try HTTP.get(server, "/fdsnws/event/1/count?\(window)").text == "20001")
    }

    // MARK: - Times

    @Test func windowEndsAreInclusiveWholeSecondsWithFractionsDropped() throws {
        let hour: Int64 = 3_600_000
        let (server, _) = try Self.emulator([
            Self.event("ci1", Self.three - 1),
            Self.event("ci2", Self.three),
            Self.event("ci3", Self.three + 500),
            Self.event("ci4", Self.three + hour),
            Self.event("ci5", Self.three + hour + 1),
        ])
        let answer = try HTTP.get(
            server,
            "/fdsnws/event/1/query?format=geojson&starttime=2024-01-02T03:00:00.900"
                + "&endtime=2024-01-02T04:00:00.999Z&orderby=time-asc")
        #expect(try answer.ids() == ["ci2", "ci3", "ci4"])
        let next = try HTTP.get(
            server, "/fdsnws/event/1/query?format=geojson&starttime=2024-01-02T04:00:00&endtime=2024-01-02T05:00:00")
        #expect(try next.ids() == ["ci5", "ci4"])  // The boundary second belongs to both windows.
    }

    @Test func updatedAfterIsInclusive() throws {
        let (server, _) = try Self.emulator([
            Self.event("ci1", Self.three, updated: Self.three + 9_999),
            Self.event("ci2", Self.three + 1, updated: Self.three + 10_000),
            Self.event("ci3", Self.three + 2, updated: Self.three + 10_001),
        ])
        let answer = try HTTP.get(
            server,
            "/fdsnws/event/1/query?format=geojson&starttime=2024-01-02&updatedafter=2024-01-02T03:00:10.5"
                + "&orderby=time-asc")
        #expect(try answer.ids() == ["ci2", "ci3"])
    }

    @Test func withoutStartTimeOnlyTheLastThirtyDaysAreSearched() throws {
        let (server, _) = try Self.emulator([
            Self.event("ci1", Self.now - 30 * 86_400_000 - 1000),
            Self.event("ci2", Self.now - 30 * 86_400_000),
        ])
        #expect(try HTTP.get(server, "/fdsnws/event/1/query?format=geojson").ids() == ["ci2"])
    }

    // MARK: - Deleted and merged events

    @Test func deletedEventsAppearOnlyWhenAskedForAndWithoutValues() throws {
        let (server, _) = try Self.emulator([
            Self.event("ci1", Self.three),
            Self.event("ci2", Self.three + 1, mag: 4.5, status: "deleted"),
        ])
        let base = "/fdsnws/event/1/query?format=geojson&starttime=2024-01-02&orderby=time-asc"
        #expect(try HTTP.get(server, base).ids() == ["ci1"])
        let all = try HTTP.get(server, base + "&includedeleted=true")
        #expect(try all.ids() == ["ci1", "ci2"])
        let only = try HTTP.get(server, base + "&includedeleted=only")
        #expect(try only.ids() == ["ci2"])
        let feature = try #require((try only.object()["features"] as? [[String: Any]])?.first)
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect(properties["status"] as? String == "deleted")
        #expect(properties["time"] is NSNull && properties["mag"] is NSNull)
        let geometry = try #require(feature["geometry"] as? [String: Any])
        #expect((geometry["coordinates"] as? [Any])?.last is NSNull)

        let text = try HTTP.get(server, "/fdsnws/event/1/count?starttime=2024-01-02&includedeleted=true")
        #expect(text.status == 400)
        #expect(text.text.contains("includedeleted"))
        let count = try HTTP.get(
            server, "/fdsnws/event/1/count?starttime=2024-01-02&includedeleted=only&format=geojson")
        #expect(count.text == #"{"count":1,"maxAllowed":20000}"#)
    }

    @Test func eventidFindsAnEventByAnyOfItsIdsAndRefusesDeletedAndUnknownOnes() throws {
        let (server, emulator) = try Self.emulator([
            Self.event("ci1", Self.three, ids: ["ci1", "us7000aaaa"]),
            Self.event("ci2", Self.three + 1, status: "deleted"),
        ])
        let merged = try HTTP.get(server, "/fdsnws/event/1/query?eventid=us7000aaaa&format=geojson")
        #expect(merged.status == 200)
        let feature = try merged.object()
        #expect(feature["type"] as? String == "Feature")
        #expect(feature["id"] as? String == "ci1")
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect(properties["ids"] as? String == ",ci1,us7000aaaa,")
        #expect((properties["products"] as? [String: Any])?.isEmpty == true)
        #expect(properties["place"] as? String == #"10 km N of "Quoted", CA"#)

        let deleted = try HTTP.get(server, "/fdsnws/event/1/query?eventid=ci2&format=geojson")
        #expect(deleted.status == 409)
        #expect(deleted.text.hasPrefix("Error 409: Conflict\n\nThe requested event has been deleted."))
        let shown = try HTTP.get(server, "/fdsnws/event/1/query?eventid=ci2&format=geojson&includedeleted=true")
        #expect(shown.status == 200)
        #expect((try shown.object()["properties"] as? [String: Any])?["status"] as? String == "deleted")

        #expect(try HTTP.get(server, "/fdsnws/event/1/query?eventid=ci9&format=geojson").status == 404)
        #expect(try HTTP.get(server, "/fdsnws/event/1/query?eventid=ci9&nodata=204").status == 204)
        #expect(emulator.requests.eventid == 5)
    }

    // MARK: - Order, pages and refusals

    @Test func orderbyAndOffsetPageThroughTheOrdering() throws {
        let (server, _) = try Self.emulator([
            Self.event("ci1", Self.three, mag: 3.1),
            Self.event("ci2", Self.three + 1, mag: 5.2),
            Self.event("ci3", Self.three + 2, mag: 2.7),
            Self.event("ci4", Self.three + 2, mag: 5.2),
        ])
        let base = "/fdsnws/event/1/query?format=geojson&starttime=2024-01-02"
        #expect(try HTTP.get(server, base).ids() == ["ci3", "ci4", "ci2", "ci1"])
        #expect(try HTTP.get(server, base + "&orderby=time-asc").ids() == ["ci1", "ci2", "ci3", "ci4"])
        #expect(try HTTP.get(server, base + "&orderby=magnitude").ids() == ["ci2", "ci4", "ci1", "ci3"])
        #expect(try HTTP.get(server, base + "&orderby=magnitude-asc").ids() == ["ci3", "ci1", "ci2", "ci4"])
        #expect(try HTTP.get(server, base + "&orderby=time-asc&limit=2&offset=2").ids() == ["ci2", "ci3"])
        #expect(try HTTP.get(server, base + "&orderby=time-asc&offset=3").ids().count == 4)  // No limit, no offset.
        #expect(try HTTP.get(server, base + "&minmagnitude=5.2&maxmagnitude=5.2").ids() == ["ci4", "ci2"])
    }

    @Test func placeDepthAndTypeFiltersAreInclusive() throws {
        var north = Self.event("ci2", Self.three + 1)
        north.latitude = 36.5
        north.depth = 600
        north.type = "quarry blast"
        let (server, _) = try Self.emulator([Self.event("ci1", Self.three), north])
        let base = "/fdsnws/event/1/query?format=geojson&starttime=2024-01-02&orderby=time-asc"
        // One degree of latitude is 111.195 km on ComCat's sphere.
        let circle = base + "&latitude=35.5&longitude=-117.5&maxradiuskm="
        #expect(try HTTP.get(server, circle + "111.2").ids() == ["ci1", "ci2"])
        #expect(try HTTP.get(server, circle + "111.19").ids() == ["ci1"])
        #expect(try HTTP.get(server, base + "&minlatitude=36.5&maxlongitude=-117.5").ids() == ["ci2"])
        #expect(try HTTP.get(server, base + "&eventtype=quarry%20blast,explosion").ids() == ["ci2"])
        #expect(try HTTP.get(server, base + "&mindepth=8.25&maxdepth=8.25").ids() == ["ci1"])
        #expect(try HTTP.get(server, base + "&catalog=ci&contributor=us").ids().isEmpty)
    }

    @Test func anUnknownParameterIsRefused() throws {
        let (server, emulator) = try Self.emulator([])
        let answer = try HTTP.get(server, "/fdsnws/event/1/query?format=geojson&minmag=3")
        #expect(answer.status == 400)
        #expect(answer.text.hasPrefix("Error 400: Bad Request\n\nUnknown parameter \"minmag\".\n"))
        #expect(emulator.requests.invalid == 1 && emulator.requests.query == 0)
    }

    @Test func throttledRequestsGet429WithRetryAfterAndThenTheAnswer() throws {
        let (server, emulator) = try Self.emulator([Self.event("ci1", Self.three)])
        emulator.throttle(next: 2, retryAfter: "7")
        emulator.fail(next: 1)
        let path = "/fdsnws/event/1/query?format=geojson&starttime=2024-01-02"
        let first = try HTTP.get(server, path)
        #expect(first.status == 429)
        #expect(first.headers["retry-after"] == "7")
        #expect(try HTTP.get(server, path).status == 429)
        let unavailable = try HTTP.get(server, path)
        #expect(unavailable.status == 503 && unavailable.headers["retry-after"] == nil)
        #expect(try HTTP.get(server, path).ids() == ["ci1"])
        #expect(emulator.requests.refused == 3 && emulator.requests.query == 1)
    }

    @Test func anExactRouteStillWinsOverTheHandlerOfItsPath() throws {
        let (server, _) = try Self.emulator([])
        server.route("/fdsnws/event/1/query?fixed=1", .respond(status: 200, body: Array("fixed".utf8)))
        #expect(try HTTP.get(server, "/fdsnws/event/1/query?fixed=1").text == "fixed")
        #expect(try HTTP.get(server, "/fdsnws/event/1/version").text == "1.14.1")
    }

    // MARK: - The generator and the GeoJSON

    @Test func theGeneratedCatalogueIsDeterministicWithBurstsAndBoundarySeconds() throws {
        let burst = (at: Self.three + 3_600_000, events: 3000, spanMilliseconds: Int64(20 * 60_000))
        let make = {
            FDSNEmulator.catalogue(count: 5000, from: Self.three, to: Self.now, seed: 42, bursts: [burst])
        }
        let events = make()
        #expect(events == make())
        #expect(events.count == 8000)
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
        let ids = events.flatMap(\.ids)
        #expect(Set(ids).count == ids.count)
        #expect(events.contains { $0.ids.count == 3 })
        #expect(events.contains { $0.time % 3_600_000 == 0 })
        #expect(events.filter { $0.time % 1000 == 0 }.count > 100)
        let inBurst = events.filter { $0.time >= burst.at && $0.time < burst.at + burst.spanMilliseconds }
        #expect(inBurst.count >= 3000)
        #expect(events.allSatisfy { ($0.mag ?? 0) >= 2.5 && ($0.mag ?? 0) <= 7 })
    }

    @Test func theGeoJSONReadsBackToTheCatalogue() throws {
        let events = FDSNEmulator.catalogue(count: 2000, from: Self.three, to: Self.now, seed: 3)
        let (server, _) = try Self.emulator(events)
        let answer = try HTTP.get(
            server, "/fdsnws/event/1/query?format=geojson&starttime=2024-01-01&orderby=time-asc&includedeleted=true")
        let collection = try answer.object()
        #expect(Set(collection.keys) == ["type", "metadata", "features", "bbox"])
        let features = try #require(collection["features"] as? [[String: Any]])
        #expect(features.count == events.count)
        for (feature, event) in zip(features, events) where !event.isDeleted {
            let properties = try #require(feature["properties"] as? [String: Any])
            let coordinates = try #require((feature["geometry"] as? [String: Any])?["coordinates"] as? [NSNumber])
            #expect(feature["id"] as? String == event.id)
            #expect(properties.count == 26)
            #expect((properties["time"] as? NSNumber)?.int64Value == event.time)
            #expect((properties["mag"] as? NSNumber)?.doubleValue == event.mag)
            #expect(properties["place"] as? String == event.place)
            #expect(coordinates.map(\.doubleValue) == [event.longitude, event.latitude, try #require(event.depth)])
        }
    }
}

/// A blocking HTTP/1.0-style client for the emulator: one request per connection, read until the
/// server closes, any status kept (curl would turn 4xx into errors and hide the body).
private struct HTTP {
    var status: Int
    /// Names in lower case.
    var headers: [String: String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func object() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    }

    /// The ids of a collection's features, in order.
    func ids() throws -> [String] {
        let features = try #require(try object()["features"] as? [[String: Any]], "\(status) \(text.prefix(300))")
        return features.compactMap { $0["id"] as? String }
    }

    static func get(_ server: LocalHTTPServer, _ path: String) throws -> HTTP {
        let connection = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard connection >= 0 else { throw POSIXError(.EIO) }
        defer { close(connection) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = server.port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(connection, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(connection, $0.baseAddress, $0.count, 0) }) == request.count else {
            throw POSIXError(.EIO)
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            response += buffer[..<count]
        }
        let separator = Array("\r\n\r\n".utf8)
        guard let end = response.indices.first(where: { response[$0...].starts(with: separator) }) else {
            throw POSIXError(.EBADMSG)
        }
        let lines = String(decoding: response[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusWords = lines[0].split(separator: " ")
        guard statusWords.count >= 2, let status = Int(statusWords[1]) else { throw POSIXError(.EBADMSG) }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return HTTP(status: status, headers: headers, body: Array(response[(end + 4)...]))
    }
}
