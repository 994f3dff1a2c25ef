import CitySearchExecutor

/// Everything a benchmark run measured: the content of `results.json` (schema in
/// docs/BenchmarkResults.md). Times are in nanoseconds unless a name says otherwise.
public struct BenchResults: Codable, Sendable {
  /// The version of this layout; readers refuse versions they do not know.
  public static let currentSchemaVersion = 1

  /// The layout version this file was written in (``currentSchemaVersion`` when written).
  public var schemaVersion: Int
  /// Where, when and with which settings the run was made.
  public var metadata: RunMetadata
  /// The backend every other backend is compared with.
  public var reference: String
  /// The reference against itself (A/A): how far a ratio moves with no change at all.
  public var noiseFloor: RatioSummary?
  /// The reference first, then the other backends in the order they were selected.
  public var backends: [BackendResults]
  /// How well the reference's ranking puts the place meant first (docs/Relevance.md), when the
  /// run measured it.
  public var relevance: RelevanceSummary?
  /// The floor (`FloorReplay`): each keystroke's answer known in advance, looked up and copied
  /// through the public API; absent in a file written before it was measured. A backend's
  /// latency as a multiple of it is what its search costs beyond answering at all.
  public var floor: Distribution? = nil

  /// Whether every backend gave the reference's answer on every keystroke it answered.
  public var conforms: Bool { backends.allSatisfy { $0.external != nil || $0.conformance.divergences == 0 } }

  /// The results of the backend called `name`, or `nil` when the run did not time it.
  public func backend(named name: String) -> BackendResults? { backends.first { $0.name == name } }
}

/// Where, when and on what a run was made.
public struct RunMetadata: Codable, Sendable {
  /// The machine a run was made on.
  public struct Machine: Codable, Sendable {
    /// The CPU's model name, as `/proc/cpuinfo` gives it.
    public var cpuModel: String
    /// The logical cores the process could use.
    public var cores: Int
    /// The physical memory, in bytes.
    public var memoryBytes: UInt64
    /// The operating system's name and version.
    public var operatingSystem: String
    /// The kernel release.
    public var kernel: String

    /// Eight hex digits naming the kind of machine: the CPU model, the cores, the memory in
    /// GiB and the operating system (not the kernel release, which changes with updates).
    /// Runs with one fingerprint can share a baseline; instruction counts need it.
    public var fingerprint: String {
      let text = "\(cpuModel)|\(cores)|\(memoryBytes >> 30)|\(operatingSystem)"
      var hash: UInt32 = 0x811C_9DC5  // FNV-1a, 32 bits
      for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
      return String(format: "%08x", hash)
    }
  }

  /// The corpus a run searched.
  public struct CorpusInfo: Codable, Sendable {
    /// The tier's name (`cities`, `towns`, `villages`) or the file's name.
    public var name: String
    /// How many places the corpus holds.
    public var places: Int
    /// A digest of the corpus's content: runs on different data never share a baseline.
    public var checksum: String
  }

  /// The typing sessions a run replayed.
  public struct WorkloadInfo: Codable, Sendable {
    /// The workload's name (its file's name without the extension).
    public var name: String
    /// How many typing sessions it holds.
    public var sessions: Int
    /// How many keystrokes its sessions hold together.
    public var keystrokes: Int
    /// The input styles its sessions use (`pinyin`, `initials`, `mixed`, `hanzi`).
    public var styles: [String]
    /// A digest of the workload's content.
    public var checksum: String
  }

  /// The program that wrote the file (`citybench`).
  public var tool: String
  /// ISO 8601, UTC.
  public var startedAt: String
  /// The wall time of the whole run, in seconds.
  public var durationSeconds: Double
  /// The machine the run was made on.
  public var machine: Machine
  /// The Swift compiler that built the binary.
  public var swiftVersion: String
  /// `release` or `debug`: numbers from a debug build say little about an app.
  public var buildConfiguration: String
  /// The commit of the package the binary was built from, with `-dirty` when the tree had
  /// changes; `unknown` outside a git checkout.
  public var gitCommit: String
  /// The corpus the run searched.
  public var corpus: CorpusInfo
  /// The workload the run replayed.
  public var workload: WorkloadInfo
  /// The match mode of every search (`syllable` or `seed`; docs/MatchSpec.md).
  public var mode: String
  /// The fuzzy rules every keystroke was read with (`FuzzyRules`' text, MatchSpec §3.5);
  /// absent for none.
  public var fuzzy: String? = nil
  /// Whether every keystroke was also read as a two-level query (MatchSpec §9.2); absent for no.
  public var twoLevel: Bool? = nil
  /// The backend options the backends were built with (`BackendOptions`' text, `fuzzy-answers=true`);
  /// absent for the defaults.
  public var backendOptions: String? = nil
  /// How many ranked places each answer listed (the top k); totals are exact beyond it.
  public var limit: Int
  /// How many times every timed keystroke was answered; a keystroke's latency is its median.
  public var rounds: Int
  /// Keystrokes answered before timing, to warm caches and choose the stride.
  public var warmUpKeystrokes: Int
  /// The time each backend's timed rounds may take, in seconds: a backend whose warm-up says it
  /// would take longer is timed on every k-th keystroke (``BackendResults/Sampling/stride``).
  public var budgetSeconds: Double
  /// The seed of the random order in which the backends answer each keystroke.
  public var seed: UInt64
  /// The time one keystroke may take, which the headline judges each p99 against
  /// (`--budget-ms`); absent in a file written before it was recorded: one 60 Hz frame.
  public var keystrokeBudgetNanoseconds: Double? = nil
  /// The backend the library ships as its choice (`SwiftBackends.Fastest`), for the headline
  /// to say whether this run agrees; absent when the run did not say.
  public var shippedBackend: String? = nil
  /// The median cost of reading the clock, already included in every sample.
  public var clockOverheadNanoseconds: Double
  /// Injected busy work per answer, by backend (empty in a real run).
  public var slowdownNanoseconds: [String: UInt64]
  /// Iterations of deterministic work added to each counted answer, by backend (absent in a
  /// real run): the instruction gate's self-test.
  public var injectedInstructionIterations: [String: Int]?
  /// The slice of the backends this run timed (`bench --shard K/N`); absent for a whole run.
  public var shard: ShardInfo?
  /// How many shards `citybench merge` joined into this run; absent for a run made whole.
  public var mergedShards: Int?

  /// Which slice of the selected backends a sharded run timed: the reference, and every
  /// `count`-th of the others from the `index`-th (1-based).
  public struct ShardInfo: Codable, Sendable, Equatable {
    /// The shard's position, from 1.
    public var index: Int
    /// How many shards the whole run was split into.
    public var count: Int
    /// Every backend of the whole run, the reference first.
    public var backends: [String]

    /// A shard description from its position, the shard count and every backend of the run.
    public init(index: Int, count: Int, backends: [String]) {
      self.index = index
      self.count = count
      self.backends = backends
    }
  }

  /// The injected slowdowns for a report, `trie +2.00 µs, …`; `nil` in a real run.
  var slowdownSummary: String? {
    guard !slowdownNanoseconds.isEmpty else { return nil }
    return slowdownNanoseconds.sorted { $0.key < $1.key }
      .map { "\($0.key) +\(Formatting.duration(nanoseconds: Double($0.value)))" }.joined(separator: ", ")
  }
}

/// Quantiles of a set of samples, each with its 95% bootstrap interval.
public struct Distribution: Codable, Sendable {
  /// How many samples the quantiles were taken of.
  public var count: Int
  /// The samples' mean.
  public var mean: Double
  /// The median.
  public var p50: Estimate
  /// The 90th percentile.
  public var p90: Estimate
  /// The 99th percentile.
  public var p99: Estimate
  /// The 99.9th percentile.
  public var p999: Estimate
  /// The largest sample (its interval is the sample itself).
  public var max: Estimate

  /// The estimate of `quantile`.
  public subscript(quantile: ReportedQuantile) -> Estimate {
    switch quantile {
    case .p50: p50
    case .p90: p90
    case .p99: p99
    case .p999: p999
    case .max: max
    }
  }
}

/// A distribution of one group of keystrokes (a query length, an input style).
public struct GroupDistribution: Codable, Sendable {
  /// The group's name: a query length (`3`) or an input style (`initials`).
  public var group: String
  /// The latency of the group's keystrokes.
  public var latency: Distribution
}

/// Quantiles of per-keystroke paired ratios (a backend's time over the reference's on the
/// same keystroke): p50 is the typical speed relative to the reference; p90 and p99 show
/// whether some keystrokes are relatively much slower.
public struct RatioSummary: Codable, Sendable {
  /// How many paired keystrokes the ratios were taken of.
  public var count: Int
  /// The median ratio.
  public var p50: Estimate
  /// The 90th percentile of the ratios.
  public var p90: Estimate
  /// The 99th percentile of the ratios.
  public var p99: Estimate

  /// The quantiles a ratio summary holds, in order.
  public static let quantiles: [ReportedQuantile] = [.p50, .p90, .p99]

  /// The estimate of `quantile`, or `nil` for a quantile this summary does not hold.
  public subscript(quantile: ReportedQuantile) -> Estimate? {
    switch quantile {
    case .p50: p50
    case .p90: p90
    case .p99: p99
    default: nil
    }
  }
}

/// A point of a latency curve (an empirical CDF): the nearest-rank quantile at `fraction`.
public struct CurvePoint: Codable, Sendable, Hashable {
  /// The share of keystrokes at or below ``nanoseconds``, from 0 to 1.
  public var fraction: Double
  /// The latency at ``fraction``.
  public var nanoseconds: Double

  /// Every half percent, then 99.9%, 99.99% and the maximum.
  public static let fractions: [Double] = (1...199).map { Double($0) / 200 } + [0.999, 0.9999, 1]
}

/// One backend's results.
public struct BackendResults: Codable, Sendable {
  /// What building the backend's index cost.
  public struct Build: Codable, Sendable {
    /// The wall time of the build, in seconds.
    public var seconds: Double
    /// Heap kept after the build (glibc `mallinfo2`); absent where the platform does not tell.
    public var heapBytes: Int?
    /// The bytes the index counts itself: deterministic for a given corpus and build.
    public var countedBytes: Int
    /// The backend's own remarks on its build (its index's sizes, its options).
    public var notes: [String: String]
  }

  /// How the backend's keystrokes were sampled for timing.
  public struct Sampling: Codable, Sendable {
    /// The workload's keystrokes.
    public var keystrokes: Int
    /// The keystrokes that were timed.
    public var timedKeystrokes: Int
    /// 1 when every keystroke was timed; k when every k-th was, each answered in a fresh session.
    public var stride: Int
    /// Warm-up's mean answer time, which decided the stride.
    public var warmUpMeanNanoseconds: Double
  }

  /// Whether the backend gave the reference's answers.
  public struct Conformance: Codable, Sendable {
    /// The first keystroke whose answer differed from the reference's.
    public struct FirstDivergence: Codable, Sendable {
      /// The round it happened in, from 0 (the reports print it from 1).
      public var round: Int
      /// The session's label in the workload (`s00001`).
      public var session: String
      /// The session's keystrokes before this one, each as the text then in the box.
      public var typedBefore: [String]
      /// The query text whose answer differed.
      public var text: String
      /// What differed, in words (the total, or the first differing row).
      public var difference: String
      /// The two answers side by side, the first differing row marked.
      public var sideBySide: String
    }

    /// Answers compared with the reference's (keystrokes × rounds).
    public var checked: Int
    /// Answers that differed from the reference's.
    public var divergences: Int
    /// The first of them, when there was one.
    public var first: FirstDivergence?
  }

  /// The backend's name, with ` (stateless)` for its stateless replay.
  public var name: String
  /// The backend's one-line description of its strategy.
  public var summary: String
  /// What the build cost.
  public var build: Build
  /// How the keystrokes were sampled.
  public var sampling: Sampling
  /// Per-keystroke latency: each keystroke's median over the rounds.
  public var latency: Distribution?
  /// The latency curve for charts: the keystroke latency at each of ``CurvePoint/fractions``.
  public var curve: [CurvePoint]
  /// Latency by query length in characters.
  public var byLength: [GroupDistribution]
  /// Latency by input style.
  public var byStyle: [GroupDistribution]
  /// Time to final results: the sum of a session's keystroke latencies. Absent when the
  /// backend was timed on a sample.
  public var sessions: Distribution?
  /// Paired ratios to the reference; absent for the reference itself.
  public var ratioToReference: RatioSummary?
  /// How the answers compared with the reference's.
  public var conformance: Conformance
  /// Instructions per keystroke under callgrind, when the run counted them for this backend
  /// (`--instructions`): deterministic, beside the wall time.
  public var instructions: InstructionSummary?
  /// Allocation calls per keystroke, when the run counted them for this backend
  /// (`--allocations`): deterministic with `SWIFT_DETERMINISTIC_HASHING=1`, which the run sets
  /// in the process that counts them.
  public var allocations: AllocationSummary?
  /// ``statelessReplay`` when every keystroke was answered afresh from the index; absent when
  /// the backend typed into its session.
  public var replay: String?
  /// Per-keystroke latency with the backend alone and warm: its sessions replayed by
  /// themselves after the rounds, no other backend between its keystrokes (the figure an app
  /// that does nothing else between keystrokes would see; ``latency``, measured with the other
  /// backends interleaved, is the one the headline uses). Absent for the reference, external
  /// implementations, backends timed on a sample, and files written before it was measured.
  public var aloneLatency: Distribution?

  /// The value of ``replay`` for the stateless replay.
  public static let statelessReplay = "stateless"
  /// For an implementation in another process (an executor, docs/Executors.md): what it said
  /// of itself and what crossing the process cost; absent for the suite's own backends in
  /// process. Its ``build`` holds the build time and memory it reported.
  public var external: External?

  /// What the run knows of an implementation in another process.
  public struct External: Codable, Sendable {
    /// The command that ran it.
    public var command: String
    /// The version it reported.
    public var implementationVersion: String
    /// What it said it offers; its answers were compared with the reference's on these.
    public var capabilities: ExecutorCapabilities
    /// Per-keystroke round trip (writing the query to reading the whole answer, measured by
    /// `citybench`; each keystroke's median over the rounds), beside ``BackendResults/latency``,
    /// the time it measured around its own search call.
    public var roundTrip: Distribution?
    /// Queries it answered with an error, or with ids the corpus does not hold.
    public var failedQueries: Int
    /// The first of them, with the error.
    public var firstFailedQuery: String?
    /// Why it stopped answering, when it failed for good; its later keystrokes were not timed.
    public var failure: String?
  }
}

/// The relevance measures of a run (``RelevanceEvaluation/Report``), for the reports.
public struct RelevanceSummary: Codable, Sendable, Equatable {
  /// The places whose typing the measures followed.
  public var targets: Int
  /// Mean keystrokes until the target is ranked first.
  public var meanKeystrokesToFirst: Double
  /// Mean keystrokes until the target is in the top 3.
  public var meanKeystrokesToTop3: Double
  /// The share of targets ranked first after their name's first two initials.
  public var firstAfterTwoInitials: Double
  /// The share of targets never ranked first while typed.
  public var neverFirst: Double
  /// Mean reciprocal rank after keystroke 1, 2, ….
  public var reciprocalRankByKeystroke: [Double]
  /// Hand-checked cases whose first answer was acceptable (docs/Relevance.md), when they ran.
  public var casesPassed: Int?
  /// Hand-checked cases that ran.
  public var cases: Int?

  /// The summary of a relevance evaluation, with the hand-checked cases' result when they ran.
  public init(_ report: RelevanceEvaluation.Report, casesPassed: Int? = nil, cases: Int? = nil) {
    targets = report.traces.count
    meanKeystrokesToFirst = report.meanKeystrokesToFirst
    meanKeystrokesToTop3 = report.meanKeystrokesToTop3
    firstAfterTwoInitials = report.firstAfterTwoInitials
    neverFirst = report.neverFirst
    reciprocalRankByKeystroke = report.reciprocalRankByKeystroke
    self.casesPassed = casesPassed
    self.cases = cases
  }

  /// The measures as rows of (measure, value), for the Markdown and HTML reports.
  public var rows: [(String, String)] {
    func f(_ x: Double) -> String { String(format: "%.2f", x) }
    func percent(_ x: Double) -> String { String(format: "%.1f%%", 100 * x) }
    var rows = [
      ("typed targets, weighted by prominence", Formatting.count(targets)),
      ("mean keystrokes until first", f(meanKeystrokesToFirst)),
      ("mean keystrokes until in the top 3", f(meanKeystrokesToTop3)),
      ("first after 2 keystrokes of initials", percent(firstAfterTwoInitials)),
      ("never first, even fully typed", percent(neverFirst)),
      (
        "mean reciprocal rank after keystroke 1, 2, 3",
        reciprocalRankByKeystroke.prefix(3).map(f).joined(separator: ", ")
      ),
    ]
    if let casesPassed, let cases { rows.append(("hand-checked cases right", "\(casesPassed) of \(cases)")) }
    return rows
  }
}
