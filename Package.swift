// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "quakes",
    products: [
        .executable(name: "quakes", targets: ["quakes"])
    ],
    targets: [
        // C libraries from Debian's -dev packages, seen through a commented shim header each.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Our thin SQLite wrapper: no C pointer escapes it.
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        // The tool: model, feed decoding, download, store, queries and commands.
        .target(name: "QuakesCore", dependencies: ["SQLite", "CCurl"]),
        // A few lines that hand the process to QuakesCore.
        .executableTarget(name: "quakes", dependencies: ["QuakesCore"]),
        // A server on 127.0.0.1 for tests and benchmarks: nothing of them touches the network.
        .target(name: "LocalHTTPServer"),
        // The benchmark suite behind `make bench`: a feed generator, the cases, BENCHMARKS.md.
        .executableTarget(name: "quakes-bench", dependencies: ["QuakesCore", "LocalHTTPServer"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"]),
        .testTarget(name: "QuakesCoreTests", dependencies: ["QuakesCore", "SQLite", "LocalHTTPServer"]),
    ],
    swiftLanguageModes: [.v6]
)
