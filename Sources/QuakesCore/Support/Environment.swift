import Foundation

/// Everything a command may take from the world, so that tests can hand it a world of their own:
/// arguments aside, nothing in QuakesCore reads the process's globals, clock or streams directly.
public struct Environment: Sendable {
    /// Environment variables, such as `QUAKES_DB`, `XDG_DATA_HOME`, `HOME` and `TZ`.
    public var variables: [String: String]
    /// The folder relative paths are resolved against.
    public var currentDirectory: String
    public var standardOutput: any TextOutput
    public var standardError: any TextOutput
    /// True when standard error is a terminal, where progress may be drawn.
    public var standardErrorIsTerminal: Bool
    /// Downloads feeds.
    public var downloader: any Downloader
    /// The current time in milliseconds since 1970 UTC.
    public var clock: @Sendable () -> Int64

    public init(variables: [String: String] = [:], currentDirectory: String, standardOutput: any TextOutput,
                standardError: any TextOutput, standardErrorIsTerminal: Bool = false,
                downloader: any Downloader = CurlDownloader(),
                clock: @escaping @Sendable () -> Int64 = Environment.systemClock)
    {
        self.variables = variables
        self.currentDirectory = currentDirectory
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardErrorIsTerminal = standardErrorIsTerminal
        self.downloader = downloader
        self.clock = clock
    }

    /// The real world of this process.
    public static func current() -> Environment {
        Environment(variables: ProcessInfo.processInfo.environment,
                    currentDirectory: FileManager.default.currentDirectoryPath,
                    standardOutput: FileDescriptorOutput(descriptor: STDOUT_FILENO),
                    standardError: FileDescriptorOutput(descriptor: STDERR_FILENO, lineBuffered: true),
                    standardErrorIsTerminal: isatty(STDERR_FILENO) == 1)
    }

    /// The system's wall clock, in milliseconds since 1970 UTC.
    public static let systemClock: @Sendable () -> Int64 = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// Makes `path` absolute against `currentDirectory`.
    public func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : (currentDirectory as NSString).appendingPathComponent(path)
    }
}
