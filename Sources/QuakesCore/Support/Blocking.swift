import Glibc

/// Runs blocking work (SQLite reads, a libcurl transfer) on a thread of its own, outside Swift's
/// cooperative pool, which has one thread per core and must never wait on I/O.
///
/// A new thread rather than a dispatch queue: a download can block for minutes while the store
/// catches up, and the store's own queue must always find a thread to run on, which a saturated
/// global queue would not guarantee. A bare POSIX thread rather than Foundation's `Thread`, whose
/// first use costs a set-up that `quakes count` would otherwise pay.
package enum Blocking {
    package static func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            start { continuation.resume(with: Swift.Result(catching: work)) }
        }
    }

    /// Starts `body` on a new detached thread.
    package static func start(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let started = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, context)
        // Without a thread the process cannot go on; this happens only when it has run out of them.
        precondition(started == 0, "cannot start a thread: \(String(cString: strerror(started)))")
    }

    private final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
