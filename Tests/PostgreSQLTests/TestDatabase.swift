import Foundation
import PostgreSQL
import Testing

/// A database of its own for one test, on the server that QUAKES_TEST_POSTGRES names, so that
/// tests run in parallel without seeing each other's tables, LISTENs or prepared statements.
struct TestDatabase {
    /// The URI of the server's `postgres` database, as scripts/with-postgres exported it.
    let serverURI: String
    /// The database's name, made up for the test.
    let name: String
    /// The URI that connects to it.
    var uri: String { Self.uri(serverURI, database: name) }

    /// Creates a database, runs `body` with it and drops it, whatever `body` did.
    ///
    /// Without QUAKES_TEST_POSTGRES the test fails: the PostgreSQL layer is never left untested
    /// because a server was missing.
    static func with<Result>(_ body: (TestDatabase) async throws -> Result) async throws -> Result {
        let serverURI = try serverURI()
        let database = TestDatabase(
            serverURI: serverURI, name: "quakes_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 36))
        let server = try PostgresConnection(uri: serverURI)
        try server.execute("CREATE DATABASE \(database.name)")
        let result: Result
        do {
            result = try await body(database)
        } catch {
            // FORCE ends connections the test left open (PostgreSQL 13 and later).
            _ = try? server.execute("DROP DATABASE \(database.name) WITH (FORCE)")
            throw error
        }
        try server.execute("DROP DATABASE \(database.name) WITH (FORCE)")
        return result
    }

    /// QUAKES_TEST_POSTGRES, or a failure that says how to set it.
    static func serverURI() throws -> String {
        try #require(
            ProcessInfo.processInfo.environment["QUAKES_TEST_POSTGRES"],
            "QUAKES_TEST_POSTGRES is not set: run `make test`, or `scripts/with-postgres swift test`")
    }

    /// A new connection to the test's database.
    func connect() throws(PostgresError) -> PostgresConnection {
        try PostgresConnection(uri: uri)
    }

    /// `uri` with its database replaced by `database`: the path of a URI, `dbname` of a
    /// `key=value` string (where the last value of a key wins).
    static func uri(_ uri: String, database: String) -> String {
        guard let scheme = uri.range(of: "://") else { return uri + " dbname=\(database)" }
        let rest = uri[scheme.upperBound...]
        let pathStart = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let pathEnd = rest[pathStart...].firstIndex(of: "?") ?? rest.endIndex
        return String(uri[..<pathStart]) + "/" + database + rest[pathEnd...]
    }

    /// `uri` with one more query parameter.
    static func uri(_ uri: String, adding parameter: String) -> String {
        uri + (uri.contains("?") ? "&" : "?") + parameter
    }
}

/// Runs `body` on a thread of its own, as calls that block for long must run, and returns its
/// result: the test's task waits without holding one of the cooperative pool's few threads.
func onThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
