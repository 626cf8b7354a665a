extension PostgresConnection {
    /// `uri` naming the database `database` on the same server, with the same user and parameters:
    /// for tests and benchmarks, which make databases of their own beside the one they were given.
    /// A `key=value` string gets a `dbname` that libpq reads over any earlier one.
    public static func uri(_ uri: String, database: String) -> String {
        guard let scheme = uri.firstRange(of: "://") else { return uri + " dbname=\(database)" }
        let rest = uri[scheme.upperBound...]
        let pathStart = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let pathEnd = rest[pathStart...].firstIndex(of: "?") ?? rest.endIndex
        return String(uri[..<pathStart]) + "/" + database + rest[pathEnd...]
    }

    /// `uri` with the connection parameter `parameter` (`user=someone`) added, which libpq reads
    /// after, and so over, what the URI said before.
    public static func uri(_ uri: String, adding parameter: String) -> String {
        guard uri.contains("://") else { return uri + " " + parameter }
        return uri + (uri.contains("?") ? "&" : "?") + parameter
    }
}
