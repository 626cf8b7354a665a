/// Where the database lives, the same for every command: `--db PATH`, else `$QUAKES_DB`, else
/// `$XDG_DATA_HOME/quakes/quakes.sqlite`, else `~/.local/share/quakes/quakes.sqlite`, the home
/// folder being `$HOME`, or the account's in the password database when `HOME` is unset.
///
/// An empty `--db` or `QUAKES_DB` is a mistake (a script's unset variable), never a quiet fallback
/// to the user's real database.
package enum DatabaseLocation {
    /// The database, in the user's data folder, when neither `--db` nor `QUAKES_DB` names one: a
    /// file, which the engine that takes any other path keeps.
    package static let defaultFile = "quakes/quakes.sqlite"

    /// The `--db` option every command that touches the database takes, which, when given, must
    /// not be empty.
    package static let option = ValueOption(
        "db", value: "path",
        help:
            "Where the catalogue is kept: a file, or a database server's URI; the value says which storage engine keeps it (see 'quakes --help').",
        default: "$QUAKES_DB, else $XDG_DATA_HOME/\(defaultFile), else ~/.local/share/\(defaultFile)",
        takesPath: true,
        expected: "a file path or a database URI (an empty one would fall back to the default database)"
    ) { $0.isEmpty ? nil : $0 }

    /// The database, from `option` (a `--db` value) and the environment, for a command that only
    /// reads it.
    package static func reader(option: String?, in environment: Environment) throws(UsageError) -> any DatabaseReader {
        try writer(option: option, in: environment)
    }

    /// The database, from `option` (a `--db` value) and the environment, kept by the first of the
    /// environment's engines that claims it: the one place an engine is chosen, from the value alone.
    package static func writer(option: String?, in environment: Environment) throws(UsageError) -> any DatabaseWriter {
        let value = try value(option: option, in: environment)
        for engine in environment.engines {
            if let database = engine.database(named: value, in: environment) { return database }
        }
        throw UsageError("No storage engine keeps this database (none is registered for it)")
    }

    /// The `--db` or `QUAKES_DB` value, or the default file's absolute path.
    private static func value(option: String?, in environment: Environment) throws(UsageError) -> String {
        if let option { return option }
        if let path = environment.variables["QUAKES_DB"] {
            guard !path.isEmpty else {
                throw UsageError("QUAKES_DB is set but empty: unset it, or set it to the database's path")
            }
            return path
        }
        // The XDG spec says to ignore a relative XDG_DATA_HOME.
        if let data = environment.variables["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/" + defaultFile
        }
        let home = environment.variables["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? environment.accountHome()
        guard let home, home.hasPrefix("/") else {
            throw UsageError(
                "No home folder to keep the database in (HOME is unset and the account has none): give --db or set QUAKES_DB"
            )
        }
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.local/share/" + defaultFile
    }
}
