import Foundation
import QuakesCore

/// The rows of the table of docs/reliability.md, written by the reliability suites as they run:
/// when `QUAKES_RELIABILITY_REPORT` names a file, each case appends a tab-separated line (group,
/// case, runs, outcome) to it, and `make reliability` turns the lines into the table.
enum ReliabilityReport {
    static let path = ProcessInfo.processInfo.environment["QUAKES_RELIABILITY_REPORT"]

    static func record(_ group: String, _ name: String, runs: Int = 1, _ outcome: String) {
        guard let path else { return }
        let line =
            [group, name, String(runs), outcome]
            .map { $0.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ") }
            .joined(separator: "\t") + "\n"
        // One write of a short line to a file opened for appending lands whole, whatever else runs.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
    }

    /// `exit 65 (Error: …: not a valid GeoJSON feed: …)`: a run's status and the first line of its
    /// standard error, with the temporary paths left out.
    static func describe(_ run: QuakesRun, paths: [String] = []) -> String {
        var message = String(run.standardError.split(separator: "\n").first ?? "")
        for path in paths { message = message.replacingOccurrences(of: path, with: "…") }
        if message.count > 110 { message = String(message.prefix(107)) + "…" }
        return "exit \(run.status.code)" + (message.isEmpty ? "" : " (`\(message)`)")
    }
}
