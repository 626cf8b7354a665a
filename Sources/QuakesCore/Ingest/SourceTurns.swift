/// The order in which the sources of one fetch store what they download: each begins its
/// transaction once every source before it has ended (stored, or failed), so what each counts as
/// new, updated or unchanged is the same whatever order the downloads finish in. The downloads
/// still run at once; a source whose turn has not come waits with its first chunks, and that wait,
/// spent in the download's sink, is not counted against its timeout.
actor SourceTurns {
    /// The first source that has not ended: every one before it has.
    private var next = 0
    private var ended: Set<Int> = []
    private var waiting: [Int: CheckedContinuation<Void, Never>] = [:]

    /// Returns once every source before `position` has ended.
    func wait(for position: Int) async {
        guard next < position else { return }
        await withCheckedContinuation { waiting[position] = $0 }
    }

    /// Says that the source at `position` has ended; each source ends once, however it ends (a
    /// cancelled one too, so that no later source waits for ever).
    func end(_ position: Int) {
        ended.insert(position)
        while ended.contains(next) { next += 1 }
        for (position, continuation) in waiting where position <= next {
            waiting[position] = nil
            continuation.resume()
        }
    }
}
