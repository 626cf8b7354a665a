import Foundation

/// What a fetch did, as the text lines people read and the JSON scripts read.
struct FetchSummary {
    var sources: [FeedSource]
    var outcomes: [Result<IngestReport, IngestFailure>]
    var seconds: Double

    /// One line per source that succeeded, after a warning for each of its first skipped features:
    /// `all_day: 312 features, 5 new, 2 updated, 305 unchanged, 0 skipped (0.21 s)`.
    func text() -> String {
        var text = ""
        for case let .success(report) in outcomes {
            let label = report.source.label
            let timing =
                String(format: "%.2f s", report.seconds) + (report.attempts > 1 ? ", \(report.attempts) attempts" : "")
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
            let counts = report.counts
            text +=
                "\(label): \(report.features) features, \(counts.inserted) new, \(counts.updated) updated, "
                + "\(counts.unchanged) unchanged, "
                + (counts.deleted > 0 ? "\(counts.deleted) deleted, " : "")
                + "\(report.skipped) skipped (\(timing))\n"
        }
        return text
    }

    /// `{"sources":[{"source":…,"status":"ok","features":n,…}],"seconds":s}`.
    func json() -> JSONValue {
        let entries = zip(sources, outcomes).map { source, outcome -> JSONValue in
            switch outcome {
            case let .success(report):
                let counts = report.counts
                return .object([
                    ("source", .string(source.label)),
                    ("status", .string(report.status.rawValue)),
                    ("features", .integer(report.features)),
                    ("inserted", .integer(counts.inserted)),
                    ("updated", .integer(counts.updated)),
                    ("unchanged", .integer(counts.unchanged)),
                    ("deleted", .integer(counts.deleted)),
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
        return .object([("sources", .array(entries)), ("seconds", .number(rounded(seconds)))])
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
