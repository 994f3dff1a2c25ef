import CitySearch
import CitySearchBackends
import CitySearchEngine
import CitySearchTestSupport
import Foundation
import Testing

@testable import CitySearchBench

@Suite(.timed) struct RunnerTests {
  @Test func everyAnswerIsTimedAndChecked() throws {
    let (results, raw) = try BenchFixtures.quickRun()
    let keystrokes = BenchFixtures.smallWorkload.keystrokeCount
    #expect(raw.series.map(\.name) == ["linear", noiseFloorName, "trie"])
    for series in raw.series {
      #expect(series.stride == 1)
      #expect(series.samples.count == 2 * keystrokes)
      #expect(series.samples.allSatisfy { ($0 ?? 0) > 0 })
    }
    let trie = try #require(results.backend(named: "trie"))
    #expect(trie.conformance.checked == 2 * keystrokes)
    #expect(trie.conformance.divergences == 0)
    #expect(trie.latency?.count == keystrokes)
    #expect(trie.sessions?.count == BenchFixtures.smallWorkload.sessions.count)
    #expect(trie.ratioToReference?.count == keystrokes)
    #expect(trie.curve.count == CurvePoint.fractions.count)
    #expect(results.conforms)
    #expect(results.metadata.workload.checksum == BenchFixtures.smallWorkload.checksum)
    #expect(results.metadata.corpus.checksum == BenchFixtures.cities.checksum)
    // The floor: every keystroke of every round timed, summarized, and a table in the reports.
    // The first round fills the floor's table; the second times it.
    #expect(raw.floor?.prefix(keystrokes).allSatisfy { $0 == nil } == true)
    #expect(raw.floor?.count == 2 * keystrokes && raw.floor?.suffix(keystrokes).allSatisfy { $0 != nil } == true)
    #expect(results.floor?.count == keystrokes)
    let table = try #require(ReportTable.againstFloor(results))
    #expect(table.rows.map(\.[0]) == ["floor", "linear", "trie"])
    // Alone and warm: the backends timed on every keystroke, not the reference or its twin.
    #expect(raw.series.map { $0.alone?.count } == [nil, nil, BenchRunner.alonePasses * keystrokes])
    #expect(raw.series[2].alone?.allSatisfy { ($0 ?? 0) > 0 } == true)
    #expect(trie.aloneLatency?.count == keystrokes && results.backend(named: "linear")?.aloneLatency == nil)
    #expect(ReportTable.alone(results)?.rows.map(\.[0]) == ["trie"])
  }

  /// The floor answers each text with the answer it was given, its hits copied up to its
  /// limit, and nothing for a text it was not given.
  @Test func theFloorAnswersFromItsTable() throws {
    let reference = LinearScanBackend(corpus: BenchFixtures.cities)
    let texts = ["bj", "beij", "xi'an", "上海"]
    let answers = texts.map { reference.search($0, limit: 20) }
    let floor = FloorReplay(corpus: BenchFixtures.cities, fuzzy: [], limit: 3, texts: texts, answers: answers)
    for (text, answer) in zip(texts, answers) {
      let copied = try #require(floor.answer(text))
      #expect(copied.total == answer.total)
      #expect(copied.hits.map(\.id) == answer.hits.prefix(3).map(\.id))
    }
    #expect(floor.answer("guangzhou") == nil)
    #expect(floor.timedAnswer("guangzhou") == nil && floor.timedAnswer("bj") != nil)
  }

  /// A run with fuzzy rules replays every keystroke read with them, the reference's answers
  /// too, and records them and the backends' options in its metadata.
  @Test func aFuzzyRunChecksEveryBackendUnderItsRulesAndSaysSo() throws {
    var configuration = BenchConfiguration()
    configuration.rounds = 1
    configuration.warmUpKeystrokes = 10
    configuration.fuzzy = .all
    let withAnswers = BackendOptions().setting(.fuzzyAnswers, to: true)
    let pipeline = BenchPipeline(
      corpus: BenchFixtures.cities, corpusName: "cities", workload: BenchFixtures.smallWorkload, workloadName: "small",
      candidates: [
        BenchCandidate(type: LinearScanBackend.self), BenchCandidate(type: TrieBackend.self, options: withAnswers),
        BenchCandidate(type: InvertedIndexBackend.self, options: withAnswers),
      ],
      configuration: configuration, packageDirectory: BenchFixtures.packageRoot.path)
    let (results, _) = try pipeline.run()
    #expect(results.metadata.fuzzy == "all")
    #expect(results.metadata.backendOptions == "fuzzy-answers=true")
    for name in ["trie", "inverted-index"] {
      let backend = try #require(results.backend(named: name))
      #expect(
        backend.conformance.checked == BenchFixtures.smallWorkload.keystrokeCount
          && backend.conformance.divergences == 0)
    }
    #expect(results.conforms)
  }

  @Test func aDivergenceIsCountedAndShown() throws {
    let (results, _) = try BenchFixtures.quickRun(extra: [BenchCandidate(type: DropsLastHitBackend.self)])
    let broken = try #require(results.backend(named: "drops-last-hit"))
    #expect(broken.conformance.divergences > 0)
    let first = try #require(broken.conformance.first)
    #expect(first.sideBySide.contains("expected (total"))
    #expect(first.difference.contains("total"))
    #expect(!results.conforms)
    #expect(results.backend(named: "trie")?.conformance.divergences == 0)
  }

  /// The stateless replay answers every keystroke from the index: a backend whose session is
  /// stuck conforms there and diverges in its session, reported side by side.
  @Test func theStatelessReplayAnswersEachKeystrokeAfresh() throws {
    let (results, _) = try BenchFixtures.quickRun(extra: [
      BenchCandidate(type: StuckSessionBackend.self), BenchCandidate(type: StuckSessionBackend.self, stateless: true),
    ])
    let session = try #require(results.backend(named: "stuck-session"))
    let stateless = try #require(results.backend(named: "stuck-session (stateless)"))
    #expect(session.conformance.divergences > 0 && session.replay == nil)
    #expect(stateless.conformance.divergences == 0 && stateless.conformance.checked > 0)
    #expect(stateless.replay == BackendResults.statelessReplay)
    #expect(BenchCandidate.sessionKeepsState(StuckSessionBackend.self))
    #expect(BenchCandidate.sessionKeepsState(TrieBackend.self))
    #expect(!BenchCandidate.sessionKeepsState(LinearScanBackend.self), "its session answers afresh anyway")
  }

  @Test func injectedSlowdownShowsInEverySample() throws {
    let (results, raw) = try BenchFixtures.quickRun(slowdowns: ["trie": 300_000])
    let trie = try #require(raw.series.first { $0.name == "trie" })
    #expect(trie.samples.allSatisfy { ($0 ?? 0) >= 300_000 })
    #expect(results.metadata.slowdownNanoseconds == ["trie": 300_000])
  }

  @Test func aBackendOverBudgetIsTimedOnAnEvenSample() throws {
    // 50 µs of work per answer, a budget of a millisecond: only the reference answers every keystroke.
    let (results, raw) = try BenchFixtures.quickRun(slowdowns: ["trie": 50_000], budgetSeconds: 0.001)
    let trie = try #require(raw.series.first { $0.name == "trie" })
    #expect(trie.stride > 1)
    let keystrokes = raw.keystrokes
    for round in 0..<raw.rounds {
      for k in 0..<keystrokes {
        #expect((trie.samples[round * keystrokes + k] != nil) == (k % trie.stride == 0))
      }
    }
    let summary = try #require(results.backend(named: "trie"))
    #expect(summary.sessions == nil)
    #expect(summary.sampling.timedKeystrokes == (keystrokes + trie.stride - 1) / trie.stride)
    #expect(summary.conformance.checked == raw.rounds * summary.sampling.timedKeystrokes)
    #expect(MarkdownReport.samplingNotes(results).count == 1)
    #expect(raw.series[0].stride == 1 && raw.series[1].stride == 1)
  }

  @Test func stopsWhenAsked() throws {
    let runner = BenchRunner(workload: BenchFixtures.smallWorkload, configuration: BenchConfiguration())
    let reference = LinearScanBackend(corpus: BenchFixtures.cities)
    #expect(throws: BenchInterrupted.self) {
      try runner.run(backends: [("linear", reference)], shouldStop: { true })
    }
  }
}
