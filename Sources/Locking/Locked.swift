#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value that threads share, guarded by a `pthread_mutex_t`.
///
/// Why not the standard library's `Mutex`: on Linux it hands a contended lock over inside the kernel
/// (`FUTEX_LOCK_PI`), where ThreadSanitizer cannot see it, so every contended `Mutex` is reported as
/// a data race and hides the real ones. ThreadSanitizer intercepts `pthread_mutex_lock`, so this lock
/// is understood, and the suites can run under it with no suppressions.
///
/// `@unchecked Sendable` is sound: `value` is read and written only inside `withLock`, while the
/// mutex is held, so no two threads ever touch it at once; the mutex lives at a fixed address from
/// `init` to `deinit`; and `value` comes in and leaves only as `sending`, as with `Mutex`, so
/// nothing non-Sendable escapes to another thread.
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ initialValue: sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock.
    public func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E)
        -> sending Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
