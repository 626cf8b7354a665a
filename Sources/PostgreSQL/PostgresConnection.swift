import CLibPQ

#if canImport(Glibc)
    import Glibc
#endif

/// One PostgreSQL connection, made by libpq, which owns its handle and closes it when released.
///
/// A connection is not `Sendable`: libpq allows one call at a time on a connection, so it belongs to
/// one owner (a store actor, or a thread of its own), which uses it from one thread at a time. Every
/// call blocks its thread until the server answers; callers keep them off Swift's cooperative pool
/// where that matters, as the SQLite store does for `sqlite3_step`.
///
/// libpq is opened with dlopen on the first connection (see Sources/CLibPQ/include/clibpq.h), so
/// that commands working on SQLite never load it.
public final class PostgresConnection {
    private let handle: OpaquePointer
    /// The names of the statements prepared on this connection, by their SQL text.
    private var preparedStatements: [String: String] = [:]
    /// How many statements were prepared, which numbers the next one. A name is never reused, even
    /// for a statement prepared again, so that a cached name always means the statement it was
    /// prepared for.
    private var preparedCount = 0

    /// Connects to the server `uri` names (wraps `PQconnectdb`).
    ///
    /// The text goes to libpq as it is, so every form libpq reads works: a URI such as
    /// `postgresql://user@host/db?sslmode=require` or `postgresql:///db?host=/run/postgresql`, a
    /// `key=value` string, and the `PG*` environment variables and `~/.pgpass` for what it leaves out.
    /// The session is then set to UTF-8 text and to floats written with every digit they need.
    public init(uri: String) throws(PostgresError) {
        if let reason = cpq_load() {
            throw PostgresError(message: String(cString: reason))
        }
        // NULL only when libpq cannot allocate the connection object.
        guard let handle = cpq_PQconnectdb(uri) else {
            throw PostgresError(message: "cannot connect to \(Self.redacted(uri: uri)): out of memory")
        }
        guard cpq_PQstatus(handle) == CONNECTION_OK else {
            let reason = Self.trimmed(cpq_PQerrorMessage(handle))
            let failure = Self.connectionFailure(reason, needsPassword: cpq_PQconnectionNeedsPassword(handle) != 0)
            cpq_PQfinish(handle)
            throw PostgresError(
                message: "cannot connect to \(Self.redacted(uri: uri)): "
                    + Self.scrubbingPasswords(of: uri, from: reason),
                connectionFailure: failure)
        }
        self.handle = handle
        // NOTICEs (such as "table does not exist, skipping" of DROP TABLE IF EXISTS) would otherwise
        // go to standard error, mixed into the command's output. A closure that captures nothing
        // converts to the C function pointer.
        _ = cpq_PQsetNoticeProcessor(handle, { _, _ in }, nil)
        // client_encoding: Swift strings are UTF-8, whatever the database's encoding or
        // PGCLIENTENCODING say. extra_float_digits: 3 makes servers before 12 write the 17
        // significant digits that read back as the same Double; from 12 on, any value above 0
        // gives the shortest exact text, which is also the default, but a role or database may
        // have set it lower, and then doubles would come back rounded.
        _ = try execute(
            "SELECT set_config('client_encoding', 'UTF8', false), set_config('extra_float_digits', '3', false)")
    }

    deinit {
        cpq_PQfinish(handle)
    }

    // MARK: - State

    /// The server's version as a number, such as 150018 for 15.18 (wraps `PQserverVersion`).
    public var serverVersion: Int { Int(cpq_PQserverVersion(handle)) }

    /// False once the connection to the server is lost (wraps `PQstatus`); a lost connection does
    /// not come back, and its owner makes a new one.
    public var isConnected: Bool { cpq_PQstatus(handle) == CONNECTION_OK }

    // MARK: - Statements

    /// Runs one statement, with `parameters` for its `$1`, `$2`… placeholders, and returns its rows
    /// (wraps `PQexecParams`).
    ///
    /// Parameters are sent apart from the SQL text, in text format, so they need no quoting; `nil`
    /// is NULL. The server infers each parameter's type from where it appears (add a cast, such as
    /// `$1::bigint`, where it cannot). Results come back in text format too.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [PostgresValue?] = []) throws(PostgresError) -> PostgresResult {
        let result = try withParameters(parameters, sql: sql) { count, values in
            cpq_PQexecParams(handle, sql, count, nil, values, nil, nil, 0)
        }
        return try checked(result, sql: sql)
    }

    /// Commits the open transaction. The server answers a COMMIT of a transaction in which a
    /// statement failed with a rollback, and success: that is an error here, so that a write is never
    /// reported as kept when it was not.
    public func commit() throws(PostgresError) {
        let result = try execute("COMMIT")
        guard result.commandTag == "COMMIT" else {
            throw PostgresError(
                message: "the transaction was rolled back, not committed (the server answered \(result.commandTag))",
                sql: "COMMIT")
        }
    }

    /// Like `execute(_:_:)`, through a statement prepared once per connection and then reused by its
    /// SQL text (wraps `PQprepare` and `PQexecPrepared`).
    ///
    /// For statements run many times, such as an ingest's upsert: the server parses and plans the
    /// text once. Parameter types are inferred at the first call and kept. When the server no
    /// longer knows the statement (after `DEALLOCATE ALL` or `DISCARD ALL`), it is prepared again;
    /// inside a transaction, that first failure has already ended the transaction, and the error is
    /// thrown instead.
    @discardableResult
    public func executePrepared(_ sql: String, _ parameters: [PostgresValue?] = []) throws(PostgresError)
        -> PostgresResult
    {
        let name = try preparedName(sql)
        let result = try withParameters(parameters, sql: sql) { count, values in
            cpq_PQexecPrepared(handle, name, count, values, nil, nil, 0)
        }
        if let result, cpq_PQresultStatus(result) == PGRES_FATAL_ERROR, Self.sqlState(of: result) == "26000" {
            // 26000, invalid_sql_statement_name: the session's prepared statements were dropped.
            cpq_PQclear(result)
            preparedStatements[sql] = nil
            let name = try preparedName(sql)
            let again = try withParameters(parameters, sql: sql) { count, values in
                cpq_PQexecPrepared(handle, name, count, values, nil, nil, 0)
            }
            return try checked(again, sql: sql)
        }
        return try checked(result, sql: sql)
    }

    /// The name of the statement prepared for `sql`, preparing it first when needed.
    private func preparedName(_ sql: String) throws(PostgresError) -> String {
        if let name = preparedStatements[sql] { return name }
        guard !sql.utf8.contains(0) else { throw Self.nulError(sql: sql) }
        // Unique within this connection, which is the scope of prepared statements.
        preparedCount += 1
        let name = "quakes_\(preparedCount)"
        _ = try checked(cpq_PQprepare(handle, name, sql, 0, nil), sql: sql)
        preparedStatements[sql] = name
        return name
    }

    /// Calls `body` with `parameters` as the NUL-terminated strings and count libpq takes.
    ///
    /// Text-format parameters are C strings, so a NUL in one would cut it short without a word;
    /// PostgreSQL's text types cannot hold NUL either, and this refuses it the way the server would.
    private func withParameters(
        _ parameters: [PostgresValue?],
        sql: String,
        _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?) -> OpaquePointer?
    ) throws(PostgresError) -> OpaquePointer? {
        guard !sql.utf8.contains(0) else { throw Self.nulError(sql: sql) }
        if parameters.isEmpty { return body(0, nil) }
        // One buffer for every value, each followed by its NUL; offsets of the non-NULL ones.
        var bytes: [UInt8] = []
        var offsets: [Int?] = []
        offsets.reserveCapacity(parameters.count)
        for parameter in parameters {
            guard let parameter else {
                offsets.append(nil)
                continue
            }
            offsets.append(bytes.count)
            let text = parameter.text
            guard !text.utf8.contains(0) else { throw Self.nulError(sql: sql) }
            bytes.append(contentsOf: text.utf8)
            bytes.append(0)
        }
        return bytes.withUnsafeBytes { buffer in
            // Only non-NULL values have an offset, and each put at least its NUL in the buffer.
            let start = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
            let values = offsets.map { offset -> UnsafePointer<CChar>? in
                guard let offset, let start else { return nil }
                return UnsafePointer(start + offset)
            }
            return values.withUnsafeBufferPointer { body(Int32(parameters.count), $0.baseAddress) }
        }
    }

    /// Wraps a result that went well, or throws what went wrong and frees it.
    private func checked(_ result: OpaquePointer?, sql: String) throws(PostgresError) -> PostgresResult {
        guard let result else {
            // libpq returns no result only when it could not send the command or ran out of memory.
            throw libpqFailure(sql: sql)
        }
        switch cpq_PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return PostgresResult(handle: result)
        case PGRES_COPY_IN:
            // The server now waits for rows that execute() will never send; end the COPY so that
            // the connection can be used again.
            cpq_PQclear(result)
            _ = cpq_PQputCopyEnd(handle, "COPY FROM STDIN needs PostgresConnection.copy")
            drainResults()
            throw PostgresError(message: "COPY FROM STDIN needs PostgresConnection.copy, not execute", sql: sql)
        case PGRES_COPY_OUT, PGRES_COPY_BOTH:
            // Leaving this state takes reading the data with PQgetCopyData, which quakes never needs.
            cpq_PQclear(result)
            throw PostgresError(
                message: "COPY TO STDOUT and replication are not supported; the connection cannot be used further",
                sql: sql)
        default:
            let error = failure(of: result, sql: sql)
            cpq_PQclear(result)
            throw error
        }
    }

    /// Reads the results still pending on the connection, so that it is ready for the next command.
    private func drainResults() {
        while let result = cpq_PQgetResult(handle) { cpq_PQclear(result) }
    }

    // MARK: - COPY

    /// Loads `rows` with `sql`, a `COPY table (columns) FROM STDIN` in the default text format, and
    /// returns how many rows the server stored (wraps `PQputCopyData`, `PQputCopyEnd` and
    /// `PQgetResult`).
    ///
    /// The fastest way to load many rows: they are written in COPY's text format, escaped, and sent
    /// in chunks of about 64 KB. `sql` must keep the default delimiter (tab) and NULL (`\N`)
    /// and must not use CSV or binary format. Errors in the data, such as text in an integer
    /// column, come from the server once every row was sent, and nothing is stored.
    @discardableResult
    public func copy(_ sql: String, rows: some Sequence<[PostgresValue?]>) throws(PostgresError) -> Int {
        try copy(PostgresCopyRows(for: sql, format: .text), rows: rows)
    }

    /// Loads rows encoded ahead (`PostgresCopyRows`), with the statement they were encoded for, and
    /// returns how many rows the server stored.
    @discardableResult
    public func copy(encoded rows: consuming PostgresCopyRows) throws(PostgresError) -> Int {
        try startCopy(rows).finish()
    }

    private func copy(_ encoding: consuming PostgresCopyRows, rows: some Sequence<[PostgresValue?]>)
        throws(PostgresError) -> Int
    {
        var writer = try startCopy(encoding)
        do throws(PostgresError) {
            for row in rows { try writer.append(row) }
        } catch {
            abortCopy(reason: "quakes could not send the rows: \(error.message)")
            throw error
        }
        return try writer.finish()
    }

    /// Like `copy(_:rows:)`, with rows that `body` writes one at a time, for loads that build them
    /// on the way instead of holding them all.
    ///
    /// When `body` throws, the COPY is cancelled (nothing is stored) and its error is rethrown.
    @discardableResult
    public func copy(_ sql: String, _ body: (inout PostgresCopyWriter) throws -> Void) throws -> Int {
        var writer = try startCopy(PostgresCopyRows(for: sql, format: .text))
        do {
            try body(&writer)
        } catch {
            abortCopy(reason: "quakes stopped sending rows: \(error)")
            throw error
        }
        return try writer.finish()
    }

    /// Starts the COPY that `rows` were encoded for, and returns the writer that sends them.
    private func startCopy(_ rows: consuming PostgresCopyRows) throws(PostgresError) -> PostgresCopyWriter {
        let sql = rows.sql
        guard !sql.utf8.contains(0) else { throw Self.nulError(sql: sql) }
        guard let result = cpq_PQexecParams(handle, sql, 0, nil, nil, nil, nil, 0) else {
            throw libpqFailure(sql: sql)
        }
        guard cpq_PQresultStatus(result) == PGRES_COPY_IN else {
            _ = try checked(result, sql: sql)
            throw PostgresError(message: "not a COPY … FROM STDIN statement", sql: sql)
        }
        cpq_PQclear(result)
        return PostgresCopyWriter(connection: self, rows: rows)
    }

    /// Sends `data`, part of the rows of the COPY under way, in messages of at most
    /// `PostgresCopyWriter.chunkSize` bytes, which COPY allows anywhere in a row: rows encoded ahead
    /// (a whole batch) go in the same messages as rows written one by one, and `PQputCopyData`'s
    /// int count never overflows.
    func sendCopyData(_ data: UnsafeRawBufferPointer, sql: String) throws(PostgresError) {
        guard let start = data.baseAddress?.assumingMemoryBound(to: CChar.self) else { return }
        var offset = 0
        while offset < data.count {
            let count = min(data.count - offset, PostgresCopyWriter.chunkSize)
            // In blocking mode, libpq returns 1 once the data is queued or sent, -1 on failure.
            guard cpq_PQputCopyData(handle, start + offset, Int32(count)) == 1 else {
                throw libpqFailure(sql: sql)
            }
            offset += count
        }
    }

    /// Ends the COPY under way and returns the number of rows stored.
    func endCopy(sql: String) throws(PostgresError) -> Int {
        guard cpq_PQputCopyEnd(handle, nil) == 1 else {
            let error = libpqFailure(sql: sql)
            drainResults()
            throw error
        }
        let result = cpq_PQgetResult(handle)
        drainResults()
        return try checked(result, sql: sql).rowsAffected
    }

    /// Cancels the COPY under way: the server fails it with `reason` and stores none of its rows.
    func abortCopy(reason: String) {
        _ = cpq_PQputCopyEnd(handle, reason.utf8.contains(0) ? "cancelled" : reason)
        drainResults()
    }

    // MARK: - LISTEN and NOTIFY

    /// Starts listening on `channel` (`LISTEN`); the name is quoted, so it is taken exactly as given,
    /// as `pg_notify` takes it.
    public func listen(_ channel: String) throws(PostgresError) {
        try execute("LISTEN \(Self.quotedIdentifier(channel))")
    }

    /// Stops listening on `channel` (`UNLISTEN`).
    public func unlisten(_ channel: String) throws(PostgresError) {
        try execute("UNLISTEN \(Self.quotedIdentifier(channel))")
    }

    /// Sends `payload` to the listeners of `channel` (`pg_notify`); inside a transaction, it is sent
    /// when the transaction commits.
    public func notify(_ channel: String, payload: String = "") throws(PostgresError) {
        try execute("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)])
    }

    /// Waits until notifications arrive on the channels this connection listens on, and returns them;
    /// returns nil when `timeout` passes first (wraps `PQsocket`, `poll`, `PQconsumeInput` and
    /// `PQnotifies`).
    ///
    /// This blocks the calling thread for up to `timeout`. Call it from a thread of its own (or an
    /// executor over one), never from a task on Swift's cooperative pool, whose few threads the
    /// rest of the program shares. Notifications that arrived while other statements ran are
    /// returned at once.
    public func waitForNotification(timeout: Duration) throws(PostgresError) -> [PostgresNotification]? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            // Read what the socket already holds: the notifications may be in it, or already read.
            guard cpq_PQconsumeInput(handle) == 1 else {
                throw libpqFailure(sql: nil)
            }
            let notifications = receivedNotifications()
            if !notifications.isEmpty { return notifications }
            let remaining = clock.now.duration(to: deadline)
            if remaining <= .zero { return nil }
            let socket = cpq_PQsocket(handle)
            guard socket >= 0 else { throw PostgresError(message: "the connection to the server is closed") }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Self.milliseconds(remaining))
            if ready < 0 && errno != EINTR {
                throw PostgresError(message: "poll failed: \(String(cString: strerror(errno)))")
            }
            // Ready, timed out or interrupted: the loop reads the socket and checks the clock again.
        }
    }

    /// The notifications libpq has read and not handed out yet.
    private func receivedNotifications() -> [PostgresNotification] {
        var notifications: [PostgresNotification] = []
        while let notify = cpq_PQnotifies(handle) {
            notifications.append(
                PostgresNotification(
                    channel: String(cString: notify.pointee.relname),
                    payload: notify.pointee.extra.map { String(cString: $0) } ?? "",
                    processID: notify.pointee.be_pid))
            cpq_PQfreemem(notify)
        }
        return notifications
    }

    /// `duration` in whole milliseconds for poll(), rounded up so that a wait never ends early, and
    /// capped at Int32.max (24 days; the loop waits again).
    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return Int32.max }
        let total = milliseconds.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: total)
    }

    // MARK: - Helpers

    /// `name` as a quoted identifier, its double quotes doubled.
    static func quotedIdentifier(_ name: String) -> String {
        "\"" + name.replacing("\"", with: "\"\"") + "\""
    }

    /// The error PostgreSQL gives for a NUL in text, which libpq's C strings cannot carry.
    static func nulError(sql: String) -> PostgresError {
        PostgresError(
            message: "text cannot contain NUL (U+0000): PostgreSQL's text types do not allow it",
            sqlState: "22021", sql: sql)
    }

    /// Why a connection failed, from libpq's message. libpq keeps no SQLSTATE for a failed
    /// connection, only text: what the server sent back carries its severity (`FATAL:`), and the
    /// server's reasons are told apart by the words of its messages, in English, the server's
    /// default language. A message not recognised counts as a refusal when the server sent it, and
    /// as an unreachable server otherwise.
    static func connectionFailure(_ message: String, needsPassword: Bool) -> PostgresError.ConnectionFailure {
        if needsPassword { return .refused }
        guard let fatal = message.firstRange(of: "FATAL:") else { return .unreachable }
        let reason = message[fatal.upperBound...]
        if reason.contains("database \""), reason.contains("does not exist") { return .noDatabase }
        for busy in ["too many clients", "remaining connection slots", "starting up", "shutting down", "in recovery"]
        where reason.contains(busy) {
            return .busy
        }
        return .refused
    }

    /// libpq's multi-line message (a server's several attempts, a hint on a line of its own) as one
    /// line, for one `Error:` line.
    static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).map { $0.trimmingPrefix(while: \.isWhitespace) }.joined(
            separator: " ")
    }

    /// libpq's message as one line, for one `Error:` line: its messages end with a newline, and
    /// some span lines (a lost connection's explanation, a hint).
    static func trimmed(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "unknown libpq error" }
        var message = oneLine(String(cString: text))
        while let last = message.last, last.isWhitespace { message.removeLast() }
        return message.isEmpty ? "unknown libpq error" : message
    }

    static func sqlState(of result: OpaquePointer) -> String? {
        cpq_PQresultErrorField(result, DiagnosticField.sqlState).map { String(cString: $0) }
    }

    /// The error a failed result holds (wraps `PQresultErrorField`).
    private func failure(of result: OpaquePointer, sql: String) -> PostgresError {
        func field(_ code: Int32) -> String? {
            cpq_PQresultErrorField(result, code).map { String(cString: $0) }
        }
        let message = field(DiagnosticField.message) ?? Self.trimmed(cpq_PQresultErrorMessage(result))
        let sqlState = Self.sqlState(of: result)
        return PostgresError(
            message: message, sqlState: sqlState, detail: field(DiagnosticField.detail),
            hint: field(DiagnosticField.hint), sql: sql, sessionEnded: sessionEnded(sqlState: sqlState))
    }

    /// The error libpq found on its own (the command not sent, the connection lost).
    private func libpqFailure(sql: String?) -> PostgresError {
        PostgresError(
            message: Self.trimmed(cpq_PQerrorMessage(handle)), sql: sql, sessionEnded: sessionEnded(sqlState: nil))
    }

    /// True when the failure ended the session: the server shut down or restarted (SQLSTATE class
    /// 57P, `terminating connection due to administrator command`), the connection broke (class
    /// 08), or libpq lost it.
    private func sessionEnded(sqlState: String?) -> Bool {
        if let sqlState, sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") { return true }
        return cpq_PQstatus(handle) != CONNECTION_OK
    }

    /// The `PG_DIAG_…` codes of `PQresultErrorField`, character constants of the wire protocol that
    /// Swift does not import from libpq's headers.
    private enum DiagnosticField {
        static let sqlState = Int32(UInt8(ascii: "C"))
        static let message = Int32(UInt8(ascii: "M"))
        static let detail = Int32(UInt8(ascii: "D"))
        static let hint = Int32(UInt8(ascii: "H"))
    }
}
