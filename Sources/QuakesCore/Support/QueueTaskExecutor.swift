import Dispatch

/// A task executor that runs the tasks preferring it on a dispatch queue, off Swift's cooperative
/// pool: one of its own, or one that takes turns with an actor's (`QueueExecutor.companion`).
///
/// For a task that mostly hands work on and must do so at once: on the pool it would wait behind
/// the long jobs it hands out, which hold every thread of it (on two cores, a fetch's decoders).
///
/// Not `QueueExecutor` in a second role: that one is an actor's serial executor, and running an
/// actor's jobs as those of a task executor too would change where the code they call continues.
package final class QueueTaskExecutor: TaskExecutor {
    private let queue: DispatchQueue

    /// An executor on a queue of its own, or, with `target`, one whose jobs take turns with
    /// `target`'s on its thread.
    package init(label: String, target: DispatchQueue? = nil) {
        queue = DispatchQueue(label: label, qos: .userInitiated, target: target)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
