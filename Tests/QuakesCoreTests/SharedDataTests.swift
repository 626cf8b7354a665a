import Foundation
import Testing

@testable import QuakesCore

/// Where the data files are looked for: QUAKES_DATA_DIR alone when set, else beside the binary as a
/// build leaves them, then as `make install` lays them out; missing, they are a clear error.
@Suite struct SharedDataTests {
    @Test func theVariableAloneWhenSetElseTheBuildsFolderThenTheInstalledOne() {
        #expect(
            SharedData(variables: ["QUAKES_DATA_DIR": "/srv/data"], executable: "/x/bin/quakes").folders == [
                "/srv/data"
            ])
        #expect(
            SharedData(variables: ["QUAKES_DATA_DIR": ""], executable: "/opt/q/bin/quakes").folders == [
                "/opt/q/bin/quakes_QuakesData.resources", "/opt/q/share/quakes",
            ])
        #expect(SharedData(variables: [:], executable: nil).folders.isEmpty)
    }

    @Test func aMissingFileIsAnErrorThatSaysWhereItLooked() async throws {
        let empty = try TemporaryDirectory()
        let run = await QuakesRun.run(
            ["count", "--db", empty.file("q.sqlite"), "--near", "tokyo"], variables: ["QUAKES_DATA_DIR": empty.path])
        #expect(run.status == .osFile)
        #expect(
            run.standardError
                == "Error: The data file 'cities-110m.geojson' that quakes ships is missing: looked in \(empty.path). "
                + "Reinstall quakes, or set QUAKES_DATA_DIR to the folder that holds it\n")
    }

    @Test func onlyAPlaceNameReadsTheData() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        #expect(await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database).status == .success)
        let nowhere = ["QUAKES_DATA_DIR": folder.file("nowhere")]
        for arguments in [["count"], ["count", "--near", "35.7,139.7", "--radius", "100"]] {
            let run = await QuakesRun.run(arguments + ["--db", database], variables: nowhere)
            #expect(run.status == .success, "\(run.standardError)")
        }
    }

    /// The installed layout, through a copy of the binary: bin/quakes finds share/quakes.
    @Test func anInstalledBinaryFindsItsDataInShareQuakes() async throws {
        let prefix = try TemporaryDirectory()
        let manager = FileManager.default
        try manager.createDirectory(atPath: prefix.file("bin"), withIntermediateDirectories: true)
        try manager.createDirectory(atPath: prefix.file("share/quakes"), withIntermediateDirectories: true)
        try manager.copyItem(atPath: BinaryTests.executable.path, toPath: prefix.file("bin/quakes"))
        let database = prefix.file("q.sqlite")
        let arguments = ["count", "--db", database, "--near", "Tokyo", "--radius", "100"]
        let environment = ["PATH": "/usr/bin:/bin", "HOME": prefix.path]
        let missing = try await ChildProcess.run(prefix.file("bin/quakes"), arguments, environment: environment)
        #expect(missing.status == ExitStatus.osFile.code)
        #expect(
            missing.errors.contains(
                "looked in \(prefix.file("bin/quakes_QuakesData.resources")), \(prefix.file("share/quakes"))."))
        let built = BinaryTests.executable.deletingLastPathComponent().appendingPathComponent(
            "quakes_QuakesData.resources")
        for name in try manager.contentsOfDirectory(atPath: built.path) {
            try manager.copyItem(
                atPath: built.appendingPathComponent(name).path, toPath: prefix.file("share/quakes/" + name))
        }
        let found = try await ChildProcess.run(prefix.file("bin/quakes"), arguments, environment: environment)
        // No database yet: the place was found, and the database is what is missing.
        #expect(found.status == ExitStatus.noInput.code, "\(found.errors)")
    }
}
