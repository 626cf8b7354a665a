import Foundation

/// Runs blocking work (SQLite reads, a libcurl transfer) on a thread of its own, outside Swift's
/// cooperative pool, which has one thread per core and must never wait on I/O.
///
/// A new thread rather than a dispatch queue: a download can block for minutes while the store
/// catches up, and the store's own queue must always find a thread to run on, which a saturated
/// global queue would not guarantee.
enum Blocking {
    static func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result(catching: work)) }.start()
        }
    }
}
