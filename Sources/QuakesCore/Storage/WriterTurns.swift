/// Whose turn it is on a writer actor's connection. An ingest's transaction spans several calls of
/// the actor, with suspensions between them in which the actor runs other calls, so the actor's
/// own exclusion is not enough: a prune or a second ingest arriving then must wait for the
/// ingest's commit or rollback, or its statements would land in the ingest's transaction.
///
/// Every engine's writer keeps one, with what it needs to know about the active ingest as
/// `Context` (its history's author and source). Not `Sendable`: it belongs to its actor, whose
/// isolation every suspending method here inherits.
package final class WriterTurns<Context> {
    private var active: (ticket: IngestTicket, context: Context)?
    private var lastTicket: UInt64 = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    package init() {}

    /// Waits until no ingest holds the connection. The caller then takes it, with `begin`, or
    /// runs a write of its own without suspending, or passes it on with `end`.
    package func waitForTurn(isolation: isolated (any Actor) = #isolation) async {
        while active != nil {
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    /// Gives the connection to a new ingest, until `end`.
    package func begin(_ context: Context) -> IngestTicket {
        lastTicket += 1
        let ticket = IngestTicket(number: lastTicket)
        active = (ticket, context)
        return ticket
    }

    /// The context of the ingest `ticket` names, which must be the active one.
    package func context(of ticket: IngestTicket, in database: String) throws(StoreError) -> Context {
        guard let active, active.ticket == ticket else {
            throw StoreError(path: database, "the ingest transaction has already ended")
        }
        return active.context
    }

    /// True when `ticket` names the active ingest.
    package func isActive(_ ticket: IngestTicket) -> Bool {
        active?.ticket == ticket
    }

    /// Ends the active ingest, if any, and hands the connection to the next waiter.
    package func end() {
        active = nil
        if !waiters.isEmpty { waiters.removeFirst().resume() }
    }
}
