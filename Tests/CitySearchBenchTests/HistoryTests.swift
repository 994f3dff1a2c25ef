import CitySearch
import CitySearchBench
import CitySearchHistory
import CitySearchTestSupport
import Foundation
import FoundationXML
import Testing

@Suite(.timed) struct HistoryTests {
  @Test func changePointsFindSustainedShiftsNotOutliers() {
    // A step up of 30% after run 3.
    #expect(
      changePoints([10, 10.2, 9.9, 13, 13.1, 12.9], threshold: 0.1, minimumSegment: 2).map(\.index) == [3])
    // One noisy run is not a change for a wall-clock figure (two runs needed on each side)…
    #expect(changePoints([10, 10.1, 18, 10, 9.9, 10], threshold: 0.1, minimumSegment: 2).isEmpty)
    // …and a shift within the threshold is none.
    #expect(changePoints([10, 10, 10, 10.5, 10.5, 10.5], threshold: 0.1, minimumSegment: 2).isEmpty)
    // A count may change on the last run.
    let last = changePoints([100, 100, 100, 100, 105], threshold: 0.01, minimumSegment: 1)
    #expect(last.map(\.index) == [4] && last[0].before == 100 && last[0].after == 105)
    // Overlapping sides are no change, however far their medians.
    #expect(changePoints([10, 20, 10, 20, 30, 10, 30, 30], threshold: 0.1, minimumSegment: 2).isEmpty)
    // Two steps, up then down; and a slow drift of 5% a commit over ten commits.
    #expect(
      changePoints([1, 1, 1, 2, 2, 2, 1.2, 1.2], threshold: 0.3, minimumSegment: 2).map(\.index) == [3, 6])
    let drift = (0..<10).map { pow(1.05, Double($0)) }
    #expect(!changePoints(drift, threshold: 0.2, minimumSegment: 2).isEmpty)
  }

  /// Five runs of five commits, the trie's figures 1.6× slower and 5% more instructions from
  /// the fourth: stored in one file, the report marks the change at the fourth commit.
  @Test func storedRunsShowTheirChangePoints() throws {
    let dir = try BenchFixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    defer { try? FileManager.default.removeItem(at: dir) }
    let base = try Self.results()
    let runs = (0..<5).map { i in
      var r = base
      r.metadata.gitCommit = String(repeating: String(i), count: 40)
      r.metadata.startedAt = "2026-12-0\(i + 1)T00:00:00Z"
      let slower = i >= 3 ? 1.6 : 1 + 0.02 * Double(i % 2)
      for b in r.backends.indices where r.backends[b].name == "trie" {
        r.backends[b].latency!.p50.value *= slower
        r.backends[b].ratioToReference!.p50.value *= slower
        r.backends[b].instructions = InstructionSummary(
          tool: "callgrind", keystrokes: 10, total: i >= 3 ? 1_050_000 : 1_000_000, sampled: [100, 110, 120], stride: 1)
      }
      return r
    }
    let path = dir.appendingPathComponent("history.sqlite").path
    let store = try HistoryStore(path: path, create: true)
    let inputs = try runs.enumerated().map { ("run\($0.offset).json", $0.element, try $0.element.jsonData()) }
    let outcomes = try store.add(inputs)
    #expect(outcomes.allSatisfy { if case .added = $0 { true } else { false } })
    // The same file again is skipped; nothing else changes.
    #expect(try store.add([inputs[2]]) == [.duplicate(run: 3)])
    #expect(try store.runs().count == 5)

    let analysis = try HistoryAnalysis(
      store: HistoryStore(path: path, create: false),
      metrics: ["ratio.p50", "instructions.total", "latency.p99", "conformance.divergences"],
      backends: nil, thresholds: .fallback)
    #expect(analysis.series.count == 1)
    let trends = analysis.series[0].trends
    let ratio = try #require(trends.first { $0.backend == "trie" && $0.metric == "ratio.p50" })
    #expect(ratio.changePoints.map(\.index) == [3])
    let counted = try #require(trends.first { $0.backend == "trie" && $0.metric == "instructions.total" })
    #expect(counted.changePoints.map(\.index) == [3])
    #expect(counted.changePoints[0].change == 1.05)
    #expect(trends.filter { $0.metric == "latency.p99" }.allSatisfy { $0.changePoints.isEmpty })
    #expect(analysis.text.contains("change point: trie ratio.p50"))
    #expect(analysis.text.contains("at 3333333, after 2222222"))

    let html = HistoryReport.html(analysis, source: "history.sqlite")
    let parser = XMLParser(data: Data(html.utf8))
    #expect(parser.parse(), "history.html is not well-formed: \(parser.parserError.map { "\($0)" } ?? "")")
    #expect(html.contains("stroke-dasharray"))
    // Divergences are all zero: no relative scale, so no chart of them, and no NaN anywhere.
    #expect(!html.contains("nan") && !html.contains("conformance.divergences, relative"))
    #expect(html.contains("trie ratio.p50: change point at 3333333"))
  }

  /// Allocation calls are kept like instruction counts: deterministic figures, shown as counts.
  @Test func allocationCallsAreKeptAsCounts() throws {
    var r = try Self.results()
    let trie = try #require(r.backends.firstIndex { $0.name == "trie" })
    r.backends[trie].allocations = AllocationSummary(counts: [2, 2, 18])
    let figures = HistoryMetric.figures(r).filter { $0.backend == "trie" && $0.metric.hasPrefix("allocations.") }
    #expect(Set(figures.map(\.metric)).isSubset(of: Set(HistoryMetric.known)))
    #expect(figures.first { $0.metric == "allocations.total" }?.value == 22)
    #expect(HistoryMetric.isDeterministic("allocations.p99"))
    #expect(HistoryMetric.threshold("allocations.total", backend: "trie", gate: .fallback) == 0.02)
    #expect(HistoryMetric.format(110_091, metric: "allocations.total") == "110,091")
  }

  @Test func badHistoriesAndShardsAreRefusedByName() throws {
    let dir = try BenchFixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    defer { try? FileManager.default.removeItem(at: dir) }
    let missing = dir.appendingPathComponent("none.sqlite").path
    let absent = #expect(throws: HistoryError.self) { try HistoryStore(path: missing, create: false) }
    #expect(absent?.description.hasPrefix("\(missing): no such history") == true)
    let junk = dir.appendingPathComponent("junk.sqlite").path
    try Data(String(repeating: "not a database ", count: 100).utf8).write(to: URL(fileURLWithPath: junk))
    let notDatabase = #expect(throws: HistoryError.self) { try HistoryStore(path: junk, create: true) }
    #expect(notDatabase?.description.hasPrefix("\(junk): file is not a database") == true)

    let path = dir.appendingPathComponent("h.sqlite").path
    let store = try HistoryStore(path: path, create: true)
    var shard = try Self.results()
    shard.metadata.shard = .init(index: 1, count: 2, backends: ["linear", "trie"])
    let good = try Self.results()
    // One bad part refuses the whole addition: the good one is not stored either.
    #expect(throws: HistoryError.self) {
      try store.add([("good.json", good, try good.jsonData()), ("shard.json", shard, try shard.jsonData())])
    }
    #expect(try store.runs().isEmpty)
  }

  /// The history keeps real runs: a run with injected work is refused by name, and a run that
  /// timed a backend on every k-th keystroke goes to a series of its own, marked.
  @Test func injectedRunsAreRefusedAndSampledRunsAreASeriesOfTheirOwn() throws {
    let dir = try BenchFixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = try HistoryStore(path: dir.appendingPathComponent("h.sqlite").path, create: true)
    var injected = try Self.results()
    injected.metadata.slowdownNanoseconds = ["trie": 3_000_000]
    let refused = #expect(throws: HistoryError.self) {
      try store.add([("slow.json", injected, try injected.jsonData())])
    }
    #expect(refused?.description.hasPrefix("slow.json is not a real run: it injects work into trie") == true)
    #expect(try store.runs().isEmpty)

    let real = try Self.results()
    var sampled = real
    let index = try #require(sampled.backends.firstIndex { $0.name == "trie" })
    sampled.backends[index].sampling.stride = 4
    _ = try store.add([("real.json", real, try real.jsonData()), ("sampled.json", sampled, try sampled.jsonData())])
    let runs = try store.runs()
    #expect(runs.count == 2)
    #expect(Set(runs.map(\.series)).count == 2)
    #expect(runs.filter { $0.seriesDescription.hasSuffix(", sampled: trie 1 in 4") }.count == 1)
  }

  /// Two jobs adding to one new history at once both land (each check for the tables is made
  /// again under the write lock); tried five times.
  @Test func concurrentAddsToANewHistoryLoseNoRun() throws {
    let dir = try BenchFixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    defer { try? FileManager.default.removeItem(at: dir) }
    let base = try Self.results()
    for attempt in 0..<5 {
      let path = dir.appendingPathComponent("h\(attempt).sqlite").path
      let failures = Failures()
      DispatchQueue.concurrentPerform(iterations: 2) { i in
        do {
          var run = base
          run.metadata.gitCommit = String(repeating: String(i), count: 40)
          _ = try HistoryStore(path: path, create: true).add([("run\(i).json", run, try run.jsonData())])
        } catch {
          failures.add("\(error)")
        }
      }
      #expect(failures.all.isEmpty, "attempt \(attempt)")
      #expect(try HistoryStore(path: path, create: false).runs().count == 2, "attempt \(attempt)")
    }
  }

  /// Errors gathered from threads (NSLock rather than Synchronization's Mutex, which Apple
  /// platforms have only from macOS 15 and iOS 18).
  final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) {
      lock.lock()
      defer { lock.unlock() }
      items.append(item)
    }
    var all: [String] {
      lock.lock()
      defer { lock.unlock() }
      return items
    }
  }

  /// The fallback thresholds are the committed file's.
  @Test func fallbackThresholdsAreTheCommittedOnes() throws {
    let committed = try GateThresholds(
      contentsOf: BenchFixtures.packageRoot.appendingPathComponent("Benchmarks/thresholds.json").path)
    #expect(committed == GateThresholds.fallback)
  }

  static func results() throws -> BenchResults {
    let url = BenchFixtures.packageRoot.appendingPathComponent("Benchmarks/baseline-cities.json")
    return try BenchResults(contentsOf: url.path)
  }
}
