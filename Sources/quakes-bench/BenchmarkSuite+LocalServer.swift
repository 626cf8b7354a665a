import Foundation
import LocalHTTPServer
import Locking
import QuakesCore

extension BenchmarkSuite {
    /// A backfill of 1,000,000 events (50,000 in the quick run) over five years, with an aftershock
    /// burst of 30,000 in twenty minutes, from the FDSN emulator at ComCat's cap; then the same
    /// requests asked of the emulator alone, to say how much of the time is the emulator's.
    mutating func backfill() throws {
        let size = quick ? 50_000 : 1_000_000
        let label = quick ? "50k" : "1M"
        let start: Int64 = 1_577_836_800_000  // 2020-01-01T00:00:00Z
        let end = start + 5 * 365 * 86_400_000
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let emulator = FDSNEmulator(server: server, now: { end + 86_400_000 })
        let burst = (at: start + 1000 * 86_400_000, events: 30_000, spanMilliseconds: Int64(20 * 60_000))
        emulator.replace(
            FDSNEmulator.catalogue(count: size - burst.events, from: start, to: end, seed: 2026, bursts: [burst]))
        let events = emulator.events.filter { !$0.isDeleted }.count
        let database = work.appendingPathComponent("backfill.sqlite").path
        remove(database)
        let before = emulator.requests.query
        let run = try Runner.measure(
            [
                quakes, "backfill", "-q", "--db", database, "--service", emulator.serviceURL, "--pause", "0",
                "--since", "2020-01-01T00:00:00Z", "--until", "2024-12-30T00:00:00Z", "--utc",
            ], errors: log("backfill"))
        let requests = emulator.requests.query - before
        let minimum = (events + emulator.cap - 1) / emulator.cap
        guard try rowCount(database) == events else {
            throw BenchmarkError("the backfill stored \(try rowCount(database)) events of \(events)")
        }
        results.append(
            Result(
                name:
                    "backfill \(label) events from the FDSN emulator (\(requests) requests, fewest possible \(minimum))",
                summary: Summary(runs: [run]), items: events))
        // The same requests, their answers read and dropped: the emulator's share of the time.
        let urls = server.received.suffix(requests).map { server.url($0.path) }
        let started = ContinuousClock.now
        try Self.readAndDrop(urls)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        results.append(
            Result(
                name: "the emulator alone, answering the backfill's \(requests) requests",
                summary: Summary(runs: [Measurement(seconds: seconds, peakKilobytes: 0, status: 0)]), items: events))
    }

    /// Downloads each URL with the downloader quakes uses, dropping the bytes; refusals (the 400s
    /// that told the backfill to split a window) count as answers.
    private static func readAndDrop(_ urls: [String]) throws {
        final class Discard: ByteSink {
            func receive(_ bytes: UnsafeRawBufferPointer) throws {}
            func finish() throws {}
        }
        let failure = Locked<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            for url in urls {
                do {
                    _ = try await CurlDownloader().download(
                        DownloadRequest(url: url, userAgent: "quakes-bench"), into: Discard())
                } catch DownloadError.httpStatus(_, 400, _, _) {
                    continue
                } catch {
                    failure.withLock { $0 = error }
                    break
                }
            }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// A fetch that the server answers with 304 Not Modified.
    mutating func notModified() throws {
        let server = try LocalHTTPServer()
        let body = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("all_day-2020-10-28T2257Z.geojson")))
        server.route("/all_day.geojson", .conditional(body: body, etag: "\"bench\"", lastModified: nil))
        let database = work.appendingPathComponent("conditional.sqlite").path
        remove(database)
        _ = try Runner.measure(
            [quakes, "fetch", "-q", "--db", database, server.url("/all_day.geojson")], errors: log("304"))
        let runs = try (0..<(quick ? 3 : 20)).map { _ in
            try Runner.measure(
                [quakes, "fetch", "-q", "--db", database, server.url("/all_day.geojson")], errors: log("304"))
        }
        results.append(Result(name: "fetch answered 304 Not Modified", summary: Summary(runs: runs)))
    }
}
