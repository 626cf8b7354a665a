/// Whose turn it is on a writer actor's connection. An ingest's transaction spans several calls of
/// the actor, with suspensions between them in which the actor runs other calls, so the actor's
/// own exclusion is not enough: a prune or a second ingest arriving then must wait for the
/// ingest's commit or rollback, or its statements would land in the ingest's transaction.
///
/// Every write takes a turn (`take`) and gives it back (`end`); an ingest keeps its turn across
/// calls, with what it needs to know (its history's author and source) as `Context`. Not
/// `Sendable`: it belongs to its actor, whose isolation every suspending method here inherits.
package final class WriterTurns<Context> {
    /// The turn being taken, and the ingest's context once `begin` gave it one.
    private var holder: (ticket: IngestTicket, context: Context?)?
    private var lastTicket: UInt64 = 0
    /// The turns waiting, first come first served.
    private var waiters: [(ticket: IngestTicket, resume: CheckedContinuation<Void, Never>)] = []

    package init() {}

    /// Waits until no one holds the connection, and holds it until `end`.
    ///
    /// The turn is the caller's before this returns, and it is taken where the connection is seen
    /// free: any `await`, even a call into this same actor, is a point where the actor may run
    /// other calls. Under a task executor preference (a fetch's sources each have one) it does:
    /// there, a wait that returned on seeing the connection free let three sources begin on top of
    /// one another, and a waiter entered the queue only after the turn it waited behind had ended.
    package func take(isolation: isolated (any Actor) = #isolation) async -> IngestTicket {
        lastTicket += 1
        let ticket = IngestTicket(number: lastTicket)
        guard holder != nil else {
            holder = (ticket, nil)
            return ticket
        }
        await withCheckedContinuation { waiting in
            // Other calls may have run since the check above: look again, here, on the actor.
            if holder == nil {
                holder = (ticket, nil)
                waiting.resume()
            } else {
                waiters.append((ticket, waiting))  // `end` hands it the turn, then resumes it.
            }
        }
        return ticket
    }

    /// Makes the turn `ticket` an ingest's, with its `context`, until `end`.
    package func begin(_ ticket: IngestTicket, _ context: Context) {
        precondition(holder?.ticket == ticket, "an ingest begins only on a turn it took")
        holder = (ticket, context)
    }

    /// The context of the ingest `ticket` names, which must hold the connection.
    package func context(of ticket: IngestTicket, in database: String) throws(StoreError) -> Context {
        guard let holder, holder.ticket == ticket, let context = holder.context else {
            throw StoreError(path: database, "the ingest transaction has already ended")
        }
        return context
    }

    /// True when a write holds the connection.
    package var isHeld: Bool {
        holder != nil
    }

    /// True when `ticket` holds the connection.
    package func holds(_ ticket: IngestTicket) -> Bool {
        holder?.ticket == ticket
    }

    /// Ends the turn `ticket`, if it still holds the connection, and hands the connection to the
    /// first waiter.
    package func end(_ ticket: IngestTicket) {
        guard holds(ticket) else { return }
        guard !waiters.isEmpty else {
            holder = nil
            return
        }
        let next = waiters.removeFirst()
        holder = (next.ticket, nil)
        next.resume.resume()
    }
}
