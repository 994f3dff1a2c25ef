import CitySearch
import CitySearchBench
import CitySearchCatalog
import CitySearchHistory
import Foundation

/// `citybench history`: bench runs kept across commits, and their trends.
enum HistoryCommand: Command {
  static let name = "history"
  static let summary = "keep bench runs across commits (SQLite) and draw their trends with change points"

  static let defaultDatabase = "citybench-history.sqlite"
  static let defaultPage = "citybench-history.html"

  static let synopsis = """
    citybench history add [--db FILE] RESULTS.json...
    citybench history report [--db FILE] [options]
    """

  static let discussion = """
    add: stores each run (its commit, date, machine fingerprint, settings, every figure per
    backend: latency quantiles, paired ratios, build, memory, instruction counts, and the
    whole results.json) in a SQLite database file, all the files in one transaction: all of
    them or none. A file stored before is skipped; a shard is refused (merge it first).

    report: draws each backend's metrics across commits as an HTML page with SVG charts, one
    section per series of comparable runs (the same corpus, workload, settings and kind of
    machine), and marks the change points: where the runs after a commit differ from the runs
    before it by more than the gate's threshold for the metric, with no overlap (for a
    wall-clock figure, at least two runs on each side). Prints the change points.
    """

  static var options: [CommandOption] {
    [
      .value("--db", "FILE", "the history database (default: \(defaultDatabase))"),
      .value("--out", "FILE", "report: the page to write (default: \(defaultPage))"),
      .value(
        "--metrics", "A,B",
        "report: the metrics to draw (default: \(HistoryMetric.defaultReported.joined(separator: ","))); also latency.p90, latency.p999, latency.max, latency.mean, ratio.p90, ratio.p99, sessions.p50, build.seconds, build.heapBytes, countedBytes, instructions.p50, instructions.p99, conformance.divergences"
      ),
      .value("--backends", "A,B", "report: only these backends (default: all)"),
      .value("--thresholds", "FILE", "report: the change thresholds (default: Benchmarks/thresholds.json)"),
    ]
  }

  static let maximumPositionals = 100_000

  static func run(_ args: ParsedArguments) throws -> Int32 {
    guard let action = args.positionals.first else {
      throw UsageError(message: "say 'add RESULTS.json…' or 'report'")
    }
    let database = args["--db"] ?? defaultDatabase
    let files = Array(args.positionals.dropFirst())
    switch action {
    case "add":
      if let option = ["--out", "--metrics", "--backends", "--thresholds"].first(where: { args[$0] != nil }) {
        throw UsageError(message: "'\(option)' is an option of 'history report'")
      }
      guard !files.isEmpty else { throw UsageError(message: "name the results.json files to add") }
      return try add(files, database: database)
    case "report":
      guard files.isEmpty else { throw UsageError(message: "'history report' takes no files (--db names the history)") }
      return try report(args, database: database)
    default:
      throw UsageError(message: "unknown action '\(action)' (add or report)")
    }
  }

  private static func add(_ files: [String], database: String) throws -> Int32 {
    // Everything is read and checked before the database is touched.
    let runs = try files.map { path in
      (path, try BenchResults(contentsOf: path), try CorpusLoader.readFile(path, limit: BenchResults.maximumFileBytes))
    }
    let store = try HistoryStore(path: database, create: true)
    let outcomes = try store.add(runs)
    for ((path, results, _), outcome) in zip(runs, outcomes) {
      switch outcome {
      case .added(let run, let metrics):
        print("\(path): added as run \(run) (\(results.metadata.gitCommit), \(metrics) figures)")
      case .duplicate(let run):
        print("\(path): already stored as run \(run); skipped")
      }
    }
    print("\(database): \(try store.runs().count) runs")
    return ExitStatus.success
  }

  private static func report(_ args: ParsedArguments, database: String) throws -> Int32 {
    let metrics = args["--metrics"].map { $0.split(separator: ",").map(String.init) } ?? HistoryMetric.defaultReported
    let known = Set(HistoryMetric.known)
    if let unknown = metrics.first(where: { !known.contains($0) }) {
      throw UsageError(message: "unknown metric '\(unknown)' (\(HistoryMetric.known.joined(separator: ", ")))")
    }
    let backends = args["--backends"].map { Set($0.split(separator: ",").map(String.init)) }
    let thresholdsPath = args["--thresholds"] ?? CorpusOptions(directory: nil).packageFile("Benchmarks/thresholds.json")
    let thresholds = (try thresholdsPath.map { try GateThresholds(contentsOf: $0) } ?? GateThresholds.fallback)
      .applying(allowances: BackendCatalog.gateAllowances)
    let store = try HistoryStore(path: database, create: false)
    let analysis = try HistoryAnalysis(store: store, metrics: metrics, backends: backends, thresholds: thresholds)
    guard !analysis.series.isEmpty else { throw CommandError(message: "\(database) holds no runs") }
    let page = args["--out"] ?? defaultPage
    try AtomicFile.write(Data(HistoryReport.html(analysis, source: database).utf8), to: page)
    print(analysis.text)
    print("report: \(page)")
    return ExitStatus.success
  }
}
