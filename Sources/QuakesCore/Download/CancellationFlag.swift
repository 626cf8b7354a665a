import Synchronization

/// Set from the cancelling task, read on the thread doing a transfer (libcurl's progress callback,
/// a read of standard input).
package final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    package init() {}

    package func cancel() { flag.store(true, ordering: .relaxed) }
    package var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
