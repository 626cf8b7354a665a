import Testing

@testable import QuakesCore

/// What a new version of an event changed, field by field: read from two real versions of the same
/// event in the two weekly fixtures.
@Suite struct FieldChangeTests {
    @Test func theWeeklyFixturesRevisionsChangeWhatTheFilesSay() throws {
        let before = try Dictionary(
            DecodedDocument(Fixtures.bytes(Fixtures.weekBefore)).quakes.map { ($0.id, $0) }
        ) { first, _ in first }
        let after = try DecodedDocument(Fixtures.bytes(Fixtures.weekAfter)).quakes
        var changed = 0
        for new in after {
            guard let old = before[new.id], old.updated != new.updated else { continue }
            let changes = FieldChange.between(old, new)
            // Each change is a field whose values differ, and every field that differs is one.
            for field in FieldChange.fields {
                let differs = field.value(of: old) != field.value(of: new)
                #expect(differs == changes.contains { $0.field == field }, "\(new.id) \(field.name)")
            }
            #expect(!changes.contains { $0.field == .updated || $0.field == .feedGenerated })
            changed += changes.isEmpty ? 0 : 1
        }
        #expect(changed > 100, "\(changed) revised events")
    }

    @Test func aChangeReadsAsJSONAndAsText() {
        var old = Quake(id: "us6000exs5", time: 1_626_902_112_894, longitude: -82.7894, latitude: 7.4162)
        old.magnitude = 5.7
        old.magnitudeType = "mww"
        old.place = "68 km S of Punta de Burica, Panama"
        var new = old
        new.magnitude = 5.4
        new.magnitudeType = "mb"
        new.place = nil
        let changes = FieldChange.between(old, new)
        #expect(changes.map(\.field) == [.magnitude, .place, .magnitudeType])
        #expect(
            JSONValue.object(changes.map(\.json)).serialized()
                == #"{"mag":[5.7,5.4],"place":["68 km S of Punta de Burica, Panama",null],"magType":["mww","mb"]}"#)
        #expect(
            changes.map(\.text) == [
                "mag 5.7→5.4", #"place "68 km S of Punta de Burica, Panama"→null"#, #"magType "mww"→"mb""#,
            ])
    }
}
