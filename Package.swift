// swift-tools-version:6.0
import PackageDescription

// The modules of the `quakes` executable import no Foundation at all: Foundation's whole module
// (with CoreFoundation, and ICU for time zones), or even FoundationEssentials alone, makes the
// executable much larger, and every command then pays at start-up for the page faults of
// relocating its data.
// Time zones come from the system's database (ZoneRules.swift); the tests, the benchmarks and the
// test server may import Foundation.

let package = Package(
    name: "quakes",
    products: [
        .executable(name: "quakes", targets: ["quakes"])
    ],
    targets: [
        // The dlopen loader of the C shims below, so that a command loads only the libraries it uses
        // (see Sources/CLoader/include/cloader.h).
        .target(name: "CLoader"),
        // libcurl, opened with dlopen on first use (see Sources/CCurl/include/ccurl.h), with
        // typed wrappers of its variadic functions.
        .target(name: "CCurl", dependencies: ["CLoader"]),
        // zlib's gzip decoder, opened with dlopen on first use, for gzipped files and standard input.
        .target(name: "CZlib", dependencies: ["CLoader"]),
        // SQLite, opened with dlopen on first use (see Sources/CSQLite/include/csqlite.h), so that
        // commands that open no SQLite database never load it; headers from Debian's libsqlite3-dev.
        .target(name: "CSQLite", dependencies: ["CLoader"]),
        // Our thin SQLite wrapper: no C pointer escapes it.
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        // libpq, opened with dlopen on first use (see Sources/CLibPQ/include/clibpq.h), so that
        // commands on SQLite never load it; headers from Debian's libpq-dev.
        .target(name: "CLibPQ", dependencies: ["CLoader"]),
        // cairo, opened with dlopen on first use (see Sources/CCairo/include/ccairo.h), so that only
        // a PNG or PDF picture loads it; headers from Debian's libcairo2-dev.
        .target(name: "CCairo", dependencies: ["CLoader"]),
        // The growable bytes that JSON listings, the SQLite reader's batches, PostgreSQL's COPY and
        // the FDSN emulator's answers are written into (see ByteBuffer.swift).
        .target(name: "Bytes"),
        // Our thin PostgreSQL wrapper, for a PostgreSQL store: no C pointer escapes it.
        .target(name: "PostgreSQL", dependencies: ["CLibPQ", "Bytes"]),
        // A lock over pthread_mutex_t that ThreadSanitizer understands (see Locked.swift).
        .target(name: "Locking"),
        // The data files installed beside the binary (see SharedData.swift): the packed country
        // outlines and the populated places, from Natural Earth. The GeoJSON the outlines are
        // packed from stays in the repository only. A C target, so that they are copied without
        // the Foundation-based accessor SwiftPM gives a Swift target (see quakes_data.h).
        .target(
            name: "QuakesData", exclude: ["countries-110m.geojson"],
            resources: [.copy("countries-110m.outlines"), .copy("cities-110m.geojson"), .copy("README.md")]),
        // The tool: model, feed decoding, download, ingest with the identity rules, queries as
        // values, output and commands, and the storage seam that every engine plugs into.
        .target(name: "QuakesCore", dependencies: ["CCurl", "CZlib", "Locking", "QuakesData", "Bytes"]),
        // The pictures: drawing (SVG, and PNG and PDF through cairo), the chart, the map and its
        // geography, and the chart and map commands, above the core, which names none of them.
        .target(name: "QuakesPictures", dependencies: ["QuakesCore", "CCairo"]),
        // The storage engines, each behind the seam of QuakesCore/Storage; the core names none.
        .target(name: "SQLiteEngine", dependencies: ["QuakesCore", "SQLite", "Bytes"]),
        .target(name: "PostgresEngine", dependencies: ["QuakesCore", "PostgreSQL", "Locking"]),
        // A GeoJSON file as the store, read whole and answered from memory by the reference semantics.
        .target(name: "GeoJSONEngine", dependencies: ["QuakesCore", "Locking"]),
        // The one list of the tool's parts, its commands and its storage engines, for the executable
        // and the tests: adding an engine is its module, its target here, and one line there.
        .target(
            name: "Registry",
            dependencies: ["QuakesCore", "QuakesPictures", "SQLiteEngine", "PostgresEngine", "GeoJSONEngine"]),
        // A few lines that hand the process, with the registry's parts, to QuakesCore.
        .executableTarget(name: "quakes", dependencies: ["QuakesCore", "Registry"]),
        // A server on 127.0.0.1 for tests and benchmarks: nothing of them touches the network.
        .target(name: "LocalHTTPServer", dependencies: ["Bytes", "Locking"]),
        // The benchmark suite behind `make bench`: a feed generator, the cases, BENCHMARKS.md.
        .executableTarget(
            name: "quakes-bench",
            dependencies: [
                "QuakesCore", "QuakesPictures", "SQLiteEngine", "PostgresEngine", "GeoJSONEngine", "SQLite",
                "PostgreSQL",
                "LocalHTTPServer", "Locking", "quakes-measure", "quakes-floor",
            ]),
        // The feed decoder under libFuzzer (`make fuzz`), or a replayer of saved inputs when built normally.
        .executableTarget(name: "quakes-fuzz", dependencies: ["QuakesCore"]),
        // Runs one benchmarked command and reports its time and its own peak memory; in C, to be small.
        .executableTarget(name: "quakes-measure"),
        // The floors of `make bench`: SQLite alone writing a fetch's rows, and reading the export's;
        // in C, to be small. Built beside quakes-bench, which runs it.
        .executableTarget(name: "quakes-floor", linkerSettings: [.linkedLibrary("sqlite3")]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"]),
        // Against a real server: QUAKES_TEST_POSTGRES, which `make test` and scripts/with-postgres set.
        .testTarget(name: "PostgreSQLTests", dependencies: ["PostgreSQL"]),
        .testTarget(
            name: "QuakesCoreTests",
            dependencies: [
                "QuakesCore", "QuakesPictures", "SQLiteEngine", "PostgresEngine", "GeoJSONEngine", "Registry", "SQLite",
                "PostgreSQL", "LocalHTTPServer", "CCairo",
            ],
            // The pictures the map's tests compare with; read from the source tree, not bundled.
            exclude: ["Goldens"]),
    ],
    swiftLanguageModes: [.v6]
)

// A file sees the members of only the modules it imports itself (SE-0444): a Foundation method used
// in a module of the executable is then a compile error there, rather than Foundation's whole
// module linked back in because some module of the build imports it (see the note at the top).
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
