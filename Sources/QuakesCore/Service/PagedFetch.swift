import Locking

/// Reads a time range of an FDSN service in windows, each stored in one transaction with the
/// progress it makes: the engine of `backfill` and `sync`.
///
/// Windows never overlap and leave no gap: window `[a, b)` asks the service for `starttime=a`
/// and `endtime=b` (whole seconds, both inclusive, as ComCat reads them) and keeps the features
/// with `a ≤ time < b`, so an event on a boundary second is stored by exactly one window. No
/// request carries `limit`, so ComCat never cuts an answer short: a window that matches more
/// than the cap is refused (HTTP 400, with the count), and is split into as many parts as that
/// count needs. The next window is sized from the density of the last, aiming at `fill` of the
/// cap, so that requests stay close to the fewest possible.
struct PagedFetch {
    var service: FDSNService
    /// What the service is asked, besides times: the plan's filter, or, for a sync, a wider one.
    var asked: FDSNFilter
    /// The plan's key: the `FeedState` URL its progress is kept under.
    var key: String
    /// Parameters asked besides the filter and the window's times (`includedeleted`, `updatedafter`).
    var extraParameters: [(name: String, value: String)] = []
    var settings: FetchSettings
    var store: any QuakeWriting
    var downloader: any Downloader
    /// The service's cap: no answer holds more events.
    var cap = FDSNService.resultCap
    /// How full of the cap a window is aimed to be.
    var fill = 0.85
    /// How many windows are requested at once.
    var concurrency = 1
    /// Seconds between one request's end and the next one's start, in each of the `concurrency` slots.
    var pause: Double = 0.5
    /// Which features of a window are stored, besides those outside its time range, which never are.
    var admits: (@Sendable ([Quake]) async throws -> [Bool])?
    /// Told of every stored or refused window.
    var observer: (@Sendable (PagedFetchReport) -> Void)?

    /// A window whose answer held as many events as the cap: maybe cut short by a service that does
    /// so silently. It is rolled back and split.
    private struct WindowFull: Error {}

    private enum Outcome: Sendable {
        case stored(IngestReport)
        /// Refused for matching too many events, after `attempts` requests (transient failures retried).
        case refused(matching: Int?, cap: Int?, attempts: Int)
    }

    /// Reads what `progress` has not yet stored; returns what this run did, with the progress it
    /// left, and the error that stopped it early (everything before it stays stored). Cancellation
    /// is thrown: the interrupted window is rolled back, those before it stay.
    func run(from progress: ServiceProgress) async throws -> (PagedFetchReport, (any Error)?) {
        var state = progress
        let shared = Locked(progress)
        var report = PagedFetchReport(progress: progress)
        var queue = state.gaps(before: state.frontier)
        var cursor = state.frontier
        var cap = self.cap
        /// The end of the last window the service refused, and how many events it said are in it.
        var known: (end: Int64, count: Int)?
        let started = ContinuousClock.now

        func nextWindow() -> Range<Int64>? {
            if !queue.isEmpty { return queue.removeFirst() }
            guard cursor < state.until else { return nil }
            let end = min(state.until, Self.wholeSecond(after: cursor, by: state.span))
            defer { cursor = end }
            return cursor..<end
        }

        var failure: (any Error)?
        do {
            try await withThrowingTaskGroup(of: (Range<Int64>, Outcome).self) { group in
                var inFlight = 0
                var firstRequest = true
                while true {
                    while inFlight < concurrency, let window = nextWindow() {
                        let pause = firstRequest ? 0 : pause
                        firstRequest = false
                        group.addTask { [self, cap] in
                            if pause > 0 { try await Task.sleep(for: .milliseconds(Int64(pause * 1000))) }
                            return (window, try await fetch(window, cap: cap, shared: shared))
                        }
                        inFlight += 1
                    }
                    guard inFlight > 0, let (window, outcome) = try await group.next() else { break }
                    inFlight -= 1
                    switch outcome {
                    case let .stored(ingest):
                        state.finish(window)
                        state.windows += 1
                        state.requests += ingest.attempts
                        state.features += ingest.features
                        let received = ingest.features + ingest.leftOut
                        let aim = Double(cap) * fill
                        if let bound = known, window.upperBound < bound.end, queue.isEmpty {
                            // What is left of the last refused window holds its count less what came:
                            // size the next window from that remainder's density.
                            known?.count = max(0, bound.count - received)
                            let remainder = Double(bound.end - window.upperBound)
                            let left = Double(known?.count ?? 0)
                            state.span = Int64(max(1000, left <= aim ? remainder : remainder * aim / left))
                        } else {
                            // Aim the next window at `fill` of the cap, growing at most sixteenfold at
                            // a time (out of a burst quickly; a refusal costs one request and says by
                            // how much).
                            known = nil
                            let length = Double(window.upperBound - window.lowerBound)
                            let scaled = received > 0 ? length * aim / Double(received) : length * 16
                            state.span = Int64(max(1000, min(length * 16, scaled, Double(Int64.max / 4))))
                        }
                        report.add(ingest)
                    case let .refused(matching, limit, attempts):
                        // The service says its cap when it refuses: ComCat's is 20,000, another's may differ.
                        if let limit, limit > 0 { cap = limit }
                        state.requests += attempts
                        state.refused += 1
                        report.refused += 1
                        report.requests += attempts
                        report.retried += attempts - 1
                        let parts = max(2, Int((Double(matching ?? 0) / (Double(cap) * fill)).rounded(.up)))
                        guard let pieces = Self.split(window, into: parts) else {
                            throw ServiceFault(
                                service: service.base,
                                reason: "answers more than \(cap) events even for the second from "
                                    + "\(FDSNService.time(window.lowerBound)), which no window can page")
                        }
                        state.span = max(1000, pieces[0].upperBound - pieces[0].lowerBound)
                        if window.upperBound == cursor, queue.isEmpty {
                            // The newest window: the next ones start from it again, at the new length.
                            cursor = window.lowerBound
                            known = matching.map { (window.upperBound, $0) }
                        } else {
                            queue.insert(contentsOf: pieces, at: 0)
                        }
                    }
                    shared.withLock { $0 = state }
                    report.progress = state
                    report.seconds = (ContinuousClock.now - started).seconds
                    report.windowsLeft = queue.count + Int((state.until - cursor + state.span - 1) / max(1, state.span))
                    observer?(report)
                }
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            failure = error
        }
        report.progress = state
        report.seconds = (ContinuousClock.now - started).seconds
        return (report, failure)
    }

    /// Downloads and stores one window, or says it was refused for matching too many events.
    private func fetch(_ window: Range<Int64>, cap: Int, shared: Locked<ServiceProgress>) async throws -> Outcome {
        let start = Self.wholeSecond(atOrBefore: window.lowerBound)
        let end = Self.wholeSecond(after: window.upperBound - 1, by: 1)
        let parameters =
            [("format", "geojson")] + asked.parameters + extraParameters
            + [("starttime", FDSNService.time(start)), ("endtime", FDSNService.time(end))]
        let url = service.queryURL(parameters)
        let source = FeedSource(service: url)
        var ingest = FeedIngest(source: source, settings: settings, store: store, downloader: downloader)
        let admits = admits
        ingest.selection = { quakes in
            let extra = try await admits?(quakes)
            return quakes.indices.map { index in
                let quake = quakes[index]
                let inWindow = quake.isDeleted || window.contains(quake.time)
                return inWindow && (extra?[index] ?? true)
            }
        }
        let key = key
        let clock = settings.clock
        ingest.record = { report in
            guard report.features + report.leftOut < cap else { throw WindowFull() }
            var progress = shared.withLock { $0 }
            progress.finish(window)
            progress.windows += 1
            progress.requests += report.attempts
            progress.features += report.features
            return FeedState(
                url: key, etag: nil, lastModified: nil, fetched: report.generated ?? 0, checked: clock(),
                outcome: progress.complete ? "complete" : "running", progress: progress.encoded())
        }
        do {
            return .stored(try await ingest.run())
        } catch {
            if error.error is WindowFull { return .refused(matching: nil, cap: nil, attempts: error.attempts) }
            if let refusal = FDSNService.refusal(of: error.error) {
                return .refused(matching: refusal.matching, cap: refusal.cap, attempts: error.attempts)
            }
            throw error.error
        }
    }

    /// The first whole second at or after `start + length`.
    static func wholeSecond(after start: Int64, by length: Int64) -> Int64 {
        let end = start + max(1, length)
        return end % 1000 == 0 ? end : (end / 1000 + (end > 0 ? 1 : 0)) * 1000
    }

    /// The whole second at or before `time`.
    static func wholeSecond(atOrBefore time: Int64) -> Int64 {
        CivilTime.floorDivide(time, 1000) * 1000
    }

    /// `window` cut at whole seconds into `parts` windows of about equal length (fewer when it
    /// holds fewer whole seconds); nil when no whole second falls strictly inside it, so that no
    /// request can ask for less of it.
    static func split(_ window: Range<Int64>, into parts: Int) -> [Range<Int64>]? {
        let first = wholeSecond(atOrBefore: window.lowerBound) + 1000
        let last = wholeSecond(after: window.upperBound - 1, by: 1) - 1000
        guard first <= last, first < window.upperBound, last > window.lowerBound else { return nil }
        let length = window.upperBound - window.lowerBound
        var cuts: [Int64] = []
        for part in 1..<Int64(max(2, parts)) {
            let cut = min(last, max(first, wholeSecond(atOrBefore: window.lowerBound + length * part / Int64(parts))))
            if cut > (cuts.last ?? window.lowerBound), cut < window.upperBound { cuts.append(cut) }
        }
        let bounds = [window.lowerBound] + cuts + [window.upperBound]
        return zip(bounds, bounds.dropFirst()).map { $0..<$1 }
    }
}
