import CitySearch
import CitySearchConformance
import CitySearchExecutor
import Foundation

/// The whole of one corpus's `citybench bench`: the workload chosen, every candidate built and
/// timed (``BenchPipeline``), and the measures a run adds beside the latencies — the reference's
/// relevance, and the instructions and allocations per keystroke of the backends named. The
/// caller parses the command line into ``Settings`` and counts instructions and allocations
/// through ``Hooks`` (each runs the tool again in a child process); the suite decides what is
/// measured and puts it in the results.
public enum BenchSuite {
  /// What one run measures, typed: a command line parses into it, and `citybench suite` builds
  /// one directly.
  public struct Settings {
    /// The backends to time, the reference first (with a shard: the reference and the slice).
    public var candidates: [BenchCandidate]
    /// How the workload is replayed.
    public var configuration: BenchConfiguration
    /// Whether to measure the reference's relevance; `nil` measures it on corpora of at most
    /// ``relevancePlaces`` places. Never under fuzzy rules or in seed mode: it measures the
    /// contract's ranking of typing without rules.
    public var relevance: Bool?
    /// The hand-checked relevance cases (`Benchmarks/relevance-cases.tsv`), when there is such
    /// a file.
    public var relevanceCasesPath: String?
    /// The backends whose instructions per keystroke are counted (through
    /// ``Hooks/countInstructions``).
    public var instructionBackends: [String] = []
    /// The backends whose allocation calls per keystroke are counted (through
    /// ``Hooks/countAllocations``).
    public var allocationBackends: [String] = []
    /// The slice of the backends this run times (``candidates`` is that slice already).
    public var shard: Shard = .whole
    /// With a shard, the labels of the whole run's backends, the reference first, recorded so
    /// that `citybench merge` can join the shards.
    public var shardBackends: [String] = []
    /// Implementations in other processes, run beside the backends; they need ``corpusFile``.
    public var executors: [ExecutorSpec] = []
    /// The corpus as a file an executor loads, with its format.
    public var corpusFile: (path: String, format: String)?
    /// The package checkout, for the commit in the metadata.
    public var packageDirectory: String?

    /// Settings that time `candidates` (the reference first) with `configuration`.
    public init(candidates: [BenchCandidate], configuration: BenchConfiguration) {
      self.candidates = candidates
      self.configuration = configuration
    }
  }

  /// What the suite asks of its caller: the counts measured in a child process, and where its
  /// progress goes.
  public struct Hooks {
    /// Counts the instructions per keystroke of the backends named, replaying the workload; the
    /// summaries by backend name, and the work injected into each (to prove the gate fails).
    public var countInstructions:
      ([String], Workload) throws -> (summaries: [String: InstructionSummary], injected: [String: Int])
    /// Counts the allocation calls per keystroke of the backends named.
    public var countAllocations: ([String], Workload) throws -> [String: AllocationSummary]
    /// One line per step.
    public var log: (String) -> Void
    /// The replay's progress: keystrokes done and in all.
    public var progress: (Int, Int) -> Void
    /// Whether to stop (Ctrl-C): the run throws ``BenchInterrupted``.
    public var shouldStop: () -> Bool

    /// Hooks; the counts default to none, so a run that names no backend to count needs only
    /// the log.
    public init(
      countInstructions:
        @escaping ([String], Workload) throws -> (
          summaries: [String: InstructionSummary], injected: [String: Int]
        ) = { _, _ in ([:], [:]) },
      countAllocations: @escaping ([String], Workload) throws -> [String: AllocationSummary] = { _, _ in [:] },
      log: @escaping (String) -> Void = { _ in }, progress: @escaping (Int, Int) -> Void = { _, _ in },
      shouldStop: @escaping () -> Bool = { false }
    ) {
      self.countInstructions = countInstructions
      self.countAllocations = countAllocations
      self.log = log
      self.progress = progress
      self.shouldStop = shouldStop
    }
  }

  /// The largest corpus whose relevance a run measures unasked (on `cities` it takes about
  /// 10 s; `towns` about a minute).
  public static let relevancePlaces = 10_000

  /// Benchmarks `settings.candidates` on `corpus` replaying `workload`, then adds the measures
  /// the settings ask for.
  public static func run(
    corpus: Corpus, corpusName: String, workload: Workload, workloadName: String, settings: Settings, hooks: Hooks
  ) throws -> (results: BenchResults, raw: RawMeasurements) {
    var pipeline = BenchPipeline(
      corpus: corpus, corpusName: corpusName, workload: workload, workloadName: workloadName,
      candidates: settings.candidates, configuration: settings.configuration,
      packageDirectory: settings.packageDirectory)
    if !settings.executors.isEmpty {
      pipeline.executors = settings.executors
      pipeline.corpusFile = settings.corpusFile
    }
    var (results, raw) = try pipeline.run(log: hooks.log, progress: hooks.progress, shouldStop: hooks.shouldStop)
    if !settings.shard.isWhole {
      results.metadata.shard = .init(
        index: settings.shard.index, count: settings.shard.count, backends: settings.shardBackends)
    }
    let configuration = settings.configuration
    if settings.relevance ?? (corpus.count <= relevancePlaces), configuration.mode == .syllable,
      configuration.fuzzy.isEmpty
    {
      hooks.log("relevance: replaying every place in every style")
      results.relevance = relevance(corpus, casesPath: settings.relevanceCasesPath)
    }
    // A shard counts its own backends only.
    let timed = Set(results.backends.map(\.name))
    let counted = settings.instructionBackends.filter(timed.contains)
    if !counted.isEmpty {
      hooks.log("instructions: counting \(counted.joined(separator: ", ")) under callgrind")
      let (summaries, injected) = try hooks.countInstructions(counted, workload)
      for i in results.backends.indices { results.backends[i].instructions = summaries[results.backends[i].name] }
      if !injected.isEmpty { results.metadata.injectedInstructionIterations = injected }
    }
    let allocating = settings.allocationBackends.filter(timed.contains)
    if !allocating.isEmpty {
      hooks.log("allocations: counting \(allocating.joined(separator: ", ")) in a child process")
      let summaries = try hooks.countAllocations(allocating, workload)
      for i in results.backends.indices { results.backends[i].allocations = summaries[results.backends[i].name] }
    }
    return (results, raw)
  }

  /// The reference's relevance (docs/Relevance.md), with the hand-checked cases of `casesPath`
  /// when it can be read.
  static func relevance(_ corpus: Corpus, casesPath: String?) -> RelevanceSummary {
    let report = RelevanceEvaluation(corpus: corpus).run()
    guard let casesPath, let cases = try? RelevanceCase.load(casesPath, corpus: corpus) else {
      return RelevanceSummary(report)
    }
    let reference = LinearScanBackend(corpus: corpus)
    return RelevanceSummary(report, casesPassed: cases.filter { $0.passes(with: reference) }.count, cases: cases.count)
  }
}
