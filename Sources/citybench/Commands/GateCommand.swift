import CitySearch
import CitySearchBench
import CitySearchCatalog
import Foundation

/// `citybench gate`: the latency regression gate against the committed baseline.
enum GateCommand: Command {
  static let name = "gate"
  static let summary = "compare a run with the committed baseline (the CI regression gate)"

  static let synopsis = "citybench gate [options]"

  static let discussion = """
    Compares a run with the committed baseline (Benchmarks/baseline-TIER.json) under the
    committed thresholds (Benchmarks/thresholds.json). Gated per backend: the p50, p90 and
    p99 of its paired ratios to the reference (measured within each run, so a change of
    machine cancels out), the bytes its index counts, and its conformance. A ratio regresses
    only when its whole 95% interval of change lies beyond the allowed growth: the threshold,
    or the noise the reference shows against itself (A/A) if that is larger.

    With instruction counts in the baseline (recorded with --instructions), also gated: each
    counted backend's instructions per keystroke (p50, p99, total) under callgrind, which a
    busy machine does not move, against tight thresholds. With allocation counts in the
    baseline (--allocations), each counted backend's allocation calls per keystroke (p99,
    total), exact with deterministic hashing.

    Runs whose settings differ (corpus, workload, mode, limit, rounds, warm-up, budget, build
    configuration, backends, the keystrokes each backend was timed on) are not compared: the
    gate stops with an error naming each difference. Counts one run holds and the other does
    not, or counted by another valgrind version, are listed as not compared (a warning) and the
    rest is gated. A ratio whose A/A noise allows more than twice its threshold (and +100%) is
    inconclusive: the gate is blind to smaller changes. Without --current, it runs the
    benchmark first with the baseline's settings and backends (instructions only where
    valgrind is on PATH).
    Writes verdict.json and verdict.md to --out and prints the summary.
    Exit status: 0 pass, 2 regression, 3 inconclusive, 1 error.
    """

  static var options: [CommandOption] {
    BenchOptions.options
      + [
        .value("--current", "FILE", "gate this results.json instead of running the benchmark"),
        .value(
          "--baseline", "FILE",
          "(default: this machine's Benchmarks/baseline-TIER-FINGERPRINT.json if there is one, else Benchmarks/baseline-TIER.json)"
        ),
        .flag(
          "--machine-baseline",
          "read (or with --update-baseline, write) this machine's own baseline, named by its fingerprint (\(RunEnvironment.machine.fingerprint) here: CPU model, cores, memory, operating system); when there is none yet, the run is recorded as it (exit 0, no verdict)"
        ),
        .value("--thresholds", "FILE", "(default: Benchmarks/thresholds.json)"),
        .flag("--update-baseline", "write the run as the new baseline instead of gating it"),
        .value("--out", "DIR", "where the verdict and the run's reports go (default: citybench-gate)"),
        .value(
          "--junit", "FILE",
          "also write the verdict as JUnit XML (a test case per metric: a regression fails, an inconclusive metric is skipped)"
        ),
      ]
  }

  static let epilogue = """
    In CI: with $GITHUB_STEP_SUMMARY set, the verdict's Markdown is appended to it (a file
    that cannot be written is a warning; the verdict and JUnit are still written); under
    GitHub Actions ($GITHUB_ACTIONS=true), each regression is printed as an ::error, and each
    inconclusive metric and each count not compared as a ::warning annotation (docs/CI.md).
    """

  static func run(_ args: ParsedArguments) throws -> Int32 {
    // Options that would be ignored are refused: --current gates a run already made.
    if args["--current"] != nil,
      let ignored = BenchOptions.valued.subtracting(CorpusOptions.valued).sorted().first(where: { args[$0] != nil })
    {
      throw UsageError(message: "option '\(ignored)' sets up a benchmark run, and --current gates one already made")
    }
    if args["--shard"] != nil {
      throw UsageError(
        message:
          "the gate compares whole runs: time the shards with 'bench --shard K/N', join them with 'citybench merge', and gate the merged results.json with --current"
      )
    }
    if args["--relevance"] == "on" {
      throw UsageError(message: "the gate compares latency only; it takes no '--relevance on'")
    }
    var options = try BenchOptions(args)
    options.relevance = false  // the gate compares latency; relevance is the tests' and the reports' concern
    let tier = options.corpus.corpus
    // The verdict, and the run's reports when it makes one, change in --out as one set.
    let verdictFiles: Set<String> = ["verdict.json", "verdict.md"]
    let out = args["--out"] ?? "citybench-gate"
    let reports = try ReportDirectory(
      out, family: args["--current"] == nil ? verdictFiles.union(ReportFormat.family(in: out)) : verdictFiles)
    let directory = reports.path
    let updating = args.has("--update-baseline")
    guard let baselinePath = args["--baseline"] ?? defaultBaseline(options, tier: tier, args: args) else {
      throw CommandError(message: "cannot find Benchmarks/; pass --baseline FILE")
    }
    let baselineExists = FileManager.default.fileExists(atPath: baselinePath)
    // The first gate run on a new runner class records its machine's baseline.
    let firstOnThisMachine = !updating && !baselineExists && args.has("--machine-baseline") && args["--current"] == nil
    if firstOnThisMachine {
      emit("no baseline for this machine yet (\(baselinePath)): recording this run as it, with no verdict\n")
    }
    // Everything the comparison needs is read before the run, which may take minutes.
    var gateInputs: (baseline: BenchResults, thresholds: GateThresholds)?
    if !updating && !firstOnThisMachine {
      guard baselineExists else {
        throw CommandError(
          message: "no baseline at \(baselinePath); record one with 'citybench gate --update-baseline'")
      }
      guard
        let thresholdsPath = args["--thresholds"] ?? options.corpus.packageFile("Benchmarks/thresholds.json")
      else {
        throw CommandError(message: "cannot find Benchmarks/thresholds.json; pass --thresholds FILE")
      }
      let thresholds = try GateThresholds(contentsOf: thresholdsPath).applying(
        allowances: BackendCatalog.gateAllowances)
      gateInputs = (try BenchResults(contentsOf: baselinePath), thresholds)
    }

    // The run to gate (or to record).
    let current: BenchResults
    let currentPath: String
    if let path = args["--current"] {
      current = try BenchResults(contentsOf: path)
      currentPath = path
    } else {
      if let gateInputs { try options.adopt(gateInputs.baseline, explicit: args) }
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
    try CIOutput.publish(report, junit: args["--junit"])
    print(report.markdown)
    print(
      "verdict: \(report.verdict.rawValue) (exit \(report.exitStatus)); written to \(directory)/verdict.json and verdict.md"
    )
    return report.exitStatus
  }
}

extension GateCommand {
  /// `Benchmarks/baseline-TIER-FINGERPRINT.json`, this machine's own baseline, when it exists
  /// or `--machine-baseline` asks for it; else `Benchmarks/baseline-TIER.json`.
  static func defaultBaseline(_ options: BenchOptions, tier: String, args: ParsedArguments) -> String? {
    guard let benchmarks = options.corpus.packageFile("Benchmarks") else { return nil }
    let own = "\(benchmarks)/baseline-\(tier)-\(RunEnvironment.machine.fingerprint).json"
    if args.has("--machine-baseline") || FileManager.default.fileExists(atPath: own) { return own }
    return "\(benchmarks)/baseline-\(tier).json"
  }
}

extension BenchOptions {
  /// Takes the baseline's settings: its mode, limit, rounds, budget, warm-up and seed, its
  /// backends and the keystrokes each was timed on, and the backends whose instructions and
  /// allocation calls it counted. A setting the command line gives that differs from the baseline's is refused,
  /// since the comparison would be refused after the run.
  mutating func adopt(_ baseline: BenchResults, explicit args: ParsedArguments) throws {
    let metadata = baseline.metadata
    func refuse(_ option: String, _ given: String, _ recorded: String) throws {
      throw UsageError(
        message:
          "\(option) \(given) differs from the baseline's \(recorded); the gate compares runs with the same settings (leave it out to take the baseline's, or record a new baseline with --update-baseline)"
      )
    }
    if args["--mode"] != nil, configuration.mode.rawValue != metadata.mode {
      try refuse("--mode", configuration.mode.rawValue, metadata.mode)
    }
    if args["--limit"] != nil, configuration.limit != metadata.limit {
      try refuse("--limit", "\(configuration.limit)", "\(metadata.limit)")
    }
    if args["--rounds"] != nil, configuration.rounds != metadata.rounds {
      try refuse("--rounds", "\(configuration.rounds)", "\(metadata.rounds)")
    }
    if args["--budget"] != nil, configuration.budgetSeconds != metadata.budgetSeconds {
      try refuse(
        "--budget", String(format: "%g s", configuration.budgetSeconds), String(format: "%g s", metadata.budgetSeconds))
    }
    if args["--warm-up"] != nil, configuration.warmUpKeystrokes != metadata.warmUpKeystrokes {
      try refuse("--warm-up", "\(configuration.warmUpKeystrokes)", "\(metadata.warmUpKeystrokes)")
    }
    if let mode = MatchMode(rawValue: metadata.mode) { configuration.mode = mode }
    configuration.limit = metadata.limit
    configuration.rounds = metadata.rounds
    configuration.budgetSeconds = metadata.budgetSeconds
    configuration.warmUpKeystrokes = metadata.warmUpKeystrokes
    if args["--seed"] == nil { configuration.seed = metadata.seed }

    let recorded = baseline.backends.map(\.name).filter { $0 != baseline.reference }
    if let given = backends {
      let names = try Self.backendNames(given).filter { $0 != baseline.reference }
      if Set(names) != Set(recorded) {
        try refuse("--backends", names.joined(separator: ","), recorded.joined(separator: ","))
      }
    }
    backends = recorded.joined(separator: ",")
    configuration.strides = Dictionary(
      uniqueKeysWithValues: baseline.backends.map { ($0.name, $0.sampling.stride) })
    // The backends whose counts the baseline holds are counted again; another list is refused.
    func counted(_ option: String, given: [String], holds: (BackendResults) -> Bool) throws -> [String] {
      let names = baseline.backends.filter(holds).map(\.name)
      if args[option] != nil, Set(given) != Set(names) {
        try refuse(
          option, given.isEmpty ? "off" : given.joined(separator: ","),
          names.isEmpty ? "off" : names.joined(separator: ","))
      }
      return names
    }
    instructionBackends = try counted("--instructions", given: instructionBackends) { $0.instructions != nil }
    allocationBackends = try counted("--allocations", given: allocationBackends) { $0.allocations != nil }
    // A runner without valgrind gates everything else; the verdict lists the counts it skipped.
    if !instructionBackends.isEmpty, let reason = CallgrindRun.unavailable {
      standardError("citybench gate: warning: the baseline counts instructions, but \(reason); not counting them")
      instructionBackends = []
    }
  }
}
