import CitySearch
import CitySearchBench
import Foundation

/// `citybench gate`: the latency regression gate against the committed baseline.
enum GateCommand: Command {
  static let name = "gate"
  static let summary = "compare a run with the committed baseline (the CI regression gate)"

  static let usage = """
    Usage: citybench gate [options]

    Compares a run with the committed baseline (Benchmarks/baseline-TIER.json) under the
    committed thresholds (Benchmarks/thresholds.json). Gated per backend: the p50, p90 and
    p99 of its paired ratios to the reference (measured within each run, so a change of
    machine cancels out), the bytes its index counts, and its conformance. A ratio regresses
    only when its whole 95% interval of change lies beyond the allowed growth: the threshold,
    or the noise the reference shows against itself (A/A) if that is larger.

    Without --current, runs the benchmark first, with the baseline's mode, rounds, budget and
    seed. Writes verdict.json and verdict.md to --out and prints the summary.
    Exit status: 0 pass, 2 regression, 3 inconclusive, 1 error.

    Options:
    \(BenchOptions.help)
      --current FILE        gate this results.json instead of running the benchmark
      --baseline FILE       (default: Benchmarks/baseline-TIER.json)
      --thresholds FILE     (default: Benchmarks/thresholds.json)
      --update-baseline     write the run as the new baseline instead of gating it
      --out DIR             where the verdict and the run's reports go (default: citybench-gate)
      -h, --help            show this help
    """

  static let spec = ParsedArguments.Spec(
    valued: BenchOptions.valued.union(["--current", "--baseline", "--thresholds", "--out"]),
    flags: ["--update-baseline"], maximumPositionals: 0)

  static func run(_ args: ParsedArguments) throws -> Int32 {
    // Options that would be ignored are refused: --current gates a run already made.
    if args["--current"] != nil,
      let ignored = BenchOptions.valued.subtracting(CorpusOptions.valued).sorted().first(where: { args[$0] != nil })
    {
      throw UsageError(message: "option '\(ignored)' sets up a benchmark run, and --current gates one already made")
    }
    if args["--relevance"] == "on" {
      throw UsageError(message: "the gate compares latency only; it takes no '--relevance on'")
    }
    var options = try BenchOptions(args)
    options.relevance = false  // the gate compares latency; relevance is the tests' and the reports' concern
    let tier = options.corpus.corpus
    // The verdict, and the run's reports when it makes one, change in --out as one set.
    let verdictFiles: Set<String> = ["verdict.json", "verdict.md"]
    let reports = try ReportDirectory(
      args["--out"] ?? "citybench-gate",
      family: args["--current"] == nil ? verdictFiles.union(ReportFormat.family) : verdictFiles)
    let directory = reports.path
    guard
      let baselinePath = args["--baseline"]
        ?? options.corpus.packageFile("Benchmarks").map({ "\($0)/baseline-\(tier).json" })
    else {
      throw CommandError(message: "cannot find Benchmarks/; pass --baseline FILE")
    }
    let baselineExists = FileManager.default.fileExists(atPath: baselinePath)
    let updating = args.has("--update-baseline")
    // Everything the comparison needs is read before the run, which may take minutes.
    var gateInputs: (baseline: BenchResults, thresholds: GateThresholds)?
    if !updating {
      guard baselineExists else {
        throw CommandError(
          message: "no baseline at \(baselinePath); record one with 'citybench gate --update-baseline'")
      }
      guard
        let thresholdsPath = args["--thresholds"] ?? options.corpus.packageFile("Benchmarks/thresholds.json")
      else {
        throw CommandError(message: "cannot find Benchmarks/thresholds.json; pass --thresholds FILE")
      }
      gateInputs = (try BenchResults(contentsOf: baselinePath), try GateThresholds(contentsOf: thresholdsPath))
    }

    // The run to gate (or to record).
    let current: BenchResults
    let currentPath: String
    if let path = args["--current"] {
      current = try BenchResults(contentsOf: path)
      currentPath = path
    } else {
      if let gateInputs { options.adopt(gateInputs.baseline.metadata, explicit: args) }
      let (results, raw, workload) = try options.run()
      try ReportFormat.stage(ReportFormat.allCases, results: results, raw: raw, workload: workload, in: reports)
      current = results
      currentPath = URL(fileURLWithPath: directory).appendingPathComponent("results.json").path
      print(BenchCommand.summary(results))
      print("")
    }

    guard let (baseline, thresholds) = gateInputs else {
      try Interruption.shared.commit(reports)
      guard current.conforms else {
        throw CommandError(message: "the run has divergences from the reference; not recording it as the baseline")
      }
      try AtomicFile.write(current.jsonData(), to: baselinePath)
      print("baseline written: \(baselinePath)")
      return 0
    }
    let report: GateReport
    do {
      report = try Gate.compare(
        baseline: baseline, current: current, thresholds: thresholds, baselinePath: baselinePath,
        currentPath: currentPath)
    } catch let mismatch as GateMismatch {
      // The run's reports are kept; there is no verdict to add to them.
      if args["--current"] == nil {
        try Interruption.shared.commit(reports)
      }
      throw CommandError(message: mismatch.message)
    }
    try reports.write(report.jsonData(), named: "verdict.json")
    try reports.write(report.markdown, named: "verdict.md")
    try Interruption.shared.commit(reports)
    print(report.markdown)
    print(
      "verdict: \(report.verdict.rawValue) (exit \(report.exitStatus)); written to \(directory)/verdict.json and verdict.md"
    )
    return report.exitStatus
  }
}

extension BenchOptions {
  /// Takes the baseline's mode, limit, rounds, budget, warm-up and seed, except where the
  /// command line set them.
  mutating func adopt(_ metadata: RunMetadata, explicit args: ParsedArguments) {
    if args["--mode"] == nil, let mode = MatchMode(rawValue: metadata.mode) { configuration.mode = mode }
    if args["--limit"] == nil { configuration.limit = metadata.limit }
    if args["--rounds"] == nil { configuration.rounds = metadata.rounds }
    if args["--budget"] == nil { configuration.budgetSeconds = metadata.budgetSeconds }
    if args["--warm-up"] == nil { configuration.warmUpKeystrokes = metadata.warmUpKeystrokes }
    if args["--seed"] == nil { configuration.seed = metadata.seed }
  }
}
