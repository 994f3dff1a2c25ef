import CitySearch
import CitySearchBench
import CitySearchCatalog
import CitySearchExecutor
import Foundation

/// `citybench allocations`: allocation calls per keystroke, counted in process (deterministic).
enum AllocationsCommand: Command {
  static let name = "allocations"
  static let summary = "count allocation calls per keystroke (deterministic, in process)"

  static let synopsis = "citybench allocations [options]"

  static let discussion = """
    Replays the workload's typing sessions through each backend, in the executor seat, and
    counts the allocation calls (malloc and its kin) of every keystroke's answer: session
    update and normalization included, the index's build not. However busy the machine is,
    the counts repeat exactly from run to run of one build with SWIFT_DETERMINISTIC_HASHING=1
    (otherwise each process seeds Swift's hashing anew, and a set or dictionary may grow at
    another keystroke, moving a few counts) (docs/Harness.md). Needs glibc, whose allocator
    the harness's C shim wraps; takes seconds.
    """

  static var options: [CommandOption] {
    CorpusOptions.options
      + [
        .value("--workload", "FILE", "the typing sessions (default: Benchmarks/TIER.workload.tsv)"),
        .value(
          "--backends", "A,B",
          "the backends to count (default: \(InstructionsCommand.defaultBackends.joined(separator: ",")))"),
        .value("--mode", "syllable|seed", "(default: syllable)"),
        .value("--limit", "N", "answers per keystroke (default: 20)"),
        .value(
          "--replay", "sessions|stateless",
          "type into each backend's session, or answer every keystroke afresh from the index (default: sessions)"),
        .value(
          "--format", "text|tsv|json",
          "(default: text); json: {\"BACKEND\": {keystrokes, total, mean, p50, p90, p99, max}}, the input of 'bench --allocations'"
        ),
      ]
  }

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let mode = try args.choice("--mode", default: MatchMode.syllable)
    let limit = try args.integer("--limit", default: 20, range: 1...10_000)
    let format = try args.choice("--format", default: OutputFormat.text)
    let replay = try args.choice("--replay", default: Replay.sessions)
    let names = try args["--backends"].map(BenchOptions.backendNames) ?? InstructionsCommand.defaultBackends
    guard AllocationCounter.isAvailable else {
      throw UsageError(message: "this build cannot count allocations: it needs glibc, whose allocator the shim wraps")
    }
    let options = try BenchOptions(args)
    let corpus = try options.corpus.load()
    let (workload, workloadName, note) = try options.workload(for: corpus)
    if let note { standardError("citybench: \(note)") }
    var table = CountTable()
    var summaries: [String: AllocationSummary] = [:]
    for name in names {
      // Built on one thread: the runtime's caches that the first keystrokes fill (protocol
      // conformances, metadata) then grow at the same points in every run, where a concurrent
      // build's threads would fill them in an order of their own.
      let backend = try BackendCatalog.backend(named: name)!.init(
        corpus: corpus, options: BackendOptions().setting(.concurrentBuild, to: false))
      let s = AllocationSummary(
        counts: AllocationCounter.counts(backend, workload: workload, mode: mode, limit: limit, replay: replay))
      summaries[name] = s
      table.add(name, p50: s.p50, p90: s.p90, p99: s.p99, max: s.max, mean: s.mean, total: s.total, meanDigits: 1)
    }
    if format == .json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      print(String(decoding: try encoder.encode(summaries), as: UTF8.self))
      return ExitStatus.success
    }
    table.print(
      format: format,
      title:
        "Allocation calls per keystroke, \(workloadName) on \(corpus.source) (\(Formatting.count(workload.keystrokeCount)) keystrokes), \(mode) mode, \(replay.rawValue)"
    )
    return ExitStatus.success
  }
}
