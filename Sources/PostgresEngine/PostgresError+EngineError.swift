import PostgreSQL
import QuakesCore

extension PostgresError: EngineError {
    /// Lock timeouts and serialisation failures: another session held what this one needed.
    public var isBusy: Bool {
        ["55P03", "40001", "40P01"].contains(sqlState ?? "")
    }

    public var failedConnection: StoreError.ConnectionFailure? {
        switch connectionFailure {
        case .unreachable: .unreachable
        case .refused: .refused
        case .noDatabase: .noDatabase
        case .busy: .busy
        case nil: nil
        }
    }
}
