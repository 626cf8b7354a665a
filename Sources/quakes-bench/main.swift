import Foundation
import QuakesCore

// quakes-bench: the benchmark suite of `make bench`.
//
//   quakes-bench generate --count N [--seed S] [--repeated FRACTION] [--root DIR] OUTPUT
//   quakes-bench run --quakes PATH [--quick] [--root DIR] [--work DIR] [--output FILE] [--previous FILE]
//                    [--commit SHA]   (--previous: the report whose medians go beside the new; --output by default)
//   quakes-bench ceiling SOURCE TARGET   (run by `run`: SOURCE's rows into TARGET by the store alone)
//   quakes-bench geodata [--root DIR]     (`make geodata`: packs the country outlines, times the loaders)

/// The words of the command line, taken out as they are read.
struct Words {
    var remaining = Array(CommandLine.arguments.dropFirst())

    mutating func option(_ name: String) -> String? {
        guard let index = remaining.firstIndex(of: name), index + 1 < remaining.count else { return nil }
        defer { remaining.removeSubrange(index...(index + 1)) }
        return remaining[index + 1]
    }

    mutating func flag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        return true
    }
}

var words = Words()

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
    exit(64)
}

let command = words.remaining.isEmpty ? "" : words.remaining.removeFirst()
let root = URL(fileURLWithPath: words.option("--root") ?? FileManager.default.currentDirectoryPath)

do {
    switch command {
    case "generate":
        guard let count = words.option("--count").flatMap(Int.init), count > 0 else { fail("--count N is required") }
        let seed = words.option("--seed").flatMap(UInt64.init) ?? 2021
        let repeated = words.option("--repeated").flatMap(Double.init) ?? 0
        guard let output = words.remaining.first else { fail("the output file is required") }
        var generator = try FeedGenerator(fixtures: root.appendingPathComponent("Fixtures"), seed: seed)
        try generator.write(count: count, repeated: repeated, to: output)
    case "run":
        guard let quakes = words.option("--quakes") else { fail("--quakes PATH is required") }
        let quick = words.flag("--quick")
        let work = URL(fileURLWithPath: words.option("--work") ?? root.appendingPathComponent(".build/bench").path)
        let output = words.option("--output")
        let previous = PreviousReport(contentsOf: words.option("--previous") ?? output)
        let commit = words.option("--commit") ?? "unknown"
        var suite = BenchmarkSuite(quakes: quakes, root: root, work: work, quick: quick)
        suite.postgres = words.option("--postgres")
        if words.flag("--backfill-only") {
            try suite.runBackfill()
        } else {
            try suite.run()
        }
        let report = Report(
            results: suite.results, quick: quick, commit: commit,
            previous: previous
        ).markdown()
        if let output {
            try report.write(toFile: output, atomically: true, encoding: .utf8)
        }
        print(report, terminator: "")
    case "ceiling":
        guard words.remaining.count == 2 else { fail("usage: quakes-bench ceiling SOURCE TARGET") }
        print(
            String(format: "%.6f", try await Ceiling.seconds(inserting: words.remaining[0], into: words.remaining[1])))
    case "geodata":
        print(try GeoData.regenerate(in: root.appendingPathComponent("Sources/QuakesData")))
    default:
        fail(
            "usage: quakes-bench generate --count N [--seed S] [--repeated F] OUTPUT | quakes-bench run --quakes PATH [--quick] [--output FILE] [--previous FILE] [--postgres URI] [--backfill-only] | quakes-bench geodata"
        )
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(70)
}
