import Synchronization

/// Set from the cancelling task, read on the thread doing a transfer (libcurl's progress callback,
/// a read of standard input).
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func cancel() { flag.store(true, ordering: .relaxed) }
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
}
