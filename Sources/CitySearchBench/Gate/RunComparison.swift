import Foundation

/// Any two runs side by side (`citybench compare A B`): a pull request against main, yesterday
/// against today, one machine against another. Unlike ``Gate``, it refuses nothing: settings
/// that differ are listed above the figures, and each figure says whether its change lies
/// beyond both runs' intervals.
///
/// For every backend in both runs: the latency quantiles (absolute, so they move with the
/// machine), the paired ratios to the reference (measured within each run, so a change of
/// machine cancels out), and the deterministic counts (instructions by the same tool,
/// allocation calls, index bytes), exactly.
public struct RunComparison: Sendable {
  /// What a figure's change amounts to.
  public enum Finding: String, Sendable {
    /// Lower in B beyond the intervals (or, for a count, lower at all).
    case lower
    /// Higher in B beyond the intervals (or, for a count, higher at all).
    case higher
    /// The intervals of the change include no change; or the count is equal.
    case same = "same"

    /// What a change with this interval amounts to: higher or lower only when the whole
    /// interval is.
    init(change: Estimate) { self = change.lower > 1 ? .higher : change.upper < 1 ? .lower : .same }
  }

  /// How a change's interval was found.
  public enum Interval: String, Sendable {
    /// A bootstrap of the runs' samples, the same keystrokes drawn for both (``QuantileChange``).
    case paired
    /// A bootstrap of each run's samples on its own.
    case independent
    /// From the two runs' intervals' extremes, when the samples are not at hand.
    case intervals
    /// A count: its change is exact.
    case exact
  }

  /// One figure of one backend in both runs.
  public struct Row: Sendable {
    /// The backend's name.
    public var backend: String
    /// `latency.p50`, `ratio.p99`, `instructions.total`, …
    public var metric: String
    /// The figure in A and in B, with their intervals (equal ends for a count).
    public var a: Estimate
    /// The figure in B.
    public var b: Estimate
    /// B ÷ A, with its interval (found as ``method`` says).
    public var change: Estimate
    /// What the change amounts to.
    public var finding: Finding
    /// How the change's interval was found.
    public var method: Interval = .intervals
  }

  /// The runs' paths as given.
  public var aPath: String
  /// The second run's path.
  public var bPath: String
  /// The settings that differ, each named with both values (empty: the same settings).
  public var settingDifferences: [String]
  /// The backends of only one run.
  public var unmatched: [String]
  /// Every figure of every backend the two runs share.
  public var rows: [Row]
  /// Commit, date and machine of each run, for the heading.
  public var aInfo: String
  /// The second run's commit, date and machine.
  public var bInfo: String

  /// Compares run `a` with run `b` (B is the new one: a change is B ÷ A). With each run's
  /// samples (`SamplesCSV.keystrokeMedians`), a latency's change has a bootstrap interval of
  /// its own, paired when both runs timed the same keystrokes of one workload.
  public init(
    a: BenchResults, b: BenchResults, aPath: String, bPath: String, aSamples: [String: [Int: Double]]? = nil,
    bSamples: [String: [Int: Double]]? = nil
  ) {
    self.aPath = aPath
    self.bPath = bPath
    settingDifferences = Gate.runSettingMismatches(baseline: a, current: b) { "\($0) \($1) in B, \($2)" }
    if a.metadata.machine.fingerprint != b.metadata.machine.fingerprint {
      settingDifferences.append(
        "machine \(b.metadata.machine.fingerprint) (\(b.metadata.machine.cpuModel)) in B, \(a.metadata.machine.fingerprint) (\(a.metadata.machine.cpuModel))"
      )
    }
    func info(_ r: BenchResults) -> String {
      "commit \(r.metadata.gitCommit.prefix(12)), \(r.metadata.startedAt), \(r.metadata.machine.cpuModel)"
    }
    aInfo = info(a)
    bInfo = info(b)
    let shared = a.backends.filter { b.backend(named: $0.name) != nil }
    unmatched = (a.backends.map(\.name) + b.backends.map(\.name)).filter { name in
      a.backend(named: name) == nil || b.backend(named: name) == nil
    }
    var rows: [Row] = []
    for old in shared {
      let new = b.backend(named: old.name)!
      // The backend's keystroke times in both runs, aligned keystroke by keystroke when both
      // timed the same keystrokes of one workload.
      var samples: (a: [Double], b: [Double], paired: Bool)?
      if let xs = aSamples?[old.name], let ys = bSamples?[old.name], !xs.isEmpty, !ys.isEmpty {
        if a.metadata.workload.checksum == b.metadata.workload.checksum && Set(xs.keys) == Set(ys.keys) {
          let keys = xs.keys.sorted()
          samples = (keys.map { xs[$0]! }, keys.map { ys[$0]! }, true)
        } else {
          samples = (Array(xs.values), Array(ys.values), false)
        }
      }
      for quantile in [ReportedQuantile.p50, .p90, .p99] {
        if let x = old.latency?[quantile], let y = new.latency?[quantile] {
          var row = Self.row(old.name, "latency.\(quantile.rawValue)", x, y)
          if let samples {
            row.change = QuantileChange.estimate(
              a: samples.a, b: samples.b, quantile: quantile.fraction, paired: samples.paired)
            row.finding = Finding(change: row.change)
            row.method = samples.paired ? .paired : .independent
          }
          rows.append(row)
        }
      }
      for quantile in RatioSummary.quantiles {
        if let x = old.ratioToReference?[quantile], let y = new.ratioToReference?[quantile] {
          rows.append(Self.row(old.name, "ratio.\(quantile.rawValue)", x, y))
        }
      }
      if let x = old.instructions, let y = new.instructions, x.tool == y.tool {
        for metric in InstructionSummary.gatedMetrics {
          rows.append(Self.count(old.name, "instructions.\(metric)", x[metric] ?? 0, y[metric] ?? 0))
        }
      }
      if let x = old.allocations, let y = new.allocations {
        for metric in AllocationSummary.gatedMetrics {
          rows.append(Self.count(old.name, "allocations.\(metric)", x[metric] ?? 0, y[metric] ?? 0))
        }
      }
      if old.build.countedBytes > 0 || new.build.countedBytes > 0 {
        rows.append(Self.count(old.name, "countedBytes", old.build.countedBytes, new.build.countedBytes))
      }
    }
    self.rows = rows
  }

  /// A figure with intervals: B ÷ A, lower or higher only when the whole interval is.
  static func row(_ backend: String, _ metric: String, _ a: Estimate, _ b: Estimate) -> Row {
    let change = Estimate(
      value: b.value / max(a.value, .leastNonzeroMagnitude), lower: b.lower / max(a.upper, .leastNonzeroMagnitude),
      upper: b.upper / max(a.lower, .leastNonzeroMagnitude))
    return Row(backend: backend, metric: metric, a: a, b: b, change: change, finding: Finding(change: change))
  }

  /// A deterministic count: its change is exact.
  static func count(_ backend: String, _ metric: String, _ a: Int, _ b: Int) -> Row {
    let (x, y) = (Double(a), Double(b))
    let ratio = x > 0 ? y / x : (y > 0 ? .infinity : 1)
    return Row(
      backend: backend, metric: metric, a: Estimate(value: x, lower: x, upper: x),
      b: Estimate(value: y, lower: y, upper: y), change: Estimate(value: ratio, lower: ratio, upper: ratio),
      finding: b > a ? .higher : b < a ? .lower : .same, method: .exact)
  }

  /// The comparison as Markdown, for a pull-request comment or a job summary.
  public var markdown: String {
    var out = "# citybench: B against A\n\n"
    out += "- A: `\(aPath)` (\(aInfo))\n- B: `\(bPath)` (\(bInfo))\n\n"
    if settingDifferences.isEmpty {
      out += "Same settings (corpus, workload, mode, limit, rounds, warm-up, budget, build, machine).\n\n"
    } else {
      out += "**Settings differ** (the figures are compared anyway; the paired ratios carry over between "
      out += "machines, the latencies do not):\n\n"
      out += settingDifferences.map { "- \($0)\n" }.joined() + "\n"
    }
    if !unmatched.isEmpty {
      out += "In one run only: \(unmatched.joined(separator: ", ")).\n\n"
    }
    let changed = rows.filter { $0.finding != .same }
    out += "\(changed.count) of \(rows.count) figures changed beyond their intervals"
    out +=
      changed.isEmpty
      ? ".\n\n"
      : ": "
        + changed.map { "\($0.backend) \($0.metric) \($0.finding.rawValue)" }
        .joined(separator: ", ") + ".\n\n"
    let table = rows.map { row -> [String] in
      let marker = row.finding == .same ? "same" : "**\(row.finding.rawValue)**"
      return [
        row.backend, row.metric, Self.figure(row.a, row.metric), Self.figure(row.b, row.metric),
        Self.changeText(row.change), row.method.rawValue, marker,
      ]
    }
    out += MarkdownReport.table(["backend", "metric", "A", "B", "B ÷ A", "interval", "finding"], table)
    out += "\nLatencies and ratios with their 95% bootstrap intervals. A change counts only when its whole "
    out += "interval lies above or below 1: for a latency whose samples both runs wrote (samples.csv), a "
    out += "bootstrap of the change itself, paired when both runs timed the same keystrokes; otherwise the "
    out += "interval from the two intervals' extremes, which is wider. Counts are exact.\n"
    return out
  }

  /// The changes as an SVG forest plot (B ÷ A with its interval per backend and figure, on a
  /// log axis around 1), for a pull request's artifacts or a page.
  public var chart: String {
    SVGChart.changes(rows, title: "B ÷ A per figure, with 95% intervals (\(bPath) against \(aPath))")
  }

  static func figure(_ e: Estimate, _ metric: String) -> String {
    if metric.hasPrefix("latency.") {
      return Formatting.estimate(e) { Formatting.duration(nanoseconds: $0) }
    }
    if metric.hasPrefix("ratio.") { return Formatting.estimate(e, Formatting.ratio) }
    if metric == "countedBytes" { return megabytes(Int(e.value)) }
    return Formatting.count(Int(e.value))
  }

  static func changeText(_ e: Estimate) -> String {
    guard e.value.isFinite else { return "new" }
    return e.lower == e.upper ? String(format: "%.4f×", e.value) : Formatting.estimate(e, Formatting.ratio)
  }
}
