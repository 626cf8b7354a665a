import QuakesCore

/// A reader of a GeoJSON-file store: the whole file, read once, answered from memory by the
/// reference semantics (`InMemoryCatalogue`). One reading is one snapshot: a writer replaces the
/// file by a rename, so the file read is one version of it, whole.
final class GeoJSONReader: QuakeReading {
    /// The store without its events, which are in `catalogue`, in the file's order.
    private let file: GeoJSONStoreFile
    private let catalogue: InMemoryCatalogue
    private let path: String
    private let zone: DisplayZone

    /// A reader of the file at `path` as it is now, decoded again unless `cache` holds it.
    init(path: String, zone: DisplayZone, cache: GeoJSONReadCache = GeoJSONReadCache()) throws(StoreError) {
        let entry = try cache.store(at: path)
        self.file = entry.file
        self.path = path
        self.zone = zone
        catalogue = InMemoryCatalogue(entry.quakes)
    }

    /// A reader of `file`, as the store at `path` would hold it (an empty one, not written yet).
    init(path: String, file: GeoJSONStoreFile, zone: DisplayZone) {
        self.file = file
        self.path = path
        self.zone = zone
        catalogue = InMemoryCatalogue(Array(file.events.values))
    }

    func count(_ filter: QuakeFilter) throws -> Int {
        catalogue.count(filter)
    }

    func sectionCounts(_ key: SectionKey, _ filter: QuakeFilter, zone: DisplayZone) throws -> [SectionValue: Int] {
        catalogue.sectionCounts(key, filter, zone: zone)
    }

    func forEachQuake(
        _ filter: QuakeFilter, in rows: (key: SectionKey, rows: SectionKey.Rows)?, sort: SortSpec,
        origin: GeoPoint?, limit: Int?, _ body: (Quake) throws -> Bool
    ) throws {
        try catalogue.forEachQuake(filter, in: rows, zone: zone, sort: sort, origin: origin, limit: limit, body)
    }

    /// A scan: `show` asks once, and building a dictionary of every event would cost more.
    func storedQuake(id: String) throws -> Quake? {
        catalogue.quakes.first { $0.id == id }
    }

    func owner(of id: String) throws -> String? {
        file.owners[id]?.event
    }

    func allQuakes() throws -> [Quake] {
        catalogue.quakes.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
    }

    /// Never called by the commands, which refuse `history` first (`EngineCapabilities.keepsHistory`); said, in
    /// case another caller asks.
    func forEachTransaction(
        after token: Int64, author: String?, withChanges: Bool, ofEvents ids: Set<String>?,
        _ body: (HistoryTransaction) throws -> Bool
    ) throws {
        throw StoreError(path: path, "a GeoJSON-file store keeps no history of transactions")
    }

    func lastToken() throws -> Int64 {
        file.lastToken
    }

    func status() throws -> DatabaseStatus {
        let quakes = catalogue.quakes
        let newest = quakes.min { QuerySemantics.precedes($0, $1, sort: .time, origin: nil) }
        return DatabaseStatus(
            path: path, schemaVersion: Int32(GeoJSONStoreFile.schemaVersion), events: quakes.count,
            tombstones: file.owners.reduce(0) { $0 + ($1.value.isTombstone(of: $1.key) ? 1 : 0) },
            earliest: quakes.map(\.time).min(), latest: quakes.map(\.time).max(),
            newest: newest, lastToken: file.lastToken,
            sources: file.feeds.values.sorted { $0.url.utf8.lexicographicallyPrecedes($1.url.utf8) })
    }
}
