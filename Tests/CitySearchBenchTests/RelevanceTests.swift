import CitySearch
import CitySearchBackends
import CitySearchConformance
import CitySearchCorpus
import CitySearchExecutor
import CitySearchTestSupport
import Foundation
import Testing

@testable import CitySearchBench

/// The relevance evaluation (docs/Relevance.md): the measures on hand-made traces, the replay,
/// and the committed hand-checked cases against the reference.
@Suite(.timed) struct RelevanceTests {
  static let casesPath = BenchFixtures.packageRoot.appendingPathComponent("Benchmarks/relevance-cases.tsv").path

  static func trace(_ style: String, weight: Double, ranks: [Int?]) -> RelevanceEvaluation.Trace {
    RelevanceEvaluation.Trace(
      place: 0, style: style, weight: weight, keystrokes: ranks.indices.map { String(repeating: "a", count: $0 + 1) },
      ranks: ranks, firsts: ranks.map { _ in 0 })
  }

  @Test func measuresOfHandMadeTraces() {
    // Weight 3: first after keystroke 2, top 3 after 1. Weight 1: never first (3 keystrokes,
    // costs 4), top 3 after 3.
    let a = Self.trace("initials", weight: 3, ranks: [2, 1, 1])
    let b = Self.trace("pinyin", weight: 1, ranks: [nil, 9, 3])
    #expect(a.keystrokes(toRank: 1) == 2)
    #expect(b.keystrokes(toRank: 1) == nil)
    #expect(b.cost(toRank: 1) == 4)
    let report = RelevanceEvaluation.report(corpus: "t", traces: [a, b], prominent: [])
    let toFirst: Double = (3 * 2 + 1 * 4) / 4
    let toTop3: Double = (3 * 1 + 1 * 3) / 4
    let reciprocal: [Double] = [1.5 / 4, (3 + 1.0 / 9) / 4, (3 + 1.0 / 3) / 4]
    #expect(report.meanKeystrokesToFirst == toFirst)
    #expect(report.meanKeystrokesToTop3 == toTop3)
    #expect(report.firstAfterTwoInitials == 1)  // only `a` is in initials, first at keystroke 2
    #expect(report.neverFirst == 0.25)
    #expect(zip(report.reciprocalRankByKeystroke, reciprocal).allSatisfy { abs($0 - $1) < 1e-12 })
    #expect(report.reciprocalRankByKeystroke.count == 3)
    #expect(report.worst(1).first?.style == "initials")  // 3 × 1 beyond the first > 1 × 3
    #expect(report.droppingOut == 0 && report.prominentDropOuts == 0)
  }

  @Test func dropOutsCountTheKeystrokesThatLoseFirst() {
    // First, lost, first again, lost: two drop-outs; weight 1 of 4 drops out.
    let unstable = Self.trace("pinyin", weight: 1, ranks: [1, 2, 1, nil])
    let stable = Self.trace("pinyin", weight: 3, ranks: [3, 1, 1, 1])
    #expect(unstable.dropOuts == 2)
    #expect(stable.dropOuts == 0)
    let report = RelevanceEvaluation.report(corpus: "t", traces: [unstable, stable], prominent: [0])
    #expect(report.droppingOut == 0.25)
    #expect(report.prominentDropOuts == 2)  // both traces are of place 0
    #expect(RelevanceEvaluation.report(corpus: "t", traces: [unstable], prominent: [7]).prominentDropOuts == 0)
  }

  @Test func shortNameTargetsTypeTheShortNameThreeWays() throws {
    let corpus = BenchFixtures.cities
    let evaluation = RelevanceEvaluation(corpus: corpus)
    let chengdu = try #require(corpus.index(of: 510100))
    var random = SplitMix64(seed: 1)
    let texts = evaluation.texts(place: chengdu, targets: .shortNames, random: &random)
    #expect(texts.map(\.text) == ["chengdu", "cd", "chengd"])
    #expect(texts.map(\.style) == ["short pinyin", "short initials", "short leading"])
  }

  /// A corpus of the places of two provinces of `cities`, with their facts: small enough to
  /// replay every target in a test.
  static func twoProvinces() throws -> Corpus {
    let cities = BenchFixtures.cities
    var builder = CorpusBuilder(source: "two provinces", tables: cities.tables)
    func root(_ index: Int) -> Int { cities.parentIndex(at: index).map(root) ?? index }
    for index in 0..<cities.count where [440000, 510000].contains(cities.id(at: root(index))) {
      let place = cities.place(at: index)
      try builder.add(
        PlaceRecord(
          id: place.id, parentID: place.parentID, level: Int(place.level.rawValue), name: place.name,
          pinyin: place.pinyin, shortName: place.shortName),
        at: RecordLocation(file: "two provinces", line: index + 1))
    }
    return try builder.build()
  }

  /// Other typists: on a keyboard every target is typed by its keys and each prefix asked as the
  /// layout reads it; a confuser types only the targets the rules respell, searched with them.
  @Test func keyboardAndFuzzyTypistsAreTracedByTheirOwnKeys() throws {
    let corpus = try Self.twoProvinces()
    let evaluation = RelevanceEvaluation(corpus: corpus)
    let xiaohe = try #require(try EmbeddedCorpus.keyboard(named: "xiaohe"))
    let typed = evaluation.run(on: xiaohe, fuzzy: [])
    #expect(typed.traces.count == (0..<corpus.count).filter { corpus.prominence(at: $0) > 0 }.count)
    #expect(typed.byStyle.map(\.style) == ["xiaohe"])
    let guangzhou = try #require(typed.traces.first { corpus.id(at: $0.place) == 440100 })
    #expect(guangzhou.keystrokes == ["g", "gl", "glv", "glvz", "glvzu", "glvzui"])  // 广州市, guang zhou shi
    #expect(guangzhou.keystrokes(toRank: 1) != nil)
    let rules = try FuzzyRules(parsing: "zh-z")
    let confused = evaluation.run(on: nil, fuzzy: rules)
    #expect(!confused.traces.isEmpty && confused.byStyle.map(\.style) == ["fuzzy"])
    // zh-z swaps either way: every traced name has a z or zh syllable, typed as the other.
    for trace in confused.traces {
      let syllables = corpus.pinyin(at: trace.place)
      #expect(trace.keystrokes.last! == WorkloadGenerator.confused(syllables, rules: rules).joined())
      #expect(trace.keystrokes.last! != syllables.joined() && syllables.contains { $0.hasPrefix("z") })
    }
    let zou = try #require(confused.traces.first { corpus.id(at: $0.place) == 440100 })
    #expect(zou.keystrokes.last! == "guangzoushi")
    #expect(zou.keystrokes(toRank: 1) != nil)
  }

  /// The sweep's report of the contract's weights is the reference's own, trace by trace.
  @Test func sweepOfTheContractIsTheReplay() throws {
    let corpus = try Self.twoProvinces()
    #expect(corpus.count > 200)
    let evaluation = RelevanceEvaluation(corpus: corpus)
    let sweep = RankingSweep(evaluation: evaluation)
    for set in RelevanceEvaluation.Targets.allCases {
      let replayed = evaluation.run(targets: set)
      let swept = sweep.report(.contract, targets: set)
      #expect(replayed.traces.count > 100)
      #expect(swept.traces == replayed.traces, "\(set)")
      #expect(swept.meanKeystrokesToFirst == replayed.meanKeystrokesToFirst)
    }
  }

  /// Typed through an executor, the reference gives its own report; an implementation that
  /// answers otherwise gives another, and an executor that fails stops the replay.
  @Test func targetsTypedThroughAnExecutor() throws {
    let corpus = try Self.twoProvinces()
    let evaluation = RelevanceEvaluation(corpus: corpus)
    let reference = LinearScanBackend(corpus: corpus)
    let same = InProcessExecutor(
      backend: reference, name: "linear", mode: .syllable, limit: RelevanceEvaluation.deepestRank)
    #expect(
      try evaluation.run(targets: .shortNames, through: same).traces == evaluation.run(targets: .shortNames).traces)
    // The reference less its last hit of answers of one or more: a place that is the only
    // match is never shown, so it is never first.
    let dropping = InProcessExecutor(
      backend: DropsLastHitBackend(corpus: corpus, fewest: 1), name: "drops", mode: .syllable,
      limit: RelevanceEvaluation.deepestRank)
    let worse = try evaluation.run(targets: .shortNames, through: dropping)
    let better = evaluation.run(targets: .shortNames)
    #expect(worse.meanKeystrokesToFirst > better.meanKeystrokesToFirst)
    #expect(worse.neverFirst > better.neverFirst)
    // A case's first answer through an executor is the reference's.
    let cases = try RelevanceCase.load(Self.casesPath, corpus: BenchFixtures.cities)
    let cities = InProcessExecutor(
      backend: LinearScanBackend(corpus: BenchFixtures.cities), name: "linear", mode: .syllable, limit: 1)
    let citiesReference = LinearScanBackend(corpus: BenchFixtures.cities)
    for c in cases.prefix(40) {
      #expect(try c.firstAnswer(through: cities) == c.firstAnswer(of: citiesReference), "\(c.query)")
    }
    #expect(throws: FailingExecutor.Failure.self) {
      try evaluation.run(targets: .shortNames, through: FailingExecutor())
    }
  }

  /// A scoped evaluation targets only the places in scope and searches within it; a scope only
  /// leaves competitors out, so no keystroke ranks a target worse than the same target searched
  /// among every place. An executor's answers (of every place) are cut to the scope alike.
  @Test func aScopeTargetsItsPlacesAndOnlyRemovesCompetitors() throws {
    let corpus = BenchFixtures.cities
    let scope = PlaceScope(corpus: corpus, citiesOnly: true, under: corpus.lookup("广东省")[0])
    let scoped = RelevanceEvaluation(corpus: corpus, scope: scope).run(targets: .shortNames)
    let unscoped = RelevanceEvaluation(corpus: corpus, scope: scope, searchScope: .everything)
      .run(targets: .shortNames)
    #expect(!scoped.traces.isEmpty && scoped.traces.allSatisfy { scope.contains($0.place) })
    #expect(scoped.traces.map(\.keystrokes) == unscoped.traces.map(\.keystrokes))
    var improved = 0
    for (inScope, everywhere) in zip(scoped.traces, unscoped.traces) {
      for (a, b) in zip(inScope.ranks, everywhere.ranks) {
        #expect((a ?? .max) <= (b ?? .max), "\(inScope.keystrokes)")
        if (a ?? .max) < (b ?? .max) { improved += 1 }
      }
      #expect(inScope.firsts.allSatisfy { $0.map(scope.contains) ?? true })
    }
    #expect(improved > 0)
    let everyPlace = InProcessExecutor(
      backend: LinearScanBackend(corpus: corpus), name: "linear", mode: .syllable,
      limit: RelevanceEvaluation.deepestRank)
    // Cut to the scope, the executor's answers rank a target where the scoped search does, or
    // not at all when it lay beyond the answer's depth among every place.
    let through = try RelevanceEvaluation(corpus: corpus, scope: scope).run(targets: .shortNames, through: everyPlace)
    for (cut, inScope) in zip(through.traces, scoped.traces) {
      #expect(zip(cut.ranks, inScope.ranks).allSatisfy { $0 == nil || $0 == $1 }, "\(cut.keystrokes)")
    }
    let agreeing = zip(through.traces, scoped.traces).filter { $0.ranks == $1.ranks }.count
    #expect(agreeing * 2 > scoped.traces.count)
  }

  /// An executor whose every answer fails.
  final class FailingExecutor: Executor {
    struct Failure: Error {}
    let name = "failing"
    var capabilities: ExecutorCapabilities { ExecutorCapabilities(sessions: true) }
    func startSession() {}
    func answer(_ text: String) throws -> ExecutorAnswer { throw Failure() }
    func answerAlone(_ text: String) throws -> ExecutorAnswer { throw Failure() }
  }

  /// The sweep's other weightings are the reference's too: the order of a weighting's keys.
  /// Addresses (MatchSpec §9.2), on the places under 宁夏: every target with a parent typed
  /// three ways; the address never finds fewer places first than the name alone. And 朝阳区 of
  /// 北京 is first by `北京朝阳` where `朝阳` alone gives 朝阳市 of 辽宁.
  @Test func addressesAreTypedAsTheParentsNameThenThePlaces() throws {
    let corpus = BenchFixtures.cities
    let ningxia = PlaceScope(corpus: corpus, under: corpus.lookup("宁夏回族自治区")[0])
    let rows = RelevanceEvaluation(corpus: corpus, scope: ningxia).runAddresses()
    let targets = (0..<corpus.count).filter {
      ningxia.contains($0) && corpus.prominence(at: $0) > 0 && corpus.parentIndex(at: $0) != nil
    }
    #expect(rows.map(\.style) == ["Hanzi", "pinyin", "initials"])
    for row in rows {
      #expect(row.targets == targets.count)
      #expect(row.placesFirstByAddress >= row.placesFirstByName, "\(row.style)")
      #expect((0...1).contains(row.firstByName) && (0...1).contains(row.firstByAddress))
      #expect(row.keystrokesAfterHead >= 1)
    }
    let chaoyang = corpus.lookup("北京市/朝阳区")[0]
    #expect(TwoLevelSearch(backend: LinearScanBackend(corpus: corpus)).search("北京朝阳").hits.first?.index == chaoyang)
    #expect(LinearScanBackend(corpus: corpus).search("朝阳").hits.first?.index == corpus.lookup("辽宁省/朝阳市")[0])
  }

  @Test func sweepOfOtherWeightsRanksByTheirKeys() throws {
    let corpus = try Self.twoProvinces()
    let evaluation = RelevanceEvaluation(corpus: corpus)
    let sweep = RankingSweep(evaluation: evaluation, sets: [.shortNames])
    let reference = LinearScanBackend(corpus: corpus)
    for weights in [
      RankingWeights.zero, .strict,
      RankingWeights(spelling: 3, matchStart: 1, matchLater: 2, matchSuffix: 3, reading: 2),
    ] {
      let ranking = Ranking(corpus: corpus, weights: weights)
      for trace in sweep.report(weights, targets: .shortNames).traces.prefix(60) {
        for (k, text) in trace.keystrokes.enumerated() {
          let all = reference.search(text, mode: .syllable, limit: .max).hits
          let ranked = all.sorted { ranking.key($0.match, place: $0.index) < ranking.key($1.match, place: $1.index) }
          let rank = ranked.firstIndex { $0.index == trace.place }.map { $0 + 1 }
          #expect(trace.ranks[k] == rank.flatMap { $0 <= RelevanceEvaluation.deepestRank ? $0 : nil }, "\(text)")
          #expect(trace.firsts[k] == ranked.first?.index, "\(text)")
        }
      }
    }
  }

  @Test func replayRecordsTheTargetsRankAfterEachKeystroke() throws {
    let corpus = BenchFixtures.cities
    let evaluation = RelevanceEvaluation(corpus: corpus)
    let guangzhou = try #require(corpus.index(of: 440100))
    let trace = evaluation.trace(place: guangzhou, style: "initials", weight: 1, text: "gz")
    #expect(trace.keystrokes == ["g", "gz"])
    #expect(trace.ranks[1] == 1)
    #expect(trace.firsts[1] == guangzhou)
    // Every style and each alias of 广州 (canton) is typed.
    var random = SplitMix64(seed: 1)
    let styles = evaluation.texts(place: guangzhou, random: &random).map(\.style)
    #expect(styles == InputStyle.allCases.map(\.rawValue) + ["alias"])
  }

  @Test func everyHandCheckedCaseButTheKnownFailuresHasAnAcceptableFirstAnswer() throws {
    let corpus = BenchFixtures.cities
    let cases = try RelevanceCase.load(Self.casesPath, corpus: corpus)
    #expect(cases.count >= 300)
    let reference = LinearScanBackend(corpus: corpus)
    // Every case passes but the known failures, which must fail; a few at most.
    #expect(cases.filter { $0.knownFailure != nil }.count <= 6)
    for c in cases {
      let first = c.firstAnswer(of: reference)
      #expect(
        c.passes(with: reference) == (c.knownFailure == nil),
        "line \(c.line): '\(c.query)' → \(String(describing: first))")
    }
  }

  @Test func caseFileErrorsNameTheLine() throws {
    let directory = try BenchFixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("cases.tsv").path
    let text = "\(RelevanceCase.header)\nbj\t110000\t上海市\tthe capital\t\n"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    #expect(throws: CorpusError.self) { try RelevanceCase.load(path, corpus: BenchFixtures.cities) }
    do {
      _ = try RelevanceCase.load(path, corpus: BenchFixtures.cities)
    } catch {
      #expect("\(error)".contains("cases.tsv:2"))
      #expect("\(error)".contains("110000"))
    }
  }
}
