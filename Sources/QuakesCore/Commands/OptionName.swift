/// The name of every option any command takes: commands declare their options and read them by
/// these, so that a name misspelt where an option is read does not compile.
public enum OptionName: String, Sendable, CaseIterable {
    case alert
    case ascii
    case author
    case bbox
    case by
    case cacert
    case catalog
    case changes
    case changesOnly = "changes-only"
    case color
    case concurrency
    case confirmVanished = "confirm-vanished"
    case contributor
    case cumulative
    case db
    case dryRun = "dry-run"
    case exec
    case extent
    case force
    case format
    case freshWithin = "fresh-within"
    case help
    case historyOlderThan = "history-older-than"
    case interval
    case last
    case lastToken = "last-token"
    case limit
    case limitPerSection = "limit-per-section"
    case maxBytes = "max-bytes"
    case maxDepth = "max-depth"
    case maxMagnitude = "max-magnitude"
    case mc
    case minDepth = "min-depth"
    case minMagnitude = "min-magnitude"
    case near
    case noFetch = "no-fetch"
    case now
    case olderThan = "older-than"
    case output
    case pause
    case place
    case quiet
    case radius
    case restart
    case retries
    case section
    case service
    case since
    case size
    case sort
    case status
    case timeout
    case tsunami
    case `type`
    case until
    case utc
    case version
    case wait
}
