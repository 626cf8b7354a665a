import Glibc

/// What a fetch did, as the text lines people read and the JSON scripts read.
struct FetchSummary {
    var sources: [FeedSource]
    var outcomes: [Result<IngestReport, IngestFailure>]
    /// The vanished events of each summary feed stored, by position.
    var vanished: [Int: VanishedEvents.Report] = [:]
    var seconds: Double

    /// One line per source that succeeded, after a warning for each of its first skipped features:
    /// `all_day: 312 features, 5 new, 2 updated, 305 unchanged, 0 skipped (0.21 s)`.
    func text() -> String {
        var text = ""
        for (position, outcome) in outcomes.enumerated() {
            guard case let .success(report) = outcome else { continue }
            let label = report.source.label
            let timing =
                String(cFormat: "%.2f s", report.seconds) + (report.attempts > 1 ? ", \(report.attempts) attempts" : "")
            guard report.status == .ok else {
                text += "\(label): not modified (\(timing))\n"
                continue
            }
            for problem in report.problems {
                text += "Warning: \(label): skipped \(problem)\n"
            }
            if report.skipped > report.problems.count {
                text += "Warning: \(label): skipped \(report.skipped - report.problems.count) more features\n"
            }
            let events = report.commit ?? StoreCommit(token: nil)
            text +=
                "\(label): \(report.features) features, \(events.inserted) new, \(events.updated) updated, "
                + "\(report.counts.unchanged) unchanged, "
                + (events.deleted > 0 ? "\(events.deleted) deleted, " : "")
                + "\(report.skipped) skipped"
                + (vanished[position].map { ", \($0.ids.count) vanished" } ?? "") + " (\(timing))\n"
            for confirmation in vanished[position]?.confirmations ?? [] {
                text += "\(label): \(confirmation.text)\n"
            }
        }
        return text
    }

    /// `{"sources":[{"source":…,"status":"ok","features":n,…}],"seconds":s}`.
    func json() -> JSONValue {
        let entries = zip(sources, outcomes).enumerated().map { position, pair -> JSONValue in
            let (source, outcome) = pair
            switch outcome {
            case let .success(report):
                let events = report.commit ?? StoreCommit(token: nil)
                let vanished = vanished[position] ?? VanishedEvents.Report()
                return .object([
                    ("source", .string(source.label)),
                    ("status", .string(report.status.rawValue)),
                    ("features", .integer(report.features)),
                    ("inserted", .integer(events.inserted)),
                    ("updated", .integer(events.updated)),
                    ("unchanged", .integer(report.counts.unchanged)),
                    ("deleted", .integer(events.deleted)),
                    ("skipped", .integer(report.skipped)),
                    (
                        "problems",
                        .array(
                            report.problems.map { problem in
                                .object([
                                    ("index", .integer(problem.index)), ("id", .string(problem.id)),
                                    ("reason", .string(problem.reason)),
                                ])
                            })
                    ),
                    ("url", .string(report.url)),
                    ("bytes", .integer(report.bodyBytes)),
                    ("attempts", .integer(report.attempts)),
                    ("token", .integer(report.commit?.token)),
                    ("seconds", .number(rounded(report.seconds))),
                    ("vanished", .array(vanished.ids.map(JSONValue.string))),
                    ("confirmed", .array(vanished.confirmations.map(\.json))),
                ])
            case let .failure(failure):
                return .object([
                    ("source", .string(source.label)),
                    ("status", .string("error")),
                    ("error", .string(String(describing: failure.error))),
                    ("exitCode", .integer(Int(ExitStatus(for: failure).code))),
                    ("attempts", .integer(failure.attempts)),
                ])
            }
        }
        let status = exitStatus
        return .object([
            ("sources", .array(entries)), ("status", .string(status == .success ? "ok" : "error")),
            ("exitCode", .integer(Int(status.code))), ("seconds", .number(rounded(seconds))),
        ])
    }

    /// The JSON of a fetch that failed before any source could be tried, or as a whole.
    static func failure(error: any Error, status: ExitStatus) -> JSONValue {
        let message =
            status == Interruption.status(for: SIGINT) || status == Interruption.status(for: SIGTERM)
            ? "interrupted; nothing unfinished was stored" : String(describing: error)
        return .object([
            ("sources", .array([])), ("status", .string("error")), ("error", .string(message)),
            ("exitCode", .integer(Int(status.code))), ("seconds", .number(0)),
        ])
    }

    /// Success, or the status of the first source that failed.
    var exitStatus: ExitStatus {
        for case let .failure(error) in outcomes { return ExitStatus(for: error) }
        return .success
    }

    private func rounded(_ seconds: Double) -> Double {
        (seconds * 1000).rounded() / 1000
    }
}

extension JSONValue {
    static func integer(_ value: Int) -> JSONValue { .integer(Int64(value)) }
}
