import Foundation

/// How hard the suites run: the long mode of `make reliability`, a sanitizer's slower build, or the
/// normal run. The heaviest tests size their inputs and loops from it.
enum SuiteMode {
    /// True in the long mode (`QUAKES_LONG_TESTS=1`, set by `make reliability`): loops run their
    /// full count.
    static let isLong = ProcessInfo.processInfo.environment["QUAKES_LONG_TESTS"] == "1"

    /// The sanitizer the suite runs under: `thread` or `address` (`QUAKES_SANITIZED`, set by `make
    /// test-tsan` and `make test-asan`), or nil.
    static let sanitizer = ProcessInfo.processInfo.environment["QUAKES_SANITIZED"].flatMap { $0.isEmpty ? nil : $0 }

    /// True under a sanitizer, where code runs several times slower (ThreadSanitizer ten to twenty
    /// times): the heaviest tests take smaller inputs and fewer rounds, which still run every path.
    static var isSanitized: Bool { sanitizer != nil }

    /// True under ThreadSanitizer, which finds races between threads: a test whose work runs on one
    /// thread gains nothing there and pays the slowdown, so it is left to the other runs.
    static var isThreadSanitized: Bool { sanitizer == "thread" }

    /// `normal`, `long` in the long mode, or `sanitized` under a sanitizer.
    static func rounds(_ normal: Int, long: Int, sanitized: Int) -> Int {
        isLong ? long : (isSanitized ? sanitized : normal)
    }
}
