/// One way of keeping the catalogue (SQLite files, PostgreSQL servers…), a module of its own that
/// the executable registers in `Environment.engines`: the core never names an engine.
package protocol StorageEngine: Sendable {
    /// The database `value` (a `--db` or `QUAKES_DB` value) names, when this engine keeps it; nil
    /// leaves it to the next engine. Relative paths are resolved in `environment`.
    func database(named value: String, in environment: Environment) -> (any Database)?
}
