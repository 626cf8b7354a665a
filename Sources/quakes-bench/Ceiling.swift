import Foundation
import QuakesCore
import SQLiteEngine

/// What SQLite allows: rows already in memory, inserted by the store code alone, in batches of the
/// size the pipeline hands it (a 256 KB chunk holds about 360 features), in one ingest with its history, as `quakes fetch` does.
enum Ceiling {
    /// Reads every quake of `source` into memory, then times their ingest into a new `target`.
    static func seconds(inserting source: String, into target: String) async throws -> Double {
        let quakes = try await SQLiteDatabase(path: source).allQuakes()
        let batches = stride(from: 0, to: quakes.count, by: 360).map {
            Array(quakes[$0..<min($0 + 360, quakes.count)])
        }
        let store = SQLiteDatabase(path: target).store()
        try await store.open()
        let started = DispatchTime.now().uptimeNanoseconds
        let ticket = try await store.beginIngest(author: "bench", source: nil)
        for batch in batches { _ = try await store.ingest(batch, for: ticket) }
        _ = try await store.commit(ticket, timestamp: 0, feedState: nil)
        return Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    }
}
