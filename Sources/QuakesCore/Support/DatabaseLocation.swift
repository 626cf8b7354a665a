/// Where the database lives, the same for every command: `--db PATH`, else `$QUAKES_DB`, else
/// `$XDG_DATA_HOME/quakes/quakes.sqlite`, else `~/.local/share/quakes/quakes.sqlite`.
enum DatabaseLocation {
    /// The `--db` option every command that touches the database takes.
    static let option = CommandHelp.Option(
        "db", value: "path",
        help: "The database file; missing folders are created.",
        default: "$QUAKES_DB, else $XDG_DATA_HOME/quakes/quakes.sqlite, else ~/.local/share/quakes/quakes.sqlite")

    static func path(option: String?, in environment: Environment) -> String {
        if let option, !option.isEmpty { return environment.absolutePath(option) }
        if let path = environment.variables["QUAKES_DB"], !path.isEmpty { return environment.absolutePath(path) }
        // The XDG spec says to ignore a relative XDG_DATA_HOME.
        if let data = environment.variables["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/quakes/quakes.sqlite"
        }
        let home = environment.variables["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        return home + "/.local/share/quakes/quakes.sqlite"
    }
}
