import QuakesCore

/// The GeoJSON-file engine: a database that is one GeoJSON file, read whole and answered from
/// memory, for catalogues that a web map or a GIS tool should open as they are. It keeps every
/// `--db` value that is a path ending in `.geojson` or `.json`.
public struct GeoJSONEngine: StorageEngine {
    /// The stores this process decoded, shared by every database the engine names.
    private let cache = GeoJSONReadCache()

    public init() {}

    package var description: EngineDescription { GeoJSONDatabase.engine }

    package func database(named value: String, in environment: Environment) -> (any DatabaseWriter)? {
        let lowercased = value.lowercased()
        guard lowercased.hasSuffix(".geojson") || lowercased.hasSuffix(".json"), !lowercased.contains("://")
        else { return nil }
        return GeoJSONDatabase(path: environment.absolutePath(value), cache: cache)
    }
}

/// A GeoJSON-file store, by its absolute path.
package struct GeoJSONDatabase: DatabaseWriter {
    package let path: String
    private let cache: GeoJSONReadCache

    /// The file keeps the last history token, for `watch` and `history --last-token`, but no
    /// transactions: a log that grows with every fetch has no place in a file that web maps load
    /// whole and that changes only when an event does. For that same reason it does not record
    /// when a source was last checked.
    static let engine = EngineDescription(
        values: "*.geojson, *.json",
        summary: "One GeoJSON file that web maps and GIS tools open as it is, for up to about 100,000 events; "
            + "it keeps no history of transactions.",
        kind: "a GeoJSON-file store", suggestion: "a GeoJSON file (--db quakes.geojson)",
        capabilities: [], limitation: "the file changes only when what it holds does")

    package var engine: EngineDescription { Self.engine }

    package init(path: String) {
        self.init(path: path, cache: GeoJSONReadCache())
    }

    init(path: String, cache: GeoJSONReadCache) {
        self.path = path
        self.cache = cache
    }

    package var name: String { path }

    package func read<Result>(zone: DisplayZone, _ body: (any QuakeReading) throws -> Result) throws -> Result {
        try body(try GeoJSONReader(path: path, zone: zone, cache: cache))
    }

    /// A store whose first write has not committed is not there yet: its writer reads it as the
    /// empty store it is.
    package func readAsWriter<Result>(zone: DisplayZone, _ body: (any QuakeReading) throws -> Result) throws
        -> Result
    {
        guard GeoJSONStoreFile.Version.of(path) == nil else { return try read(zone: zone, body) }
        return try body(GeoJSONReader(path: path, file: GeoJSONStoreFile(), zone: zone))
    }

    package func checkWritable() async throws {
        try await Blocking.run { [path] in
            if let (bytes, _) = try GeoJSONStoreFile.contents(of: path) {
                _ = try GeoJSONStoreFile.decodeMetadata(bytes, name: path)
            }
        }
    }

    package func lockWriter(waiting wait: Double) async throws -> any WriterLease {
        try await FileWriterLock.acquire(forDatabase: path, waiting: wait)
    }

    package func store() -> any QuakeWriting {
        GeoJSONStore(path: path)
    }
}
