/// Hears, from the database itself, that a write committed: how `watch` follows other hosts without
/// polling. Engines that cannot announce commits have none, and `watch` looks again every interval.
package protocol ChangeListener: AnyObject, Sendable {
    /// Waits until a write commits or `timeout` passes, whichever comes first; a cancelled task
    /// stops waiting soon after.
    func waitForChange(upTo timeout: Duration) async throws
}
