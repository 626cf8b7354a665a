import Glibc

/// Everything a command may take from the world, so that tests can hand it a world of their own:
/// arguments aside, nothing in QuakesCore reads the process's globals, clock or streams directly.
public struct Environment: Sendable {
    /// Environment variables, such as `QUAKES_DB`, `XDG_DATA_HOME`, `HOME` and `TZ`.
    public var variables: EnvironmentVariables
    /// The folder relative paths are resolved against.
    public var currentDirectory: String
    public var standardOutput: any TextOutput
    public var standardError: any TextOutput
    /// True when standard error is a terminal, where progress may be drawn.
    public var standardErrorIsTerminal: Bool
    /// The width of the terminal standard output is, or nil when it is not a terminal.
    public var terminalColumns: Int?
    /// The height of the terminal standard output is, or nil when it is not a terminal.
    public var terminalLines: Int?
    /// Downloads feeds.
    public var downloader: any Downloader
    /// The current time in milliseconds since 1970 UTC.
    public var clock: @Sendable () -> Int64
    /// SIGINT and SIGTERM, as cancellation.
    public var interruption = Interruption()
    /// The home folder of the account the process runs as, from the password database: where the
    /// database lives when `HOME` is unset, as in a system unit without `User=`.
    public var accountHome: @Sendable () -> String? = Environment.passwordDatabaseHome
    /// The storage engines, asked in turn which of them keeps the database `--db` names: the
    /// `Registry` module lists them, so that the core never names one.
    package var engines: [any StorageEngine] = []
    /// The subcommands, in the order help lists them: the `Registry` module lists them, with those
    /// of modules above the core (the pictures').
    package var commands: [any Command.Type] = []

    public init(
        variables: [String: String] = [:], currentDirectory: String, standardOutput: any TextOutput,
        standardError: any TextOutput, standardErrorIsTerminal: Bool = false, terminalColumns: Int? = nil,
        downloader: any Downloader = CurlDownloader(),
        clock: @escaping @Sendable () -> Int64 = Environment.systemClock
    ) {
        self.variables = EnvironmentVariables(variables)
        self.currentDirectory = currentDirectory
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.standardErrorIsTerminal = standardErrorIsTerminal
        self.terminalColumns = terminalColumns
        self.downloader = downloader
        self.clock = clock
    }

    /// The real world of this process, writing to `outputs` (the executable passes the pair it
    /// answered `--version` with, so that no second pair is made for the same descriptors),
    /// interrupted by its signals through `interruption`, running `commands` and keeping databases
    /// with `engines`.
    package static func current(
        outputs: (standardOutput: FileDescriptorOutput, standardError: FileDescriptorOutput) = processOutputs(),
        interruption: Interruption = Interruption(), commands: [any Command.Type], engines: [any StorageEngine]
    ) -> Environment {
        var environment = Environment(
            currentDirectory: workingDirectory(),
            standardOutput: outputs.standardOutput,
            standardError: outputs.standardError,
            standardErrorIsTerminal: isatty(STDERR_FILENO) == 1,
            terminalColumns: isatty(STDOUT_FILENO) == 1 ? terminalWidth(.process) : nil)
        environment.variables = .process
        environment.interruption = interruption
        environment.engines = engines
        environment.commands = commands
        if environment.terminalColumns != nil { environment.terminalLines = terminalHeight() }
        return environment
    }

    /// This process's standard output, and its standard error, line-buffered so that messages show
    /// as they are written.
    package static func processOutputs() -> (standardOutput: FileDescriptorOutput, standardError: FileDescriptorOutput)
    {
        (
            FileDescriptorOutput(descriptor: STDOUT_FILENO),
            FileDescriptorOutput(descriptor: STDERR_FILENO, lineBuffered: true)
        )
    }

    /// The working directory, from `getcwd` (`/` when it cannot be named, as when it was removed).
    private static func workingDirectory() -> String {
        guard let path = getcwd(nil, 0) else { return "/" }
        defer { free(path) }
        return String(cString: path)
    }

    /// The terminal's width: from the terminal itself, else `COLUMNS`, else 80.
    private static func terminalWidth(_ variables: EnvironmentVariables) -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return variables["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 80
    }

    /// The terminal's height, or nil when the terminal does not say.
    private static func terminalHeight() -> Int? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }

    /// The size a picture drawn in text fills: `COLUMNS` and `LINES` when set, else the terminal's,
    /// else 80 by 24, as for a file or a pipe; at most 2,000 by 1,000, which no screen exceeds and a
    /// stray variable must not turn into gigabytes of canvas.
    package var textPictureSize: (columns: Int, lines: Int) {
        func variable(_ name: String) -> Int? { variables[name].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } }
        return (
            min(variable("COLUMNS") ?? terminalColumns ?? 80, 2000), min(variable("LINES") ?? terminalLines ?? 24, 1000)
        )
    }

    /// True when colour may be used on standard output: it is a terminal, `NO_COLOR` is unset or
    /// empty, and `TERM` is not `dumb`.
    public var usesColour: Bool {
        terminalColumns != nil && (variables["NO_COLOR"] ?? "").isEmpty && variables["TERM"] != "dumb"
    }

    /// The zone times are shown in: `TZ`'s, or the system's.
    public var displayZone: DisplayZone {
        DisplayZone(tz: variables["TZ"])
    }

    /// The home folder `getpwuid_r` gives for the real user, or nil.
    public static let passwordDatabaseHome: @Sendable () -> String? = {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16_384)
        guard getpwuid_r(getuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil,
            let directory = entry.pw_dir
        else { return nil }
        let home = String(cString: directory)
        return home.isEmpty ? nil : home
    }

    /// The system's wall clock, in milliseconds since 1970 UTC.
    public static let systemClock: @Sendable () -> Int64 = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// Makes `path` absolute against `currentDirectory`.
    public func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : FilePaths.appending(path, to: currentDirectory)
    }
}
