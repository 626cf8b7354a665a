import QuakesCore
import SQLite

extension SQLiteError: EngineError {}

extension MigrationError: EngineError {
    public var message: String { description }
    public var isBusy: Bool { false }
}
