import CitySearchBench

/// The figures the history keeps of each backend of a run, and how each is read.
public enum HistoryMetric {
  /// One figure of one backend: a value, with its 95% interval when it has one.
  public struct Figure: Sendable, Equatable {
    /// The backend's name.
    public var backend: String
    /// The figure's name: `latency.p50`, `ratio.p99`, `instructions.total`, `build.seconds`, ….
    public var metric: String
    /// The figure's value.
    public var value: Double
    /// Its interval's lower end, when it has one.
    public var lower: Double?
    /// Its interval's upper end, when it has one.
    public var upper: Double?
  }

  /// Every figure of `results`: latency quantiles, paired ratios, build time, heap and
  /// counted bytes, instruction counts, allocation calls, time to final results, divergences.
  public static func figures(_ results: BenchResults) -> [Figure] {
    var figures: [Figure] = []
    for b in results.backends {
      func add(_ metric: String, _ value: Double, _ lower: Double? = nil, _ upper: Double? = nil) {
        figures.append(Figure(backend: b.name, metric: metric, value: value, lower: lower, upper: upper))
      }
      func add(_ metric: String, _ e: Estimate) { add(metric, e.value, e.lower, e.upper) }
      if let latency = b.latency {
        for q in ReportedQuantile.allCases { add("latency.\(q.rawValue)", latency[q]) }
        add("latency.mean", latency.mean)
      }
      if let ratio = b.ratioToReference {
        for q in RatioSummary.quantiles { if let e = ratio[q] { add("ratio.\(q.rawValue)", e) } }
      }
      if let sessions = b.sessions { add("sessions.p50", sessions.p50) }
      add("build.seconds", b.build.seconds)
      if let heap = b.build.heapBytes { add("build.heapBytes", Double(heap)) }
      add("countedBytes", Double(b.build.countedBytes))
      func add(_ family: String, _ counts: (any KeystrokeCounts)?) {
        guard let counts else { return }
        for metric in countMetrics { if let n = counts[metric] { add("\(family).\(metric)", Double(n)) } }
        add("\(family).mean", counts.mean)
      }
      add("instructions", b.instructions)
      add("allocations", b.allocations)
      add("conformance.divergences", Double(b.conformance.divergences))
    }
    return figures
  }

  /// Every metric ``figures(_:)`` can store.
  public static let known: [String] =
    ReportedQuantile.allCases.map { "latency.\($0.rawValue)" } + ["latency.mean"]
    + RatioSummary.quantiles.map { "ratio.\($0.rawValue)" }
    + ["sessions.p50", "build.seconds", "build.heapBytes", "countedBytes"]
    + ["instructions", "allocations"].flatMap { family in (countMetrics + ["mean"]).map { "\(family).\($0)" } }
    + ["conformance.divergences"]

  /// The figures of a per-keystroke count that the history keeps, beside its mean.
  static let countMetrics = ["p50", "p90", "p99", "max", "total"]

  /// The metrics a history report draws unless told otherwise, in order.
  public static let defaultReported = ["ratio.p50", "latency.p50", "latency.p99", "instructions.total"]

  /// Whether the figure is a deterministic count (instructions, allocation calls, bytes the
  /// index counts, divergences), which one run can move, or a wall-clock figure, which only a sustained
  /// shift may.
  public static func isDeterministic(_ metric: String) -> Bool {
    metric.hasPrefix("instructions.") || metric.hasPrefix("allocations.") || metric == "countedBytes"
      || metric == "conformance.divergences"
  }

  /// How much a metric must shift to be a change point: the gate's thresholds
  /// (`Benchmarks/thresholds.json`) where the gate has one (a latency quantile takes its
  /// ratio's), else 50% for a wall-clock figure and 1% for a count.
  public static func threshold(_ metric: String, backend: String, gate: GateThresholds) -> Double {
    let parts = metric.split(separator: ".", maxSplits: 1).map(String.init)
    let (family, detail) = (parts[0], parts.count > 1 ? parts[1] : "")
    switch family {
    case "ratio", "latency", "sessions":
      let quantile = ReportedQuantile(rawValue: detail).flatMap { RatioSummary.quantiles.contains($0) ? $0 : nil }
      return gate.ratioThreshold(quantile ?? .p99, backend: backend) ?? 0.5
    case "instructions":
      return gate.instructionThreshold(
        InstructionSummary.gatedMetrics.contains(detail) ? detail : "total", backend: backend)
    case "allocations":
      return gate.allocationThreshold(AllocationSummary.gatedMetrics.contains(detail) ? detail : "total")
    case "countedBytes": return gate.countedBytes
    default: return isDeterministic(metric) ? 0.01 : 0.5
    }
  }

  /// Runs a change point needs on each side: one for a count, two for a wall-clock figure
  /// (so that one noisy run is never a change).
  public static func minimumSegment(_ metric: String) -> Int { isDeterministic(metric) ? 1 : 2 }

  /// A figure as the report shows it.
  public static func format(_ value: Double, metric: String) -> String {
    if metric.hasPrefix("latency.") || metric.hasPrefix("sessions.") {
      return Formatting.duration(nanoseconds: value)
    }
    if metric.hasPrefix("ratio.") { return Formatting.ratio(value) }
    if metric == "build.seconds" { return Formatting.seconds(value) }
    if metric.hasSuffix("Bytes") { return megabytes(Int(value)) }
    if metric == "instructions.mean" || metric == "allocations.mean" { return String(format: "%.1f", value) }
    return Formatting.count(Int(value))
  }
}
