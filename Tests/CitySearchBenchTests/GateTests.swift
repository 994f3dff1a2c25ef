import CitySearchTestSupport
import Foundation
import Testing

@testable import CitySearchBench

/// The gate's verdicts on synthetic result files.
@Suite(.timed) struct GateTests {
  let thresholds = GateThresholds(ratio: ["p50": 0.25, "p90": 0.35, "p99": 0.5], countedBytes: 0.1)

  /// An estimate `value` with a relative half-width `spread`.
  func e(_ value: Double, _ spread: Double = 0.02) -> Estimate {
    Estimate(value: value, lower: value * (1 - spread), upper: value * (1 + spread))
  }

  func ratios(_ p50: Estimate, _ p90: Estimate? = nil, _ p99: Estimate? = nil) -> RatioSummary {
    RatioSummary(count: 1000, p50: p50, p90: p90 ?? p50, p99: p99 ?? p50)
  }

  func backend(_ name: String, ratio: RatioSummary?, counted: Int = 1000, divergences: Int = 0) -> BackendResults {
    BackendResults(
      name: name, summary: "", build: .init(seconds: 0.1, heapBytes: nil, countedBytes: counted, notes: [:]),
      sampling: .init(keystrokes: 1000, timedKeystrokes: 1000, stride: 1, warmUpMeanNanoseconds: 1),
      latency: nil, curve: [], byLength: [], byStyle: [], sessions: nil, ratioToReference: ratio,
      conformance: .init(checked: 1000, divergences: divergences, first: nil))
  }

  func results(
    _ backends: [BackendResults], noise: RatioSummary? = nil, workload: String = "w"
  ) -> BenchResults {
    BenchResults(
      schemaVersion: 1, metadata: BenchFixtures.metadata(workloadChecksum: workload), reference: "linear",
      noiseFloor: noise ?? ratios(e(1, 0.01), e(1.05, 0.01), e(1.1, 0.02)),
      backends: [backend("linear", ratio: nil)] + backends, relevance: nil)
  }

  func compare(_ baseline: BenchResults, _ current: BenchResults) throws -> GateReport {
    try Gate.compare(
      baseline: baseline, current: current, thresholds: thresholds, baselinePath: "base.json", currentPath: "cur.json")
  }

  func metric(_ report: GateReport, _ backend: String, _ name: String) -> GateMetric? {
    report.metrics.first { $0.backend == backend && $0.metric == name }
  }

  @Test func unchangedRunPasses() throws {
    let base = results([backend("trie", ratio: ratios(e(0.03), e(0.4), e(0.8)))])
    let report = try compare(base, base)
    #expect(report.verdict == .pass)
    #expect(report.exitStatus == 0)
    #expect(report.metrics.filter { $0.backend == "trie" }.count == 5)
  }

  @Test func clearRegressionFails() throws {
    let base = results([backend("trie", ratio: ratios(e(0.03), e(0.4), e(0.8)))])
    let slower = results([backend("trie", ratio: ratios(e(0.06), e(0.4), e(0.8)))])
    let report = try compare(base, slower)
    #expect(report.verdict == .regression)
    #expect(report.exitStatus == 2)
    #expect(metric(report, "trie", "ratio.p50")?.verdict == .regression)
    #expect(metric(report, "trie", "ratio.p90")?.verdict == .pass)
    #expect(report.markdown.contains("**regression**"))
  }

  @Test func fasterPasses() throws {
    let base = results([backend("trie", ratio: ratios(e(0.06)))])
    let faster = results([backend("trie", ratio: ratios(e(0.03)))])
    let report = try compare(base, faster)
    #expect(report.verdict == .pass)
    #expect(metric(report, "trie", "ratio.p50")?.note == "faster beyond the allowed change")
  }

  @Test func changeWithinNoiseOfItsIntervalIsInconclusive() throws {
    // +25% allowed; a change of 1.25× whose interval spans 1.1×–1.4× cannot be called either way.
    let base = results([backend("trie", ratio: ratios(e(0.04, 0.01)))])
    let wobbly = results([backend("trie", ratio: ratios(Estimate(value: 0.05, lower: 0.0445, upper: 0.0565)))])
    let report = try compare(base, wobbly)
    #expect(metric(report, "trie", "ratio.p50")?.verdict == .inconclusive)
    #expect(report.verdict == .inconclusive)
    #expect(report.exitStatus == 3)
  }

  @Test func regressionsSmallerThanTheNoiseFloorAreNotCalled() throws {
    // p99 grows 1.8× with a tight interval: beyond the 50% threshold, but the A/A pair moves
    // 2× at p99 in this run, so the gate will not call it.
    let noisy = ratios(e(1, 0.01), e(1.2, 0.02), Estimate(value: 1.9, lower: 1.8, upper: 2.0))
    let base = results([backend("trie", ratio: ratios(e(0.03), e(0.4), e(0.5)))], noise: noisy)
    let current = results([backend("trie", ratio: ratios(e(0.03), e(0.4), e(0.9)))], noise: noisy)
    let report = try compare(base, current)
    let p99 = try #require(metric(report, "trie", "ratio.p99"))
    #expect(p99.noise == 1.0)
    #expect(p99.allowed == 1.0)
    #expect(p99.verdict != .regression)
    // The same change with a quiet A/A pair is a regression.
    let quietReport = try compare(
      results([backend("trie", ratio: ratios(e(0.03), e(0.4), e(0.5)))]),
      results([backend("trie", ratio: ratios(e(0.03), e(0.4), e(0.9)))]))
    #expect(metric(quietReport, "trie", "ratio.p99")?.verdict == .regression)
  }

  /// A metric whose A/A noise allows more than twice its threshold (and +100%) cannot pass:
  /// it is blind to the regressions its threshold is there to catch. One beyond even that
  /// allowance is still a regression.
  @Test func aBlindMetricIsInconclusiveNeverAPass() throws {
    // A loaded machine: the reference against itself moves 5× at p99.
    let loaded = ratios(e(1, 0.01), e(1.2, 0.02), Estimate(value: 4.5, lower: 4, upper: 5))
    let base = results([backend("trie", ratio: ratios(e(0.03), e(0.4), e(0.5)))], noise: loaded)
    let same = try compare(base, results([backend("trie", ratio: ratios(e(0.03), e(0.4), e(0.5)))], noise: loaded))
    let p99 = try #require(metric(same, "trie", "ratio.p99"))
    #expect(p99.allowed == 4)
    #expect(p99.verdict == .inconclusive)
    #expect(p99.note.hasPrefix("blind: the A/A noise hides any change below +400%"))
    #expect(metric(same, "trie", "ratio.p50")?.verdict == .pass)
    #expect(same.verdict == .inconclusive)
    let huge = try compare(base, results([backend("trie", ratio: ratios(e(0.03), e(0.4), e(3.5)))], noise: loaded))
    #expect(metric(huge, "trie", "ratio.p99")?.verdict == .regression)
    #expect(Gate.blindness(threshold: 0.3) == 1 && Gate.blindness(threshold: 0.75) == 1.5)
  }

  @Test func deterministicCountsAndConformanceAreGated() throws {
    let base = results([backend("trie", ratio: ratios(e(0.03)), counted: 1000)])
    let bigger = results([backend("trie", ratio: ratios(e(0.03)), counted: 1200)])
    #expect(metric(try compare(base, bigger), "trie", "countedBytes")?.verdict == .regression)
    let wrong = results([backend("trie", ratio: ratios(e(0.03)), divergences: 3)])
    let report = try compare(base, wrong)
    #expect(metric(report, "trie", "conformance")?.verdict == .regression)
    #expect(report.verdict == .regression)
  }

  @Test func aBackendMissingFromTheRunIsAnError() throws {
    let base = results([backend("trie", ratio: ratios(e(0.03))), backend("icu", ratio: ratios(e(1000, 0.5)))])
    let current = results([backend("trie", ratio: ratios(e(0.03)))])
    let mismatch = #expect(throws: GateMismatch.self) { try compare(base, current) }
    #expect(mismatch?.message.contains("backends linear,trie vs baseline linear,trie,icu") == true)
  }

  /// Every setting that changes what is measured is compared, and each difference is named
  /// with both values.
  @Test func runsWithOtherSettingsAreNotCompared() throws {
    let base = results([backend("trie", ratio: ratios(e(0.03))), backend("sqlite-fts5", ratio: ratios(e(0.5)))])
    var other = base
    other.metadata.budgetSeconds = 10
    other.metadata.rounds = 3
    other.metadata.warmUpKeystrokes = 100
    other.metadata.buildConfiguration = "release"
    other.metadata.mode = "seed"
    other.backends[2].sampling.stride = 3
    let mismatch = #expect(throws: GateMismatch.self) { try compare(base, other) }
    let message = mismatch?.message ?? ""
    for expected in [
      "budget 10 s vs baseline 1 s", "rounds 3 vs baseline 1", "warm-up 100 vs baseline 0",
      "build configuration release vs baseline debug", "mode seed vs baseline syllable",
      "sampling of sqlite-fts5: one keystroke in 3 timed vs baseline every keystroke",
    ] {
      #expect(message.contains(expected), "\(expected) in: \(message)")
    }
    // The same settings compare, whatever the seed.
    var reseeded = base
    reseeded.metadata.seed = 7
    #expect(try compare(base, reseeded).verdict == .pass)
  }

  func counted(_ total: Int, p50: Int, p99: Int, tool: String = "callgrind (valgrind-3.19.0)") -> InstructionSummary {
    // 100 sampled keystrokes: 98 at p50, one at p99 and one above it.
    InstructionSummary(
      tool: tool, keystrokes: 1_000, total: total, sampled: Array(repeating: p50, count: 98) + [p99, p99 * 2],
      stride: 10)
  }

  /// Instruction counts are gated without an interval, against tight thresholds.
  @Test func instructionCountsAreGatedTightly() throws {
    func run(_ summary: InstructionSummary) -> BenchResults {
      var r = results([backend("trie", ratio: ratios(e(0.03)))])
      r.backends[1].instructions = summary
      return r
    }
    let base = run(counted(1_000_000, p50: 1_000, p99: 50_000))
    let same = try compare(base, run(counted(1_000_300, p50: 1_000, p99: 50_010)))
    #expect(same.verdict == .pass)
    #expect(metric(same, "trie", "instructions.total")?.verdict == .pass)

    let morePerKeystroke = try compare(base, run(counted(1_060_000, p50: 1_060, p99: 53_000)))
    #expect(morePerKeystroke.verdict == .regression)
    for name in ["instructions.p50", "instructions.p99", "instructions.total"] {
      #expect(metric(morePerKeystroke, "trie", name)?.verdict == .regression, "\(name)")
    }
    #expect(metric(morePerKeystroke, "trie", "instructions.total")?.change?.value == 1.06)
    // A 2% move of a quantile (one cluster of keystrokes to the next) is within its +5%; the
    // total's +1% is not.
    let jitter = try compare(base, run(counted(1_020_000, p50: 1_020, p99: 50_000)))
    #expect(metric(jitter, "trie", "instructions.p50")?.verdict == .pass)
    #expect(metric(jitter, "trie", "instructions.total")?.verdict == .regression)

    let fewer = try compare(base, run(counted(900_000, p50: 900, p99: 45_000)))
    #expect(fewer.verdict == .pass)
    #expect(metric(fewer, "trie", "instructions.p50")?.note == "fewer instructions beyond the allowed change")

    // Counts by another valgrind (a fresh runner's image) are not compared: a warning, not an
    // error, and no part of the verdict; the ratios are still gated. Nor are counts one run lacks.
    let otherTool = try compare(
      base, run(counted(2_000_000, p50: 2_000, p99: 90_000, tool: "callgrind (valgrind-3.22.0)")))
    #expect(otherTool.verdict == .pass)
    #expect(metric(otherTool, "trie", "instructions.total") == nil)
    #expect(metric(otherTool, "trie", "ratio.p50")?.verdict == .pass)
    #expect(otherTool.skipped?.map(\.metric) == ["instructions"])
    #expect(otherTool.skipped?.first?.reason.contains("counted by callgrind (valgrind-3.22.0) here") == true)
    #expect(otherTool.markdown.contains("## Not compared"))
    #expect(
      otherTool.workflowCommands.contains { $0.hasPrefix("::warning title=citybench gate (not compared)::trie") })
    #expect(otherTool.junit.xml.contains("not compared: counted by"))
    let uncounted = try compare(base, results([backend("trie", ratio: ratios(e(0.03)))]))
    #expect(uncounted.verdict == .pass)
    #expect(uncounted.skipped?.first?.reason.contains("valgrind missing?") == true)
  }

  /// Allocation calls are gated like instruction counts: exact, so no interval; a backend
  /// counted on one side only is reported as not compared.
  @Test func allocationCountsAreGatedAndMustBeCountedOnBothSides() throws {
    func run(_ counts: [Int]?) -> BenchResults {
      var r = results([backend("trie", ratio: ratios(e(0.03)))])
      r.backends[1].allocations = counts.map { AllocationSummary(counts: $0) }
      return r
    }
    let steady = Array(repeating: 2, count: 98) + [18, 18]
    let base = run(steady)
    let same = try compare(base, run(steady))
    #expect(metric(same, "trie", "allocations.p99")?.verdict == .pass)
    #expect(metric(same, "trie", "allocations.total")?.note == "within 2%")
    // Two more calls at the tail: p99 18 → 20 (+11%) is within +15%; the total's +1.7% within +2%.
    let tail = try compare(base, run(Array(repeating: 2, count: 98) + [20, 20]))
    #expect(tail.verdict == .pass)
    // One more call on every keystroke doubles the total.
    let everyKeystroke = try compare(base, run(steady.map { $0 + 1 }))
    #expect(metric(everyKeystroke, "trie", "allocations.total")?.verdict == .regression)
    #expect(metric(everyKeystroke, "trie", "allocations.total")?.note == "more allocation calls by more than 2%")
    let notCounted = try compare(base, run(nil))
    #expect(notCounted.verdict == .pass)
    #expect(notCounted.skipped?.map { "\($0.backend) \($0.metric)" } == ["trie allocations"])
    #expect(notCounted.skipped?.first?.reason.hasPrefix("counted in the baseline only") == true)
  }

  /// An empty measurement is an error, never a pass.
  @Test func nothingToGateIsAnError() throws {
    let base = results([backend("trie", ratio: ratios(e(0.03)))])
    let none = results([])
    let noBaselineBackend = #expect(throws: GateMismatch.self) { try compare(none, base) }
    #expect(
      noBaselineBackend?.message == "the baseline holds no backend besides the reference; there is nothing to gate")
    let noCurrentBackend = #expect(throws: GateMismatch.self) { try compare(base, none) }
    #expect(noCurrentBackend?.message.hasPrefix("the run measures none of the baseline's backends (trie)") == true)

    // A results file whose backends are empty (or lack the reference) does not load.
    let directory = try BenchFixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var empty = base
    empty.backends = []
    let path = directory.appendingPathComponent("empty.json").path
    try AtomicFile.write(empty.jsonData(), to: path)
    let unreadable = #expect(throws: ResultsFileError.self) { try BenchResults(contentsOf: path) }
    #expect(unreadable?.message == "it measures no backend ('backends' is empty)")
  }

  @Test func differentWorkIsAnError() throws {
    let base = results([backend("trie", ratio: ratios(e(0.03)))])
    let other = results([backend("trie", ratio: ratios(e(0.03)))], workload: "other")
    #expect {
      try compare(base, other)
    } throws: { error in
      "\(error)".contains("workload other vs baseline w")
    }
  }

  @Test func perBackendThresholdsOverrideTheDefault() throws {
    var loose = thresholds
    loose.backends = ["trie": ["p50": 2.0]]
    #expect(loose.ratioThreshold(.p50, backend: "trie") == 2.0)
    #expect(loose.ratioThreshold(.p90, backend: "trie") == 0.35)
    #expect(loose.ratioThreshold(.p50, backend: "icu") == 0.25)
  }

  @Test func thresholdsFileIsValidated() throws {
    let directory = try BenchFixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("t.json").path
    try AtomicFile.write(#"{"schemaVersion":1,"ratio":{"p75":0.2},"backends":{},"countedBytes":0.1}"#, to: path)
    #expect {
      try GateThresholds(contentsOf: path)
    } throws: { error in
      "\(error)".contains("unknown quantile 'p75'")
    }
    try AtomicFile.write(
      #"{"schemaVersion":1,"ratio":{},"backends":{},"countedBytes":0.1,"instructions":{"mean":0.01}}"#, to: path)
    #expect {
      try GateThresholds(contentsOf: path)
    } throws: { error in
      "\(error)".contains("unknown instruction metric 'mean' (use p50, p99, total)")
    }
    let committed = BenchFixtures.packageRoot.appendingPathComponent("Benchmarks/thresholds.json").path
    let real = try GateThresholds(contentsOf: committed)
    #expect(real.ratio["p50"] != nil)
  }

  /// The verdict names each run's machine by its fingerprint, and says when they differ.
  @Test func theVerdictSaysWhichMachinesTheRunsWereMadeOn() throws {
    let base = results([backend("trie", ratio: ratios(e(0.03)))])
    let same = try compare(base, base)
    #expect(same.baseline.machine == base.metadata.machine.fingerprint)
    #expect(same.baseline.machine?.count == 8)
    #expect(!same.markdown.contains("different machines"))
    var elsewhere = base
    elsewhere.metadata.machine.cpuModel = "another CPU"
    elsewhere.metadata.machine.kernel = "another kernel"
    let report = try compare(base, elsewhere)
    #expect(report.current.machine != report.baseline.machine)
    #expect(report.markdown.contains("**The runs were made on different machines.**"))
    // The kernel release is not part of the fingerprint.
    var updated = base
    updated.metadata.machine.kernel = "6.99"
    #expect(updated.metadata.machine.fingerprint == base.metadata.machine.fingerprint)
  }

  @Test func verdictJSONRoundTrips() throws {
    let base = results([backend("trie", ratio: ratios(e(0.03)))])
    let report = try compare(base, base)
    let decoded = try JSONDecoder().decode(GateReport.self, from: report.jsonData())
    #expect(decoded.verdict == .pass)
    #expect(decoded.metrics.count == report.metrics.count)
  }
}

/// `citybench compare`: any two runs, nothing refused.
@Suite(.timed) struct RunComparisonTests {
  let gate = GateTests()

  @Test func changesBeyondTheIntervalsAreNamedAndOtherSettingsListed() throws {
    let a = gate.results([gate.backend("trie", ratio: gate.ratios(gate.e(0.03), gate.e(0.4), gate.e(0.5)))])
    var b = gate.results([gate.backend("trie", ratio: gate.ratios(gate.e(0.03), gate.e(0.4), gate.e(0.9)))])
    b.metadata.rounds = 5
    b.metadata.mode = "seed"
    let comparison = RunComparison(a: a, b: b, aPath: "main.json", bPath: "pr.json")
    let rows = Dictionary(uniqueKeysWithValues: comparison.rows.map { ("\($0.backend) \($0.metric)", $0) })
    #expect(rows["trie ratio.p99"]?.finding == .higher)
    #expect(rows["trie ratio.p50"]?.finding == .same)
    #expect(rows["trie ratio.p99"]?.change.value == 1.8)
    #expect(comparison.settingDifferences.contains("rounds 5 in B, 1"))
    #expect(comparison.settingDifferences.contains("mode seed in B, syllable"))
    let markdown = comparison.markdown
    #expect(markdown.contains("**Settings differ**"))
    let row =
      "| trie | ratio.p99 | 0.50× [0.49×–0.51×] | 0.90× [0.88×–0.92×] | 1.80× [1.73×–1.87×] | intervals | **higher** |"
    #expect(markdown.contains(row))
    #expect(markdown.contains("trie ratio.p99 higher"))
    // A run against itself: nothing changed, the same settings.
    let same = RunComparison(a: a, b: a, aPath: "a", bPath: "a")
    #expect(same.rows.allSatisfy { $0.finding == .same })
    #expect(same.settingDifferences.isEmpty)
    #expect(same.markdown.contains("0 of \(same.rows.count) figures changed"))
  }

  @Test func countsCompareExactlyAndOneSidedBackendsAreListed() throws {
    var a = gate.results([gate.backend("trie", ratio: gate.ratios(gate.e(0.03)), counted: 1000)])
    var b = gate.results([
      gate.backend("trie", ratio: gate.ratios(gate.e(0.03)), counted: 1001),
      gate.backend("icu", ratio: gate.ratios(gate.e(2))),
    ])
    a.backends[1].allocations = AllocationSummary(counts: [2, 2, 2])
    b.backends[1].allocations = AllocationSummary(counts: [2, 2, 2])
    let comparison = RunComparison(a: a, b: b, aPath: "a", bPath: "b")
    let rows = Dictionary(uniqueKeysWithValues: comparison.rows.map { ("\($0.backend) \($0.metric)", $0) })
    #expect(rows["trie countedBytes"]?.finding == .higher)
    #expect(rows["trie allocations.total"]?.finding == .same)
    #expect(comparison.unmatched == ["icu"])
  }
}
