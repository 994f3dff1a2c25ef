import CitySearchConformance
import Foundation

/// Verdicts as JUnit XML, the format GitLab, Jenkins and most CI servers show as test results
/// (`citybench gate --junit FILE`, `citybench conform --junit FILE`).
///
/// ```swift
/// var junit = JUnitReport(suite: "citybench conform")
/// junit.add(JUnitReport.Case(group: "conform.trie", name: "cities syllable", outcome: .passed))
/// try AtomicFile.write(Data(junit.xml.utf8), to: "conform.xml")
/// ```
public struct JUnitReport: Sendable {
  /// How a test case ended.
  public enum Outcome: Sendable, Equatable {
    /// The check passed.
    case passed
    /// A failed check: a one-line message and the details.
    case failed(message: String, details: String)
    /// Neither passed nor failed (an inconclusive gate metric, a metric not gated).
    case skipped(message: String)
  }

  /// One `<testcase>`.
  public struct Case: Sendable {
    /// The `classname`: what was checked (`gate.trie`).
    public var group: String
    /// The case's name within its group (`ratio.p50`, `cities syllable`).
    public var name: String
    /// How it ended.
    public var outcome: Outcome
    /// The time it took, in seconds.
    public var seconds: Double

    /// A case of `group` called `name` that ended with `outcome`.
    public init(group: String, name: String, outcome: Outcome, seconds: Double = 0) {
      self.group = group
      self.name = name
      self.outcome = outcome
      self.seconds = seconds
    }
  }

  /// The `<testsuite>`'s name.
  public var suite: String
  /// The cases, in the order added.
  public private(set) var cases: [Case] = []

  /// An empty suite called `suite`.
  public init(suite: String) { self.suite = suite }

  /// Appends `testCase`.
  public mutating func add(_ testCase: Case) { cases.append(testCase) }

  /// How many cases failed.
  public var failures: Int { cases.filter { if case .failed = $0.outcome { true } else { false } }.count }
  /// How many cases were skipped.
  public var skipped: Int { cases.filter { if case .skipped = $0.outcome { true } else { false } }.count }

  /// The XML document: one `<testsuite>` in a `<testsuites>`.
  public var xml: String {
    let e = XMLText.escape
    let time = String(format: "%.3f", cases.reduce(0) { $0 + $1.seconds })
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out +=
      "<testsuites name=\"\(e(suite))\" tests=\"\(cases.count)\" failures=\"\(failures)\" skipped=\"\(skipped)\">\n"
    out +=
      "  <testsuite name=\"\(e(suite))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" time=\"\(time)\">\n"
    for c in cases {
      let open =
        "    <testcase classname=\"\(e(c.group))\" name=\"\(e(c.name))\" time=\"\(String(format: "%.3f", c.seconds))\""
      switch c.outcome {
      case .passed:
        out += open + "/>\n"
      case .failed(let message, let details):
        out += open + ">\n      <failure message=\"\(e(message))\">\(e(details))</failure>\n    </testcase>\n"
      case .skipped(let message):
        out += open + ">\n      <skipped message=\"\(e(message))\"/>\n    </testcase>\n"
      }
    }
    return out + "  </testsuite>\n</testsuites>\n"
  }
}

extension JUnitReport {
  /// A conformance verdict as JUnit: a test case per backend, tier and mode, one per
  /// input-cost check, and one per tier whose expected failures were checked for passes.
  public init(conformance result: ConformanceResult) {
    self.init(suite: "citybench conform")
    for check in result.checks {
      let group = "conform.\(check.backend)"
      let name = "\(check.tier) \(check.mode)"
      if let error = check.buildError {
        add(Case(group: group, name: name, outcome: .failed(message: "build failed", details: error)))
        continue
      }
      let outcome: Outcome =
        check.unexpectedCount == 0
        ? .passed
        : .failed(
          message: "\(check.unexpectedCount) unexpected divergences",
          details: ([check.line(shard: result.shard)] + check.divergences.prefix(1).map(\.reproduction)).joined(
            separator: "\n"))
      add(Case(group: group, name: name, outcome: outcome, seconds: check.seconds))
      if let cost = check.inputCost {
        add(
          Case(
            group: group, name: name + " input cost",
            outcome: cost.withinBound
              ? .passed : .failed(message: "a query over the input-cost bound", details: cost.summary)))
      }
    }
    guard result.shard == nil else { return }
    let passes = result.unexpectedPasses
    for listed in result.listedPlaces {
      let found = passes.first { $0.tier == listed.tier && $0.backend == listed.backend }
      add(
        Case(
          group: "conform.\(listed.backend)", name: "\(listed.tier) expected failures",
          outcome: found.map {
            .failed(
              message: "\($0.places.count) listed places took part in no divergence",
              details: $0.places.prefix(50).map(String.init).joined(separator: ", "))
          } ?? .passed))
    }
  }
}

extension GateReport {
  /// The verdict as JUnit: one test case per gated metric (a regression fails, an
  /// inconclusive metric is skipped with its reason).
  public var junit: JUnitReport {
    var report = JUnitReport(suite: "citybench gate")
    for m in metrics {
      let outcome: JUnitReport.Outcome
      switch m.verdict {
      case .pass: outcome = .passed
      case .inconclusive: outcome = .skipped(message: "inconclusive: \(m.note)")
      case .regression: outcome = .failed(message: "regression: \(m.note)", details: annotation(m))
      }
      report.add(JUnitReport.Case(group: "gate.\(m.backend)", name: m.metric, outcome: outcome))
    }
    for skip in skipped ?? [] {
      report.add(
        JUnitReport.Case(
          group: "gate.\(skip.backend)", name: skip.metric, outcome: .skipped(message: "not compared: \(skip.reason)")))
    }
    return report
  }

  /// One metric in a line: `trie ratio.p50: baseline 0.05×, current 0.08×, change 1.60× (allowed +30%)`.
  public func annotation(_ m: GateMetric) -> String {
    var parts = ["\(m.backend) \(m.metric): \(m.verdict.rawValue)"]
    if let b = m.baseline, let c = m.current {
      parts.append("baseline \(Self.figure(b.value, m.metric)), current \(Self.figure(c.value, m.metric))")
    }
    if let change = m.change { parts.append("change \(Self.change(change))") }
    if let allowed = m.allowed { parts.append("allowed +\(Gate.percent(allowed))") }
    parts.append(m.note)
    return parts.joined(separator: "; ")
  }

  /// A figure of `metric` as the verdict shows it.
  static func figure(_ value: Double, _ metric: String) -> String {
    if metric == "countedBytes" { return megabytes(Int(value)) }
    if metric.hasPrefix("instructions.") || metric.hasPrefix("allocations.") { return Formatting.count(Int(value)) }
    return Formatting.ratio(value)
  }

  /// A change: with its interval when it has one, else to four decimals (a deterministic
  /// count, where 1.003× matters).
  static func change(_ e: Estimate) -> String {
    e.lower == e.upper ? String(format: "%.4f×", e.value) : Formatting.estimate(e, Formatting.ratio)
  }

  /// GitHub Actions workflow commands: an `::error` line per regression, a `::warning` line
  /// per inconclusive metric and per count not compared.
  public var workflowCommands: [String] {
    // Workflow commands end at a newline; %, CR and LF are written as their escapes.
    func escaped(_ text: String) -> String {
      text.replacingOccurrences(of: "%", with: "%25")
        .replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }
    let verdicts = metrics.compactMap { m -> String? in
      let level: String
      switch m.verdict {
      case .pass: return nil
      case .inconclusive: level = "warning"
      case .regression: level = "error"
      }
      return "::\(level) title=citybench gate (\(m.verdict.rawValue))::\(escaped(annotation(m)))"
    }
    let skips = (skipped ?? []).map {
      "::warning title=citybench gate (not compared)::\(escaped("\($0.backend) \($0.metric): \($0.reason)"))"
    }
    return verdicts + skips
  }
}
