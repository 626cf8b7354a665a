import Foundation
import Testing

@testable import QuakesCore

/// A real USGS feature (ci39448151, from all_day-2020-10-28), with `$PROPERTIES`, `$GEOMETRY`
/// and `$ID` standing for parts a test replaces.
private let template = """
    {"type":"Feature","properties":{"mag":0.86,"place":"10km NNE of Coso Junction, CA","time":1603924547880,\
    "updated":1603924762722,"tz":null,"url":"https://earthquake.usgs.gov/earthquakes/eventpage/ci39448151",\
    "detail":"https://earthquake.usgs.gov/earthquakes/feed/v1.0/detail/ci39448151.geojson","felt":null,"cdi":null,\
    "mmi":null,"alert":null,"status":"automatic","tsunami":0,"sig":11,"net":"ci","code":"39448151",\
    "ids":",ci39448151,","sources":",ci,","types":",nearby-cities,origin,phase-data,scitech-link,","nst":12,\
    "dmin":0.04535,"rms":0.19,"gap":105,"magType":"ml","type":"earthquake",\
    "title":"M 0.9 - 10km NNE of Coso Junction, CA"$PROPERTIES},\
    "geometry":{"type":"Point","coordinates":[-117.9093333,36.1281667,4.04]$GEOMETRY},"id":"ci39448151"$ID}
    """

private func feature(properties: String = "", geometry: String = "", id: String = "") -> String {
    template.replacingOccurrences(of: "$PROPERTIES", with: properties)
        .replacingOccurrences(of: "$GEOMETRY", with: geometry)
        .replacingOccurrences(of: "$ID", with: id)
}

private func decode(_ json: String) throws -> FeatureDecoder.Outcome {
    try Array(json.utf8).withUnsafeBytes { try FeatureDecoder.decode($0, origin: 0) }
}

private func quake(_ json: String) throws -> Quake {
    guard case let .quake(quake) = try decode(json) else {
        Issue.record("expected a quake from \(json)")
        throw CancellationError()
    }
    return quake
}

private func invalidReason(_ json: String) throws -> String? {
    if case let .invalid(reason, _) = try decode(json) { return reason }
    return nil
}

@Suite struct FeatureDecoderTests {
    @Test func decodesEveryFieldOfARealFeature() throws {
        let quake = try quake(feature())
        var expected = Quake(id: "ci39448151", time: 1_603_924_547_880, longitude: -117.9093333, latitude: 36.1281667)
        expected.updated = 1_603_924_762_722
        expected.magnitude = 0.86
        expected.magnitudeType = "ml"
        expected.place = "10km NNE of Coso Junction, CA"
        expected.depth = 4.04
        expected.eventType = "earthquake"
        expected.status = "automatic"
        expected.tsunami = 0
        expected.significance = 11
        expected.network = "ci"
        expected.code = "39448151"
        expected.ids = ",ci39448151,"
        expected.sources = ",ci,"
        expected.productTypes = ",nearby-cities,origin,phase-data,scitech-link,"
        expected.stationCount = 12
        expected.minimumDistance = 0.04535
        expected.rms = 0.19
        expected.azimuthalGap = 105
        expected.url = "https://earthquake.usgs.gov/earthquakes/eventpage/ci39448151"
        expected.detail = "https://earthquake.usgs.gov/earthquakes/feed/v1.0/detail/ci39448151.geojson"
        expected.title = "M 0.9 - 10km NNE of Coso Junction, CA"
        #expect(quake == expected)
    }

    @Test func keepsUnknownPropertiesAsJSONInExtra() throws {
        let quake = try quake(
            feature(properties: #","products":{ "origin" : [ {"id":"x","weight": 1.5 } ] },"note":"é\u00e9""#))
        #expect(quake.extra == #"{"products":{"origin":[{"id":"x","weight":1.5}]},"note":"é\u00e9"}"#)
    }

    @Test func acceptsAFeatureWithEveryOptionalFieldMissing() throws {
        let minimal =
            #"{"type":"Feature","properties":{"time":5},"geometry":{"type":"Point","coordinates":[1,2]},"id":"x"}"#
        #expect(try quake(minimal) == Quake(id: "x", time: 5, longitude: 1, latitude: 2))
    }

    @Test func nullDepthAndMagnitudeAreStoredAsNil() throws {
        let json = feature().replacingOccurrences(of: "\"mag\":0.86", with: "\"mag\":null")
            .replacingOccurrences(of: "4.04]", with: "null]")
        let quake = try quake(json)
        #expect(quake.magnitude == nil)
        #expect(quake.depth == nil)
    }

    @Test func keepsAMistypedKnownPropertyInExtraAndLeavesItsFieldNil() throws {
        let json = feature().replacingOccurrences(of: "\"mag\":0.86", with: "\"mag\":\"0.86\"")
            .replacingOccurrences(of: "\"sig\":11", with: "\"sig\":11.5")
            .replacingOccurrences(of: "\"place\":\"10km NNE of Coso Junction, CA\"", with: "\"place\":[1,2]")
        let quake = try quake(json)
        #expect(quake.magnitude == nil)
        #expect(quake.significance == nil)
        #expect(quake.place == nil)
        #expect(quake.extra == #"{"mag":"0.86","place":[1,2],"sig":11.5}"#)
    }

    @Test func wholeNumbersWrittenWithAFractionStillFillIntegerFields() throws {
        let json = feature().replacingOccurrences(of: "\"sig\":11", with: "\"sig\":11.0")
        #expect(try quake(json).significance == 11)
    }

    @Test(arguments: [
        (#"{"properties":{"time":1},"geometry":{"type":"Point","coordinates":[0,0]}}"#, "id is missing"),
        (#"{"id":"","properties":{"time":1},"geometry":{"type":"Point","coordinates":[0,0]}}"#, "id is empty"),
        (#"{"id":7,"properties":{"time":1},"geometry":{"type":"Point","coordinates":[0,0]}}"#, "id is not a string"),
        (#"{"id":null,"properties":{"time":1},"geometry":{"type":"Point","coordinates":[0,0]}}"#, "id is null"),
        (#"{"id":"x","geometry":{"type":"Point","coordinates":[0,0]}}"#, "properties is missing"),
        (#"{"id":"x","properties":null,"geometry":{"type":"Point","coordinates":[0,0]}}"#, "properties is null"),
        (#"{"id":"x","properties":{},"geometry":{"type":"Point","coordinates":[0,0]}}"#, "properties.time is missing"),
        (
            #"{"id":"x","properties":{"time":null},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
            "properties.time is null"
        ),
        (
            #"{"id":"x","properties":{"time":"1603924547880"},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
            "properties.time is not a number"
        ),
        (#"{"id":"x","properties":{"time":1.5},"geometry":{"type":"Point","coordinates":[0,0]}}"#, "whole number"),
        (#"{"id":"x","properties":{"time":1e400},"geometry":{"type":"Point","coordinates":[0,0]}}"#, "whole number"),
        (#"{"id":"x","properties":{"time":1}}"#, "geometry is missing"),
        (#"{"id":"x","properties":{"time":1},"geometry":null}"#, "geometry is null"),
        (
            #"{"id":"x","properties":{"time":1},"geometry":{"type":"LineString","coordinates":[0,0]}}"#,
            "geometry.type is 'LineString', not 'Point'"
        ),
        (#"{"id":"x","properties":{"time":1},"geometry":{"coordinates":[0,0]}}"#, "geometry.type is missing"),
        (#"{"id":"x","properties":{"time":1},"geometry":{"type":"Point"}}"#, "geometry.coordinates is missing"),
        (
            #"{"id":"x","properties":{"time":1},"geometry":{"type":"Point","coordinates":[0]}}"#,
            "has 1 of the 2 numbers"
        ),
        (#"{"id":"x","properties":{"time":1},"geometry":{"type":"Point","coordinates":"0,0"}}"#, "not an array"),
        (
            #"{"id":"x","properties":{"time":1},"geometry":{"type":"Point","coordinates":[180.5,0]}}"#,
            "outside [-180, 180]"
        ),
        (
            #"{"id":"x","properties":{"time":1},"geometry":{"type":"Point","coordinates":[0,-90.01]}}"#,
            "outside [-90, 90]"
        ),
        (
            #"{"id":"x","properties":{"time":1},"geometry":{"type":"Point","coordinates":[null,0]}}"#,
            "coordinates[0] is not a number"
        ),
        (
            #"{"id":"x","properties":{"time":1},"geometry":{"type":"Point","coordinates":[0,0,"deep"]}}"#,
            "coordinates[2] is not a number"
        ),
        (#"{"id":"x","properties":{"time":1},"geometry":{"type":"Point","coordinates":[0,1e400]}}"#, "too large"),
        (
            #"{"type":"Topology","id":"x","properties":{"time":1},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
            "type is 'Topology', not 'Feature'"
        ),
        (
            #"{"id":"x","id":"y","properties":{"time":1},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
            "duplicate key 'id'"
        ),
        (
            #"{"id":"x","properties":{"time":1,"mag":1,"mag":2},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
            "duplicate key 'properties.mag'"
        ),
        (
            #"{"id":"x","properties":{"time":1,"zz":1,"zz":2},"geometry":{"type":"Point","coordinates":[0,0]}}"#,
            "duplicate key 'properties.zz'"
        ),
        (#"[1,2]"#, "not a JSON object"),
        (#""a string""#, "not a JSON object"),
    ])
    func skipsUnusableFeaturesWithAReason(json: String, reason: String) throws {
        let found = try #require(try invalidReason(json))
        #expect(found.contains(reason), "\(found)")
    }

    @Test func namesTheIdOfAnInvalidFeature() throws {
        let outcome = try decode(#"{"id":"us123","properties":{},"geometry":{"type":"Point","coordinates":[0,0]}}"#)
        #expect(outcome == .invalid(reason: "properties.time is missing", id: "us123"))
    }

    @Test(arguments: [
        (#"{"id":"x","properties":{"time":1},"geometry":{"type":"Point","coordinates":[0,0]}"#, 81),
        (#"{"id":"x" "properties":{}}"#, 10),
        (#"{"id":"x","properties":{"time":01}}"#, 31),
        (#"{"id":"x","properties":{"mag":NaN}}"#, 30),
        (#"{"id":"x"} trailing"#, 11),
        (#"{"id":"x","properties":{"place":"a\u00"}}"#, 34),
    ])
    func failsTheDocumentOnTextThatIsNotJSON(json: String, offset: Int64) throws {
        let error = try #require(throws: JSONSyntaxError.self) { try decode(json) }
        #expect(error.offset == offset, "\(error)")
    }
}
