/// Everything a benchmark run measured: the content of `results.json` (schema in
/// docs/BenchmarkResults.md). Times are in nanoseconds unless a name says otherwise.
public struct BenchResults: Codable, Sendable {
  /// The version of this layout; readers refuse versions they do not know.
  public static let currentSchemaVersion = 1

  public var schemaVersion: Int
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

  /// Whether every backend gave the reference's answer on every keystroke it answered.
  public var conforms: Bool { backends.allSatisfy { $0.conformance.divergences == 0 } }

  public func backend(named name: String) -> BackendResults? { backends.first { $0.name == name } }
}

/// Where, when and on what a run was made.
public struct RunMetadata: Codable, Sendable {
  public struct Machine: Codable, Sendable {
    public var cpuModel: String
    public var cores: Int
    public var memoryBytes: UInt64
    public var operatingSystem: String
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

  public struct CorpusInfo: Codable, Sendable {
    public var name: String
    public var places: Int
    public var checksum: String
  }

  public struct WorkloadInfo: Codable, Sendable {
    public var name: String
    public var sessions: Int
    public var keystrokes: Int
    public var styles: [String]
    public var checksum: String
  }

  public var tool: String
  /// ISO 8601, UTC.
  public var startedAt: String
  public var durationSeconds: Double
  public var machine: Machine
  public var swiftVersion: String
  /// `release` or `debug`: numbers from a debug build say little about an app.
  public var buildConfiguration: String
  /// The commit of the package the binary was built from, with `-dirty` when the tree had
  /// changes; `unknown` outside a git checkout.
  public var gitCommit: String
  public var corpus: CorpusInfo
  public var workload: WorkloadInfo
  public var mode: String
  public var limit: Int
  public var rounds: Int
  public var warmUpKeystrokes: Int
  public var budgetSeconds: Double
  public var seed: UInt64
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
    public var index: Int
    public var count: Int
    /// Every backend of the whole run, the reference first.
    public var backends: [String]

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
  public var count: Int
  public var mean: Double
  public var p50: Estimate
  public var p90: Estimate
  public var p99: Estimate
  public var p999: Estimate
  public var max: Estimate

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
  public var group: String
  public var latency: Distribution
}

/// Quantiles of per-keystroke paired ratios (a backend's time over the reference's on the
/// same keystroke): p50 is the typical speed relative to the reference; p90 and p99 show
/// whether some keystrokes are relatively much slower.
public struct RatioSummary: Codable, Sendable {
  public var count: Int
  public var p50: Estimate
  public var p90: Estimate
  public var p99: Estimate

  public static let quantiles: [ReportedQuantile] = [.p50, .p90, .p99]

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
  public var fraction: Double
  public var nanoseconds: Double

  /// Every half percent, then 99.9%, 99.99% and the maximum.
  public static let fractions: [Double] = (1...199).map { Double($0) / 200 } + [0.999, 0.9999, 1]
}

/// One backend's results.
public struct BackendResults: Codable, Sendable {
  public struct Build: Codable, Sendable {
    public var seconds: Double
    /// Heap kept after the build (glibc `mallinfo2`); absent where the platform does not tell.
    public var heapBytes: Int?
    /// The bytes the index counts itself: deterministic for a given corpus and build.
    public var countedBytes: Int
    public var notes: [String: String]
  }

  public struct Sampling: Codable, Sendable {
    public var keystrokes: Int
    public var timedKeystrokes: Int
    /// 1 when every keystroke was timed; k when every k-th was, each answered in a fresh session.
    public var stride: Int
    /// Warm-up's mean answer time, which decided the stride.
    public var warmUpMeanNanoseconds: Double
  }

  public struct Conformance: Codable, Sendable {
    public struct FirstDivergence: Codable, Sendable {
      public var round: Int
      public var session: String
      public var typedBefore: [String]
      public var text: String
      public var difference: String
      /// The two answers side by side, the first differing row marked.
      public var sideBySide: String
    }

    /// Answers compared with the reference's (keystrokes × rounds).
    public var checked: Int
    public var divergences: Int
    public var first: FirstDivergence?
  }

  public var name: String
  public var summary: String
  public var build: Build
  public var sampling: Sampling
  /// Per-keystroke latency: each keystroke's median over the rounds.
  public var latency: Distribution?
  /// The latency curve for charts: the keystroke latency at each of ``CurvePoint/fractions``.
  public var curve: [CurvePoint]
  public var byLength: [GroupDistribution]
  public var byStyle: [GroupDistribution]
  /// Time to final results: the sum of a session's keystroke latencies. Absent when the
  /// backend was timed on a sample.
  public var sessions: Distribution?
  /// Paired ratios to the reference; absent for the reference itself.
  public var ratioToReference: RatioSummary?
  public var conformance: Conformance
  /// Instructions per keystroke under callgrind, when the run counted them for this backend
  /// (`--instructions`): deterministic, beside the wall time.
  public var instructions: InstructionSummary?
  /// ``statelessReplay`` when every keystroke was answered afresh from the index; absent when
  /// the backend typed into its session.
  public var replay: String?

  /// The value of ``replay`` for the stateless replay.
  public static let statelessReplay = "stateless"
}

/// The relevance measures of a run (``RelevanceEvaluation/Report``), for the reports.
public struct RelevanceSummary: Codable, Sendable, Equatable {
  public var targets: Int
  public var meanKeystrokesToFirst: Double
  public var meanKeystrokesToTop3: Double
  public var firstAfterTwoInitials: Double
  public var neverFirst: Double
  /// Mean reciprocal rank after keystroke 1, 2, ….
  public var reciprocalRankByKeystroke: [Double]
  /// Hand-checked cases with an acceptable first answer, and all of them.
  public var casesPassed: Int?
  public var cases: Int?

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
