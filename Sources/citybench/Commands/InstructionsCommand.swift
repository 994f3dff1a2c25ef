import CitySearch
import CitySearchBench
import CitySearchCatalog
import Foundation

/// `citybench instructions`: instructions per keystroke under Valgrind's callgrind, a measure
/// a busy machine does not move.
enum InstructionsCommand: Command {
  static let name = "instructions"
  static let summary = "count instructions per keystroke under callgrind (deterministic)"

  /// The backends counted unless `--backends` names others: the two an app would ship, which
  /// take about 40 s together on cities. (The others take minutes under Valgrind: icu-cached
  /// about 26 G instructions on cities, sqlite-fts5 about 9 G, against trie's 0.6 G.)
  static let defaultBackends = ["trie", "inverted-index"]

  static let synopsis = "citybench instructions [options]"

  static let discussion = """
    Replays the workload's typing sessions through each backend under Valgrind's callgrind
    and counts the instructions of every keystroke's answer (session update, normalization
    included; building the index is not counted). The counts repeat exactly from run to run
    of one binary on one machine, however busy it is: the deterministic measure beside the
    wall time of 'bench' (docs/Harness.md). Needs valgrind on PATH; takes about 40 s on
    cities with the default backends.
    """

  static var options: [CommandOption] {
    CorpusOptions.options
      + [
        .value("--workload", "FILE", "the typing sessions (default: Benchmarks/TIER.workload.tsv)"),
        .value("--backends", "A,B", "the backends to count (default: \(defaultBackends.joined(separator: ",")))"),
        .value("--mode", "syllable|seed", "(default: syllable)"),
      ]
      + FuzzyArgument.options
      + BackendOptionArguments.options
      + [
        .value("--limit", "N", "answers per keystroke (default: 20)"),
        .value("--format", "text|tsv", "(default: text)"),
        .flag(CallgrindRun.replayFlag, "the replay itself, run under callgrind", hidden: true),
        .value(
          "--keystrokes", "FILE",
          "also write each keystroke counted alone, one TSV row per backend and keystroke: backend, keystroke (its index in the workload), session, text, instructions"
        ),
      ]
  }

  static let epilogue = """
    $\(CallgrindRun.injectionVariable)=NAME=ITERATIONS[,…] adds deterministic work to every answer
    of a backend, to prove that the instruction gate fails.
    """

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let mode = try args.choice("--mode", default: MatchMode.syllable)
    let limit = try args.integer("--limit", default: 20, range: 1...10_000)
    let format = try args.choice("--format", default: OutputFormat.text)
    guard format != .json else { throw UsageError(message: "--format takes text or tsv") }
    let names = try args["--backends"].map(BenchOptions.backendNames) ?? defaultBackends
    let corpus = CorpusOptions(args)
    let options = try BenchOptions(args)
    let backendOptions = try BackendOptionArguments.parse(args)

    if args.has(CallgrindRun.replayFlag) {
      return try replay(options: options, backendOptions: backendOptions, names: names, mode: mode, limit: limit)
    }
    let loaded = try corpus.load()
    let (workload, workloadName, note) = try options.workload(for: loaded)
    if let note { standardError("citybench: \(note)") }
    standardError(
      "counting instructions under callgrind: \(names.joined(separator: ", ")) on \(corpus.name), \(Formatting.count(workload.keystrokeCount)) keystrokes each"
    )
    let run = CallgrindRun(
      corpus: corpus, workload: workload, backends: names, mode: mode.rawValue, limit: limit,
      fuzzy: options.configuration.fuzzy, backendOptions: backendOptions)
    let outcome = try run.measure()
    if let path = args["--keystrokes"] {
      try AtomicFile.write(keystrokeTable(outcome, names: names, workload: workload), to: path)
    }
    var table = CountTable()
    for name in names {
      let s = outcome.summaries[name]!
      table.add(name, p50: s.p50, p90: s.p90, p99: s.p99, max: s.max, mean: s.mean, total: s.total, meanDigits: 0)
    }
    table.print(
      format: format,
      title:
        "Instructions per keystroke, \(workloadName) on \(corpus.name) (\(Formatting.count(workload.keystrokeCount)) keystrokes), \(mode) mode\(options.configuration.fuzzy.isEmpty ? "" : ", fuzzy \(options.configuration.fuzzy)")\(backendOptions.description.isEmpty ? "" : ", options \(backendOptions)"); \(outcome.tool)"
    )
    guard format != .tsv else { return ExitStatus.success }
    print(
      String(
        format:
          "Every keystroke is in the total; the quantiles are of one keystroke in %d, each counted alone. The cost of measuring (%d instructions a keystroke counted alone, %.1f in a group) is subtracted; one iteration of injected work is %.2f instructions, and a call of it %d more. Counted in %.0f s.",
        InstructionCounter.stride(keystrokes: workload.keystrokeCount), outcome.reading.overhead,
        outcome.reading.groupOverhead, outcome.reading.instructionsPerIteration, outcome.reading.injectionCallCost,
        outcome.seconds))
    return ExitStatus.success
  }

  /// Every keystroke counted alone, as TSV: the `stride`-th ones of the workload, in order.
  static func keystrokeTable(_ outcome: CallgrindRun.Outcome, names: [String], workload: Workload) -> String {
    let stride = InstructionCounter.stride(keystrokes: workload.keystrokeCount)
    var sampled: [(index: Int, session: String, text: String)] = []
    var k = 0
    for session in workload.sessions {
      for text in session.keystrokes {
        if InstructionCounter.isCountedAlone(k, stride: stride) { sampled.append((k, session.label, text)) }
        k += 1
      }
    }
    // A workload's fields hold no tab or line break (it is read from TSV and written back as such).
    var lines = ["backend\tkeystroke\tsession\ttext\tinstructions"]
    for (b, name) in names.enumerated() {
      for (keystroke, count) in zip(sampled, outcome.reading.sampled[b]) {
        lines.append("\(name)\t\(keystroke.index)\t\(keystroke.session)\t\(keystroke.text)\t\(count)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The replay itself, inside Valgrind: build the backends, on this thread alone (threads
  /// interleave differently each run under Valgrind, and so would the heap every keystroke's
  /// allocations come from), then answer every keystroke, each between the client requests
  /// that count it.
  private static func replay(
    options: BenchOptions, backendOptions: BackendOptions, names: [String], mode: MatchMode, limit: Int
  ) throws -> Int32 {
    guard InstructionCounter.isRunningOnValgrind else {
      throw UsageError(message: "\(CallgrindRun.replayFlag) is the replay 'citybench instructions' runs under Valgrind")
    }
    let loaded = try options.corpus.load()
    let (workload, _, _) = try options.workload(for: loaded)
    let extra = try CallgrindRun.injection(ProcessInfo.processInfo.environment[CallgrindRun.injectionVariable] ?? "")
    let backends = try names.map { name -> (name: String, backend: any SearchBackend) in
      (
        name,
        try BackendCatalog.backend(named: name)!.init(
          corpus: loaded, options: backendOptions.setting(.concurrentBuild, to: false))
      )
    }
    InstructionCounter.replay(
      workload: workload, backends: backends, mode: mode, limit: limit, fuzzy: options.configuration.fuzzy,
      extraIterations: extra)
    return ExitStatus.success
  }
}
