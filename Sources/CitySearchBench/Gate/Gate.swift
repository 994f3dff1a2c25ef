import Foundation

/// The outcome of one gated metric, or of the whole gate.
public enum GateVerdict: String, Codable, Sendable, Comparable {
  /// The change is within the allowed growth.
  case pass
  /// The change is not distinguishable from noise in either direction.
  case inconclusive
  /// The change is beyond the allowed growth, with its whole interval.
  case regression

  /// `citybench gate`'s exit status: 0 pass, 2 regression, 3 inconclusive.
  public var exitStatus: Int32 {
    switch self {
    case .pass: 0
    case .regression: 2
    case .inconclusive: 3
    }
  }

  private var severity: Int {
    switch self {
    case .pass: 0
    case .inconclusive: 1
    case .regression: 2
    }
  }

  public static func < (a: GateVerdict, b: GateVerdict) -> Bool { a.severity < b.severity }
}

/// One metric compared between the baseline and the current run.
public struct GateMetric: Codable, Sendable {
  /// The backend's name.
  public var backend: String
  /// `ratio.p50`, `ratio.p90`, `ratio.p99`, `instructions.p50`, `instructions.p99`,
  /// `instructions.total`, `countedBytes` or `conformance`.
  public var metric: String
  /// The baseline's value, with its interval; `nil` when the baseline lacks it.
  public var baseline: Estimate?
  /// The current run's value, with its interval; `nil` when the current run lacks it.
  public var current: Estimate?
  /// current ÷ baseline, with the interval from the two intervals' extremes.
  public var change: Estimate?
  /// The committed threshold (relative growth allowed).
  public var threshold: Double?
  /// The A/A noise at this quantile (relative), the larger of the two runs'.
  public var noise: Double?
  /// The growth tolerated: the larger of threshold and noise.
  public var allowed: Double?
  /// What the comparison decided.
  public var verdict: GateVerdict
  /// The decision in words, for the reports.
  public var note: String
}

/// A count the gate did not compare, and why: a warning, never part of the verdict.
public struct GateSkip: Codable, Sendable, Equatable {
  /// The backend's name.
  public var backend: String
  /// `instructions` or `allocations`.
  public var metric: String
  /// Why the counts cannot be compared, and what to do about it.
  public var reason: String
}

/// The gate's decision, written as `verdict.json` and `verdict.md`.
public struct GateReport: Codable, Sendable {
  /// The layout version of the `verdict.json` this build writes.
  public static let currentSchemaVersion = 1

  /// One of the two compared runs.
  public struct RunInfo: Codable, Sendable {
    /// The `results.json` it was read from.
    public var path: String
    /// The commit its binary was built from.
    public var gitCommit: String
    /// When it started (ISO 8601, UTC).
    public var startedAt: String
    /// The CPU it ran on.
    public var cpuModel: String
    /// ``RunMetadata/Machine/fingerprint``.
    public var machine: String?
  }

  /// The layout version the file was written in.
  public var schemaVersion: Int
  /// The worst verdict of the metrics: a regression anywhere fails the gate.
  public var verdict: GateVerdict
  /// The committed baseline run.
  public var baseline: RunInfo
  /// The run being gated.
  public var current: RunInfo
  /// Every compared metric, by backend.
  public var metrics: [GateMetric]
  /// The counts one run holds and the other does not, or holds by another tool: reported, not
  /// compared, and no part of the verdict (`nil` in files written before there were any).
  public var skipped: [GateSkip]?

  /// The exit status of ``verdict``.
  public var exitStatus: Int32 { verdict.exitStatus }
}

/// A baseline and a current run that cannot be compared.
public struct GateMismatch: Error, CustomStringConvertible {
  /// Why the runs cannot be compared, naming the setting that differs.
  public let message: String
  public var description: String { message }
}

/// Compares a run with the committed baseline.
///
/// Absolute times do not survive a change of machine, so the gate compares what does: each
/// backend's paired ratios to the reference, measured within one run, and deterministic
/// counts. A ratio quantile regresses only when its whole confidence interval of change lies
/// beyond the allowed growth, which is the committed threshold or the A/A noise at that
/// quantile, whichever is larger; it passes when the whole interval lies within it, and is
/// inconclusive otherwise.
public enum Gate {
  /// Compares `current` with `baseline` under `thresholds`; the paths name the two runs in the
  /// report. Throws ``GateMismatch`` when either run is a shard, when the runs were made with
  /// different settings, or when there is nothing to gate.
  public static func compare(
    baseline: BenchResults, current: BenchResults, thresholds: GateThresholds, baselinePath: String,
    currentPath: String
  ) throws -> GateReport {
    for (results, name) in [(current, "the current run"), (baseline, "the baseline")] {
      if let shard = results.metadata.shard {
        throw GateMismatch(
          message: "\(name) is shard \(shard.index)/\(shard.count) of a run: merge its shards first (citybench merge)")
      }
    }
    // An empty measurement is an error, never a pass.
    let gated = baseline.backends.filter { $0.name != baseline.reference }.map(\.name)
    guard !gated.isEmpty else {
      throw GateMismatch(message: "the baseline holds no backend besides the reference; there is nothing to gate")
    }
    guard gated.contains(where: { current.backend(named: $0) != nil }) else {
      throw GateMismatch(
        message:
          "the run measures none of the baseline's backends (\(gated.joined(separator: ", "))); run it with --backends \(gated.joined(separator: ","))"
      )
    }

    let mismatches = settingMismatches(baseline: baseline, current: current)
    guard mismatches.isEmpty else {
      throw GateMismatch(
        message:
          "the run was not made with the baseline's settings (\(mismatches.joined(separator: "; "))); rerun with the baseline's settings (a gate run without --current takes them), or record a new baseline with --update-baseline"
      )
    }

    var metrics: [GateMetric] = []
    for old in baseline.backends where old.name != baseline.reference {
      let new = current.backend(named: old.name)!  // the same backends: checked above
      for quantile in RatioSummary.quantiles {
        metrics.append(
          ratioMetric(
            quantile, backend: old.name, baseline: old.ratioToReference?[quantile],
            current: new.ratioToReference?[quantile], thresholds: thresholds,
            noise: [baseline.noiseFloor?[quantile], current.noiseFloor?[quantile]]))
      }
      if let before = old.instructions, let after = new.instructions, before.tool == after.tool {
        for metric in InstructionSummary.gatedMetrics {
          metrics.append(
            instructionMetric(
              metric, backend: old.name, baseline: before, current: after,
              threshold: thresholds.instructionThreshold(metric, backend: old.name)))
        }
      }
      if let before = old.allocations, let after = new.allocations {
        for metric in AllocationSummary.gatedMetrics {
          metrics.append(
            countMetric(
              "allocations.\(metric)", what: "allocation calls", backend: old.name,
              baseline: before[metric] ?? 0, current: after[metric] ?? 0,
              threshold: thresholds.allocationThreshold(metric)))
        }
      }
      metrics.append(countedBytesMetric(old: old, new: new, threshold: thresholds.countedBytes))
      metrics.append(
        GateMetric(
          backend: old.name, metric: "conformance", verdict: new.conformance.divergences == 0 ? .pass : .regression,
          note: new.conformance.divergences == 0
            ? "\(new.conformance.checked) answers match the reference"
            : "\(new.conformance.divergences) of \(new.conformance.checked) answers differ from the reference"))
    }
    let verdict = metrics.map(\.verdict).max() ?? .pass
    func info(_ r: BenchResults, _ path: String) -> GateReport.RunInfo {
      .init(
        path: path, gitCommit: r.metadata.gitCommit, startedAt: r.metadata.startedAt,
        cpuModel: r.metadata.machine.cpuModel, machine: r.metadata.machine.fingerprint)
    }
    let skipped = skippedCounts(baseline: baseline, current: current)
    return GateReport(
      schemaVersion: GateReport.currentSchemaVersion, verdict: verdict, baseline: info(baseline, baselinePath),
      current: info(current, currentPath), metrics: metrics, skipped: skipped.isEmpty ? nil : skipped)
  }

  /// The counts that cannot be compared: instructions counted by another valgrind (another
  /// version counts other code for the same work, so its figures are not comparable) or by
  /// one run only, allocations counted by one run only. A fresh runner (another Linux image,
  /// no valgrind) therefore gates its ratios and says what it skipped, rather than failing.
  static func skippedCounts(baseline: BenchResults, current: BenchResults) -> [GateSkip] {
    let record = "record a baseline on this runner to gate them (citybench gate --update-baseline --machine-baseline)"
    var skipped: [GateSkip] = []
    for old in baseline.backends {
      guard let new = current.backend(named: old.name) else { continue }
      switch (old.instructions, new.instructions) {
      case (let x?, let y?) where x.tool != y.tool:
        skipped.append(
          GateSkip(
            backend: old.name, metric: "instructions",
            reason: "counted by \(y.tool) here and by \(x.tool) in the baseline, which count other code; \(record)"))
      case (.some, nil):
        skipped.append(
          GateSkip(
            backend: old.name, metric: "instructions",
            reason: "counted in the baseline, not in this run (valgrind missing?); \(record)"))
      case (nil, .some):
        skipped.append(
          GateSkip(
            backend: old.name, metric: "instructions",
            reason: "counted in this run, not in the baseline; \(record)"))
      default: break
      }
      if (old.allocations == nil) != (new.allocations == nil) {
        skipped.append(
          GateSkip(
            backend: old.name, metric: "allocations",
            reason: "counted in \(old.allocations == nil ? "this run" : "the baseline") only; \(record)"))
      }
    }
    return skipped
  }

  /// What differs between the settings of the two runs, each named with both values: a gate
  /// compares like with like or not at all.
  static func settingMismatches(baseline: BenchResults, current: BenchResults) -> [String] {
    runSettingMismatches(baseline: baseline, current: current)
      + backendSettingMismatches(baseline: baseline, current: current)
  }

  /// The settings of the runs as a whole (corpus, workload, mode, limit, rounds, warm-up,
  /// budget, build configuration, reference) that differ, each named.
  /// Each difference is worded by `describe` (name, the current run's value, the baseline's).
  static func runSettingMismatches(
    baseline: BenchResults, current: BenchResults,
    describe: (String, String, String) -> String = { "\($0) \($1) vs baseline \($2)" }
  ) -> [String] {
    let (b, c) = (baseline.metadata, current.metadata)
    var mismatches: [String] = []
    func differ<T: Equatable>(_ name: String, _ x: T, _ y: T) {
      if x != y { mismatches.append(describe(name, "\(y)", "\(x)")) }
    }
    if b.corpus.checksum != c.corpus.checksum {
      mismatches.append(
        describe("corpus", "\(c.corpus.name) \(c.corpus.checksum)", "\(b.corpus.name) \(b.corpus.checksum)"))
    }
    if b.workload.checksum != c.workload.checksum {
      mismatches.append(describe("workload", c.workload.checksum, b.workload.checksum))
    }
    differ("mode", b.mode, c.mode)
    differ("fuzzy rules", b.fuzzy ?? "none", c.fuzzy ?? "none")
    differ("backend options", b.backendOptions ?? "defaults", c.backendOptions ?? "defaults")
    differ("limit", b.limit, c.limit)
    differ("rounds", b.rounds, c.rounds)
    differ("warm-up", b.warmUpKeystrokes, c.warmUpKeystrokes)
    differ("budget", String(format: "%g s", b.budgetSeconds), String(format: "%g s", c.budgetSeconds))
    differ("build configuration", b.buildConfiguration, c.buildConfiguration)
    differ("reference", baseline.reference, current.reference)
    return mismatches
  }

  /// The per-backend settings that differ: the backend set and each backend's sampling stride
  /// (counts one run holds and the other does not are ``skippedCounts(baseline:current:)``).
  static func backendSettingMismatches(baseline: BenchResults, current: BenchResults) -> [String] {
    var mismatches: [String] = []
    let (names, currentNames) = (baseline.backends.map(\.name), current.backends.map(\.name))
    if Set(names) != Set(currentNames) {
      mismatches.append(
        "backends \(currentNames.joined(separator: ",")) vs baseline \(names.joined(separator: ","))")
      return mismatches
    }
    for old in baseline.backends {
      let new = current.backend(named: old.name)!
      if old.sampling.stride != new.sampling.stride {
        func timed(_ stride: Int) -> String { stride == 1 ? "every keystroke" : "one keystroke in \(stride)" }
        mismatches.append(
          "sampling of \(old.name): \(timed(new.sampling.stride)) timed vs baseline \(timed(old.sampling.stride))")
      }
    }
    return mismatches
  }

  /// The verdict on one instruction count: deterministic (see
  /// ``GateThresholds/defaultInstructions``), so a tight threshold and no interval.
  static func instructionMetric(
    _ metric: String, backend: String, baseline: InstructionSummary, current: InstructionSummary,
    threshold: Double
  ) -> GateMetric {
    countMetric(
      "instructions.\(metric)", what: "instructions", backend: backend, baseline: baseline[metric] ?? 0,
      current: current[metric] ?? 0, threshold: threshold)
  }

  /// The verdict on one deterministic count (instructions, allocation calls): a tight
  /// threshold and no interval.
  static func countMetric(
    _ name: String, what: String, backend: String, baseline: Int, current: Int, threshold: Double
  ) -> GateMetric {
    let (b, c) = (Double(baseline), Double(current))
    guard b > 0 else {
      let verdict: GateVerdict = c > 0 ? .regression : .pass
      return GateMetric(
        backend: backend, metric: name, verdict: verdict,
        note: c > 0 ? "\(current) \(what) where the baseline had none" : "none in the baseline or now")
    }
    let change = c / b
    let verdict: GateVerdict = change > 1 + threshold ? .regression : .pass
    let note: String
    if verdict == .regression {
      note = "more \(what) by more than \(percent(threshold))"
    } else {
      note = change < 1 - threshold ? "fewer \(what) beyond the allowed change" : "within \(percent(threshold))"
    }
    return GateMetric(
      backend: backend, metric: name, baseline: Estimate(value: b, lower: b, upper: b),
      current: Estimate(value: c, lower: c, upper: c), change: Estimate(value: change, lower: change, upper: change),
      threshold: threshold, allowed: threshold, verdict: verdict, note: note)
  }

  /// The verdict on one ratio quantile.
  static func ratioMetric(
    _ quantile: ReportedQuantile, backend: String, baseline: Estimate?, current: Estimate?,
    thresholds: GateThresholds, noise: [Estimate?]
  ) -> GateMetric {
    let name = "ratio.\(quantile.rawValue)"
    guard let threshold = thresholds.ratioThreshold(quantile, backend: backend) else {
      return GateMetric(backend: backend, metric: name, verdict: .pass, note: "no threshold; not gated")
    }
    guard let baseline, let current, baseline.lower > 0, baseline.value > 0 else {
      return GateMetric(
        backend: backend, metric: name, baseline: baseline, current: current, threshold: threshold,
        verdict: .inconclusive, note: "no ratio in one of the runs")
    }
    // The A/A ratio's distance from 1 at this quantile (upper end of its interval).
    let noiseLevel = noise.compactMap { $0?.reachFromOne }.max() ?? 0
    let allowed = max(threshold, noiseLevel)
    let blind = blindness(threshold: threshold)
    let change = Estimate(
      value: current.value / baseline.value, lower: current.lower / baseline.upper,
      upper: current.upper / baseline.lower)
    let verdict: GateVerdict
    let note: String
    if change.lower > 1 + allowed {
      verdict = .regression
      note = "slower by more than \(percent(allowed)) even at the interval's low end"
    } else if allowed > blind {
      // A pass would say nothing: the noise hides every change up to `allowed`.
      verdict = .inconclusive
      note =
        "blind: the A/A noise hides any change below +\(percent(allowed)) (a pass needs it within +\(percent(blind))); rerun on a quieter machine"
    } else if change.upper <= 1 + allowed {
      verdict = .pass
      note = change.upper < 1 - allowed ? "faster beyond the allowed change" : "within \(percent(allowed))"
    } else {
      verdict = .inconclusive
      note = "the interval of change straddles +\(percent(allowed))"
    }
    return GateMetric(
      backend: backend, metric: name, baseline: baseline, current: current, change: change, threshold: threshold,
      noise: noiseLevel, allowed: allowed, verdict: verdict, note: note)
  }

  /// The largest allowed growth at which a ratio metric can still pass: twice its threshold, and
  /// at least +100%. Past it the A/A noise would let through regressions several times what
  /// the threshold is there to catch (a loaded runner's p99 allowance once reached +6,616%,
  /// and a run 14× slower at p50 passed at p99), so the metric is inconclusive instead.
  public static func blindness(threshold: Double) -> Double { max(2 * threshold, 1) }

  /// The verdict on the counted index size: deterministic, so no interval.
  static func countedBytesMetric(old: BackendResults, new: BackendResults, threshold: Double) -> GateMetric {
    let (b, c) = (Double(old.build.countedBytes), Double(new.build.countedBytes))
    guard b > 0 else {
      return GateMetric(backend: old.name, metric: "countedBytes", verdict: .pass, note: "not counted; not gated")
    }
    let change = c / b
    let regression = change > 1 + threshold
    return GateMetric(
      backend: old.name, metric: "countedBytes", baseline: Estimate(value: b, lower: b, upper: b),
      current: Estimate(value: c, lower: c, upper: c), change: Estimate(value: change, lower: change, upper: change),
      threshold: threshold, allowed: threshold, verdict: regression ? .regression : .pass,
      note: regression ? "index grew by more than \(percent(threshold))" : "deterministic count")
  }

  package static func percent(_ fraction: Double) -> String { String(format: "%.0f%%", fraction * 100) }
}

extension GateReport {
  /// `verdict.json`.
  public func jsonData() throws -> Data { try reportJSON(self) }

  /// `verdict.md`: the verdict and one row per gated metric.
  public var markdown: String {
    var out = "# Latency gate: \(verdict.rawValue)\n\n"
    func run(_ r: RunInfo) -> String {
      "`\(r.path)` (commit `\(r.gitCommit)`, \(r.startedAt), \(r.cpuModel), machine \(r.machine ?? "unknown"))"
    }
    out += "Baseline \(run(baseline)); current \(run(current)).\n\n"
    if baseline.machine != current.machine {
      out += "**The runs were made on different machines.** Paired ratios carry over between machines; "
      out += "instruction counts may not (another CPU or C library runs other code for the same work).\n\n"
    }
    out += "Ratios are a backend's time over the reference's on the same keystroke. A metric regresses when its "
    out +=
      "whole 95% interval of change lies beyond the allowed growth (the threshold, or the A/A noise if larger). "
    out += "Instruction counts (callgrind) are deterministic: no interval, a tight threshold.\n\n"
    func value(_ e: Estimate?, _ metric: String) -> String {
      guard let e else { return "–" }
      return e.lower == e.upper ? Self.figure(e.value, metric) : Formatting.estimate(e, Formatting.ratio)
    }
    let rows = metrics.map { m -> [String] in
      [
        m.backend, m.metric, value(m.baseline, m.metric), value(m.current, m.metric),
        m.change.map(Self.change) ?? "–",
        m.allowed.map { "+" + Gate.percent($0) } ?? "–",
        m.verdict == .regression ? "**regression**" : m.verdict.rawValue, m.note,
      ]
    }
    out += MarkdownReport.table(
      ["backend", "metric", "baseline", "current", "change", "allowed", "verdict", "note"], rows)
    out += "\n`allowed` is the smallest change each metric can catch: its threshold, or the A/A noise if larger. "
    out += "A ratio whose allowance passes twice its threshold (and +100%) is blind: inconclusive, never a pass.\n"
    if let skipped, !skipped.isEmpty {
      out += "\n## Not compared\n\n"
      out += MarkdownReport.table(["backend", "count", "why"], skipped.map { [$0.backend, $0.metric, $0.reason] })
    }
    return out
  }
}
