import CitySearch
import CitySearchBench
import Foundation

/// `citybench bench`: the per-keystroke latency benchmark.
enum BenchCommand: Command {
  static let name = "bench"
  static let summary = "the per-keystroke latency benchmark and its reports"

  static let usage = """
    Usage: citybench bench [options]

    Replays typing sessions keystroke by keystroke through every selected backend. For each
    keystroke the backends answer in a freshly shuffled order (paired samples), each answer is
    checked against the reference's, and the time of each is taken with a monotonic clock.
    Reports per backend: latency p50/p90/p99/p99.9/max with bootstrap 95% intervals, overall,
    by query length and by input style; the paired ratio to the reference; time to final
    results per session; build time; memory; conformance. Exit status 0, or 1 when a backend's
    answer differed from the reference's (the reports are written either way). The reports in
    --out change as one set: an interrupted or failed run leaves the earlier set whole.

    Options:
    \(BenchOptions.help)
      --out DIR             where the reports go (default: citybench-report)
      --format LIST         which reports: json,md,csv,html (default: all)
      -h, --help            show this help
    """

  static let spec = ParsedArguments.Spec(
    valued: BenchOptions.valued.union(["--out", "--format"]), maximumPositionals: 0)

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let options = try BenchOptions(args)
    let formats = try reportFormats(args["--format"])
    // The output is checked before the run, which may take minutes.
    let reports = try ReportDirectory(args["--out"] ?? "citybench-report", family: ReportFormat.family)
    let (results, raw, workload) = try options.run()
    try ReportFormat.stage(formats, results: results, raw: raw, workload: workload, in: reports)
    let written = try Interruption.shared.commit(reports)
    print(summary(results))
    print("")
    print("reports: \(written.joined(separator: ", "))")
    return results.conforms ? 0 : 1
  }

  static func reportFormats(_ list: String?) throws -> [ReportFormat] {
    guard let list else { return ReportFormat.allCases }
    return try list.split(separator: ",").map { name in
      guard let format = ReportFormat(rawValue: String(name)) else {
        throw UsageError(message: "unknown report format '\(name)' (json, md, csv, html)")
      }
      return format
    }
  }

  /// The terminal summary: one row per backend.
  static func summary(_ results: BenchResults) -> String {
    let m = results.metadata
    var rows: [[String]] = [
      ["backend", "p50", "p99", "max", "× \(results.reference) (p50)", "build", "heap", "answers"]
    ]
    for b in results.backends {
      let l = b.latency
      let ns = { (e: Estimate?) in e.map { Formatting.duration(nanoseconds: $0.value) } ?? "–" }
      let status: String
      if b.name == results.reference {
        status = "reference"
      } else if b.conformance.divergences == 0 {
        status = "\(Formatting.count(b.conformance.checked)) match"
      } else {
        status = "\(Formatting.count(b.conformance.divergences)) DIFFER"
      }
      rows.append([
        b.name + (b.sampling.stride > 1 ? " *" : ""), ns(l?.p50), ns(l?.p99), ns(l?.max),
        b.ratioToReference.map { Formatting.ratio($0.p50.value) } ?? "1×", Formatting.seconds(b.build.seconds),
        b.build.heapBytes.map(megabytes) ?? "n/a", status,
      ])
    }
    var out =
      "\(m.corpus.name), \(m.mode) mode: \(Formatting.count(m.workload.keystrokes)) keystrokes × \(m.rounds) rounds, \(m.buildConfiguration) build\n"
    out += terminalTable(rows) + "\n"
    if let noise = results.noiseFloor {
      out +=
        "noise floor (\(results.reference) A/A): p50 \(Formatting.ratio(noise.p50.value)), p99 \(Formatting.ratio(noise.p99.value))\n"
    }
    for note in MarkdownReport.samplingNotes(results) { out += "* " + note + "\n" }
    if let headline = Headline.sentences(results).first {
      out += headline.replacingOccurrences(of: "**", with: "") + "\n"
    }
    out +=
      results.conforms ? "conformance: every answer matches the reference" : "conformance: DIVERGENCES (see report.md)"
    return out
  }
}
