import Foundation

/// The figures of the BENCHMARKS.md a run replaces, so that the new report shows every case's last
/// median beside its new one, and keeps the cases the new run no longer has: a regression, or a case
/// renamed, stays in sight.
struct PreviousReport {
    /// The commit the figures were measured at.
    var commit = "unknown"
    /// Each case's median, as it was written, in the table's order.
    var medians: [(name: String, median: String)] = []

    /// The figures of the report at `path`, or none when there is no such file or table.
    init(contentsOf path: String?) {
        guard let path, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        var columns: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("- Commit: ") {
                commit = String(line.dropFirst("- Commit: ".count))
                continue
            }
            guard line.hasPrefix("| ") else {
                // The cases' table is the first; the targets' follows it.
                if !columns.isEmpty { break }
                continue
            }
            let cells = line.dropFirst(2).dropLast(line.hasSuffix(" |") ? 2 : 0)
                .components(separatedBy: " | ").map { $0.trimmingCharacters(in: .whitespaces) }
            if columns.isEmpty {
                columns = cells
                continue
            }
            guard let name = columns.firstIndex(of: "case"), let median = columns.firstIndex(of: "median"),
                cells.count == columns.count, !cells[name].hasPrefix("---")
            else { continue }
            medians.append((cells[name], cells[median]))
        }
    }

    /// The median `name` had, if the previous report had that case.
    func median(of name: String) -> String? {
        medians.first { $0.name == name }?.median
    }
}
