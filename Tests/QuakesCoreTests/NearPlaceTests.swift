import Foundation
import Testing

@testable import QuakesCore

/// `--near PLACE`: a capital's or large city's name stands for its point, wherever `--near` is taken.
@Suite struct NearPlaceTests {
    private func query(_ arguments: [String]) async throws -> QuakesRun {
        let (path, _) = try await QueryUniverse.shared.database()
        return await QuakesRun.run(arguments + ["--db", path, "--now", QueryUniverse.now], variables: ["TZ": "UTC"])
    }

    @Test func aPlaceCountsAndMeasuresAsItsPoint() async throws {
        // Natural Earth's Tokyo is 35.687,139.749.
        let byName = try await query(["count", "--near", "tokyo", "--radius", "1000"])
        let byPoint = try await query(["count", "--near", "35.687,139.749", "--radius", "1000"])
        #expect(byName.status == .success, "\(byName.standardError)")
        #expect(byName.standardOutput == byPoint.standardOutput)
        #expect(Int(byName.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 0)
        let list = ["list", "--sort", "distance", "--limit", "5", "--format", "ndjson"]
        let listedByName = try await query(list + ["--near", "Tokyo"])
        #expect(listedByName.standardOutput.contains("\"distanceKm\":"))
        #expect(listedByName.standardOutput == (try await query(list + ["--near", "35.687,139.749"])).standardOutput)
    }

    @Test(arguments: ["sao paulo", "SÃO PAULO", "São Paulo", "  são   paulo "])
    func caseAccentsAndSpacesAreIgnored(name: String) async throws {
        let list = ["list", "--sort", "distance", "--limit", "3", "--format", "csv"]
        let byName = try await query(list + ["--near", name])
        #expect(byName.status == .success, "\(byName.standardError)")
        #expect(byName.standardOutput == (try await query(list + ["--near", "-23.557,-46.627"])).standardOutput)
    }

    @Test func aNameWithACommaIsStillAName() async throws {
        let byName = try await query(["count", "--near", "washington, d.c.", "--radius", "2000"])
        #expect(byName.status == .success, "\(byName.standardError)")
        #expect(
            byName.standardOutput
                == (try await query(["count", "--near", "38.901,-77.011", "--radius", "2000"])).standardOutput)
    }

    @Test func anUnknownNameIsAUsageErrorListingTheClosest() async throws {
        let run = try await query(["count", "--near", "tokio", "--radius", "100"])
        #expect(run.status == .usage)
        #expect(
            run.standardError.hasPrefix(
                "Error: The place 'tokio' given to '--near' is not among the 243 capitals and large cities quakes knows; the closest names: Tokyo; give LAT,LON for anywhere else\n"
            ), "\(run.standardError)")
        #expect(run.standardError.contains("\nUsage: quakes count"))
        let far = try await query(["count", "--near", "san"])
        #expect(
            far.standardError.contains("; the closest names: San Marino, San José, San Salvador, Sanaa, Santo Domingo;")
        )
    }

    /// What looks like numbers stays the LAT,LON it was, with the error scripts know.
    @Test(arguments: ["91,0", "nan,0", "35.7", "1e3,5"])
    func numbersKeepTheirError(value: String) async throws {
        let run = try await query(["list", "--near", value])
        #expect(run.status == .usage)
        #expect(
            run.standardError.hasPrefix(
                "Error: The value '\(value)' is invalid for '--near <lat,lon>': expected LAT,LON with latitude in [-90, 90]"
            ), "\(run.standardError)")
    }

    @Test func sortingByDistanceAndTheServicesCircleTakeAPlace() throws {
        let list = try ListCommand(ParsedArguments(["--near", "tokyo", "--sort", "distance"], for: ListCommand.help))
        #expect(list.sort.needsOrigin)
        let parsed = try ParsedArguments(
            ["--since", "2021-01-01", "--near", "Tokyo", "--radius", "100"], for: BackfillCommand.help)
        let environment = Environment(
            currentDirectory: "/", standardOutput: CapturedOutput(), standardError: CapturedOutput())
        let options = try BackfillCommand(parsed).options.resolvingPlace(in: environment)
        #expect(options.hasFilter)
        let parameters = options.filter.parameters.map { "\($0.name)=\($0.value)" }
        #expect(parameters == ["latitude=35.687", "longitude=139.749", "maxradiuskm=100"])
        #expect(throws: UsageError.self) {
            _ = try BackfillCommand(
                ParsedArguments(["--since", "2021-01-01", "--near", "Tokyo"], for: BackfillCommand.help))
        }
    }

    @Test func aNameSeveralPlacesShareIsAmbiguous() throws {
        // Natural Earth's 243 names are all distinct, folded; a list with a shared name:
        let springfields = PopulatedPlaces(places: [
            .init(name: "Springfield", point: GeoPoint(latitude: 39.8, longitude: -89.65)),
            .init(name: "Springfield", point: GeoPoint(latitude: 37.2, longitude: -93.3)),
            .init(name: "Spring Hill", point: GeoPoint(latitude: 35.75, longitude: -86.93)),
        ])
        #expect(
            throws: UsageError(
                "The place 'SPRINGFIELD' given to '--near' is ambiguous: Springfield (39.8,-89.65), Springfield (37.2,-93.3); give LAT,LON instead"
            )
        ) {
            _ = try springfields.place(named: "SPRINGFIELD")
        }
        #expect(try springfields.place(named: "spring hill").point == GeoPoint(latitude: 35.75, longitude: -86.93))
    }

    @Test func theShippedNamesAreDistinct() throws {
        let places = try PopulatedPlaces.load(from: SharedData(variables: [:])).places
        #expect(places.count == 243)
        #expect(Set(places.map { PopulatedPlaces.key($0.name) }).count == 243)
    }
}
