/// One way of keeping the catalogue (SQLite files, PostgreSQL servers…), a module of its own that
/// the `Registry` module lists: the core never names an engine.
package protocol StorageEngine: Sendable {
    /// What the engine keeps and can do, for help, the manual and messages.
    var description: EngineDescription { get }

    /// The database `value` (a `--db` or `QUAKES_DB` value) names, when this engine keeps it; nil
    /// leaves it to the next engine. Relative paths are resolved in `environment`.
    func database(named value: String, in environment: Environment) -> (any DatabaseWriter)?
}
