/// Another quakes process holds the database's writer lock.
public struct LockedError: Error, Sendable, Equatable, CustomStringConvertible {
    public var database: String

    package init(database: String) {
        self.database = database
    }

    public var description: String {
        "another quakes process is writing to \(database) (see --wait)"
    }
}
