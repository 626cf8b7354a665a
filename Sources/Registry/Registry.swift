import GeoJSONEngine
import PostgresEngine
import QuakesCore
import QuakesPictures
import SQLiteEngine

/// What the tool is made of: its commands and its storage engines, listed here and nowhere else,
/// for the executable and the tests alike. The core names no engine, and no command of a module
/// above it: adding an engine is its module and one line here (beside its target in Package.swift,
/// and its case in the tests' `TestEngine`).
public enum Registry {
    /// The storage engines, asked in this order which keeps the database `--db` names: PostgreSQL
    /// takes its URIs, GeoJSON paths ending in .geojson or .json, and SQLite, last, every value the
    /// others leave, since anything else is a file path.
    package static let engines: [any StorageEngine] = [PostgresEngine(), GeoJSONEngine(), SQLiteEngine()]

    /// The subcommands, in the order help lists them.
    package static let commands: [any Command.Type] = [
        FetchCommand.self, BackfillCommand.self, SyncCommand.self, CountCommand.self, ListCommand.self,
        ShowCommand.self, HistoryCommand.self, ChartCommand.self, MapCommand.self, PruneCommand.self,
        WatchCommand.self, StatusCommand.self, CompletionsCommand.self, ManualCommand.self,
    ]

    /// `environment` with the tool's commands and engines.
    package static func equip(_ environment: inout Environment) {
        environment.commands = commands
        environment.engines = engines
    }
}
