/// How the process ends, as the sysexits codes that cron users script on.
///
/// The one place that decides which error ends with which code.
public struct ExitStatus: Sendable, Equatable, CustomStringConvertible {
    /// The code passed to `exit`.
    public let code: Int32
    /// The sysexits name, for messages and tests.
    public let name: String

    public static let success = ExitStatus(code: 0, name: "EX_OK")
    /// What was asked for does not exist (`quakes show` of an unknown id), as `grep` finding nothing.
    public static let failure = ExitStatus(code: 1, name: "EXIT_FAILURE")
    /// The command was used wrongly: an unknown option, a malformed value.
    public static let usage = ExitStatus(code: 64, name: "EX_USAGE")
    /// The input is not a valid feed.
    public static let dataError = ExitStatus(code: 65, name: "EX_DATAERR")
    /// A local input file is missing or unreadable.
    public static let noInput = ExitStatus(code: 66, name: "EX_NOINPUT")
    /// The network or the server failed.
    public static let unavailable = ExitStatus(code: 69, name: "EX_UNAVAILABLE")
    /// A bug in quakes.
    public static let software = ExitStatus(code: 70, name: "EX_SOFTWARE")
    /// A data file installed with quakes (country outlines, place names) is missing or damaged.
    public static let osFile = ExitStatus(code: 72, name: "EX_OSFILE")
    /// The database or another file could not be read or written.
    public static let ioError = ExitStatus(code: 74, name: "EX_IOERR")
    /// Another process holds the database; trying later may work.
    public static let temporaryFailure = ExitStatus(code: 75, name: "EX_TEMPFAIL")
    /// The database server turned the session down: credentials, role or privileges.
    public static let noPermission = ExitStatus(code: 77, name: "EX_NOPERM")
    /// SIGINT ended the command (128 + 2).
    public static let interrupted = ExitStatus(code: 130, name: "SIGINT")
    /// SIGTERM ended the command (128 + 15).
    public static let terminated = ExitStatus(code: 143, name: "SIGTERM")

    public var description: String { "\(code) (\(name))" }

    /// Every status the tool ends with and what it tells a script, in short: the manual's EXIT
    /// STATUS section is rendered from this list, so it names each code once. docs/commands.md
    /// explains each at more length, for the same codes (ManualPageTests holds the two alike).
    static let documented: [(status: ExitStatus, meaning: String)] = [
        (.success, "success"),
        (
            .failure,
            "'quakes show': no such event; 'quakes status --fresh-within': no fetch succeeded in that time"
        ),
        (
            .usage,
            "usage error: unknown option, malformed value, unsupported URL scheme, an empty --db or QUAKES_DB"
        ),
        (
            .dataError,
            "the data is not a valid feed (or is larger than --max-bytes), or none of a document's features could be stored"
        ),
        (.noInput, "a local input file is missing or unreadable, or the database does not exist"),
        (
            .unavailable,
            "network or HTTP failure: DNS, connection, TLS, timeout, an HTTP status of 400 or more, or no database server answered; or a library a picture needs is not installed"
        ),
        (.software, "a bug in quakes"),
        (
            .osFile,
            "a data file installed with quakes (country outlines, place names) is missing or damaged: reinstall, or set QUAKES_DATA_DIR"
        ),
        (
            .ioError,
            "database or other I/O error: another program's database, one written by a newer version of quakes, or, for a read command, one of an older schema; or a picture (--output) that cannot be written"
        ),
        (
            .temporaryFailure,
            "another quakes process is writing the database (beyond --wait), the database's own lock outlasted its busy timeout, or the database server takes no connection now: try again later"
        ),
        (.noPermission, "the database server refused the connection: password, role, or the server's access rules"),
        (
            .interrupted,
            "SIGINT: the transaction in progress was rolled back and the lock released; a command that only reads ends at once, by the signal, which a shell reports as 130"
        ),
        (
            .terminated,
            "SIGTERM: the transaction in progress was rolled back and the lock released; a command that only reads ends at once, by the signal, which a shell reports as 143"
        ),
    ]

    /// The status a run that failed with `error` ends with.
    public init(for error: any Error) {
        switch error {
        case let error as any ExitStatusProviding:
            self = error.exitStatus
        case let failure as IngestFailure:
            self.init(for: failure.error)
        case is LockedError:
            self = .temporaryFailure
        case is UsageError:
            self = .usage
        case is FeedError, is UnusableFeedError:
            self = .dataError
        case let error as DownloadError:
            switch error {
            case .unreadableFile: self = .noInput
            case .tooLarge: self = .dataError
            case .httpStatus, .timedOut, .transfer: self = .unavailable
            }
        case let error as StoreError:
            switch error.reason {
            case .missing, .connection(_, .noDatabase): self = .noInput
            case .connection(_, .unreachable): self = .unavailable
            case .connection(_, .refused): self = .noPermission
            default: self = error.isBusy ? .temporaryFailure : .ioError
            }
        case is SharedDataError:
            self = .osFile
        case is NotFoundError:
            self = .failure
        case is any EngineError, is OutputError:
            self = .ioError
        default:
            self = .software
        }
    }

    private init(code: Int32, name: String) {
        self.code = code
        self.name = name
    }
}
