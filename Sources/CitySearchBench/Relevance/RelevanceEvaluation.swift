import CitySearch
import CitySearchConformance
import CitySearchExecutor

/// How well the reference's ranking puts the place a person means first (docs/Relevance.md):
/// every place of a corpus is a target, weighted by its prominence (`Corpus/prominence(at:)`,
/// a population), typed in every ``InputStyle`` and as each of its aliases, one keystroke at a
/// time; after each keystroke the target's rank is recorded.
///
/// ```swift
/// let report = RelevanceEvaluation(corpus: corpus).run()
/// print(report.meanKeystrokesToFirst, report.firstAfterTwoInitials)
/// ```
public struct RelevanceEvaluation: Sendable {
  /// A rank past this counts as not shown.
  public static let deepestRank = 100
  /// The places whose traces must never drop out of first: the most prominent this many.
  public static let prominentPlaces = 100

  /// How the targets are typed: two sets made by different rules, so that a ranking chosen on
  /// one is checked on the other.
  public enum Targets: String, Sendable, CaseIterable {
    /// The whole name in every ``InputStyle`` (its pinyin, its initials, one syllable in full
    /// chosen at random and the others as initials, its Hanzi) and each of its aliases.
    case fullNames = "full-names"
    /// The short name (§5.1: 成都 of 成都市) as its pinyin, its initials, and its first syllable
    /// in full with the others as initials (`chengd`), as a person types a city they know.
    case shortNames = "short-names"
  }

  /// The styles of the short-name targets (``Targets/shortNames``), as traces name them.
  enum ShortNameStyle {
    static let pinyin = "short pinyin"
    static let initials = "short initials"
    static let leading = "short leading"
    static let all = [pinyin, initials, leading]
  }

  /// One target typed in one way: the rank of the target after each keystroke (`nil` when it
  /// is not among the first ``deepestRank``), and what came first then.
  public struct Trace: Sendable, Hashable {
    /// The target's index in the corpus.
    public var place: Int
    /// An ``InputStyle`` raw value, or `alias`.
    public var style: String
    /// The target's prominence: how much its trace counts in the means.
    public var weight: Double
    /// The text after each keystroke.
    public var keystrokes: [String]
    /// The target's rank after each keystroke, from 1; `nil` past ``RelevanceEvaluation/deepestRank``.
    public var ranks: [Int?]
    /// The index of the place ranked first after each keystroke; `nil` when nothing matched.
    public var firsts: [Int?]

    /// The keystrokes after which the target, first after the one before, is no longer first:
    /// the place meant came first and went away as its own name was typed on.
    public var dropOuts: Int {
      zip(ranks, ranks.dropFirst()).reduce(0) { $0 + ($1.0 == 1 && $1.1 != 1 ? 1 : 0) }
    }

    /// The keystrokes until the target is among the first `rows` answers (1-based), or `nil`
    /// when the whole text does not get it there.
    public func keystrokes(toRank rows: Int) -> Int? {
      ranks.firstIndex { $0.map { $0 <= rows } ?? false }.map { $0 + 1 }
    }

    /// ``keystrokes(toRank:)``, counting a text that never gets there as one keystroke more
    /// than its length (a person would scroll or pick by hand).
    public func cost(toRank rows: Int) -> Int { keystrokes(toRank: rows) ?? keystrokes.count + 1 }
  }

  /// The measures of one run, every mean weighted by the targets' prominence.
  public struct Report: Sendable {
    /// The corpus's name.
    public var corpus: String
    /// Every target typed in every style.
    public var traces: [Trace]
    /// Mean keystrokes until the target is first.
    public var meanKeystrokesToFirst: Double
    /// Mean keystrokes until the target is among the first three.
    public var meanKeystrokesToTop3: Double
    /// The share of targets first after two keystrokes of initials.
    public var firstAfterTwoInitials: Double
    /// The share of traces whose whole text never puts the target first.
    public var neverFirst: Double
    /// The share of traces in which the target drops out of first at least once
    /// (``Trace/dropOuts``).
    public var droppingOut: Double
    /// The drop-outs in the traces of the ``RelevanceEvaluation/prominentPlaces`` most
    /// prominent places.
    public var prominentDropOuts: Int
    /// Mean reciprocal rank after keystroke 1, 2, …, over the traces that long.
    public var reciprocalRankByKeystroke: [Double]
    /// The same two means per style.
    public var byStyle: [(style: String, toFirst: Double, toTop3: Double, traces: Int)]

    /// The traces that cost the most weighted keystrokes beyond the first, worst first.
    public func worst(_ count: Int) -> [Trace] {
      func regret(_ trace: Trace) -> Double { trace.weight * Double(trace.cost(toRank: 1) - 1) }
      let ranked = traces.indices.sorted { a, b in
        regret(traces[a]) != regret(traces[b]) ? regret(traces[a]) > regret(traces[b]) : a < b
      }
      return ranked.prefix(count).map { traces[$0] }
    }
  }

  /// The places, each of them a target.
  public let corpus: Corpus
  /// Where the targets' weights and aliases come from: `corpus` itself, or the same places with
  /// their facts when `corpus` ranks without them (`citybench relevance --without-facts`).
  public let facts: Corpus
  /// The places targeted: a city picker's list is measured on its own places; every place by
  /// default.
  public let targetScope: PlaceScope
  /// The places every keystroke is answered with (MatchSpec §9.1): the targets' scope, or every
  /// place to measure what a scope buys the same targets.
  public let scope: PlaceScope
  let reference: LinearScanBackend

  /// Evaluates the reference's ranking of `corpus` for the targets in `scope`, searched within
  /// `searchScope` (by default `scope` too); `facts` (the same places, in the same order) weighs
  /// the targets and gives their aliases, and defaults to `corpus`.
  public init(corpus: Corpus, facts: Corpus? = nil, scope: PlaceScope = .everything, searchScope: PlaceScope? = nil) {
    self.corpus = corpus
    self.facts = facts ?? corpus
    self.targetScope = scope
    self.scope = searchScope ?? scope
    precondition(self.facts.count == corpus.count, "the facts corpus must hold the same places")
    precondition(scope.admits(corpus) && self.scope.admits(corpus), "a scope resolved for another corpus")
    reference = LinearScanBackend(corpus: corpus)
  }

  /// The texts typed towards `place` in `targets`: for full names one per style (the mixed
  /// style's full syllable chosen by `random`) and one per alias; for short names its pinyin,
  /// its initials and its first syllable in full before the others' initials.
  func texts(place: Int, targets: Targets = .fullNames, random: inout SplitMix64) -> [(style: String, text: String)] {
    if targets == .shortNames {
      let units = corpus.shortNameUnitCount(at: place)
      let syllables = corpus.pinyin(at: place).prefix(units)
      let unitInitials = corpus.unitInitials(at: place).prefix(units)
      let initials = String(decoding: unitInitials.compactMap { $0 }, as: UTF8.self)
      let later = String(decoding: unitInitials.dropFirst().compactMap { $0 }, as: UTF8.self)
      return [
        (ShortNameStyle.pinyin, syllables.joined()), (ShortNameStyle.initials, initials),
        (ShortNameStyle.leading, (syllables.first ?? "") + later),
      ].filter { !$0.text.isEmpty }
    }
    var result = InputStyle.allCases.map { style in
      (style.rawValue, WorkloadGenerator.typedText(place: place, style: style, in: corpus, random: &random))
    }
    for alias in facts.tables.facts.entry(id: facts.id(at: place), name: facts.name(at: place))?.aliases ?? [] {
      result.append(("alias", alias))
    }
    return result
  }

  /// Replays every target of the corpus through the reference (places with no prominence weigh
  /// nothing and are skipped).
  ///
  /// - Complexity: one reference search per keystroke of every trace.
  public func run(targets: Targets = .fullNames, seed: UInt64 = 1) -> Report {
    let executor = InProcessExecutor(
      backend: reference, name: LinearScanBackend.name, mode: .syllable, limit: Self.deepestRank, scope: scope)
    var traces: [Trace] = []
    forEachText(targets: targets, seed: seed) { place, style, weight, text in
      traces.append(
        trace(place: place, style: style, weight: weight, text: text, start: executor.startSession) {
          executor.answer($0).result
        })
    }
    return Self.report(corpus: corpus.source, traces: traces, prominent: prominent)
  }

  /// Replays every target of the corpus through `executor`, another implementation over the
  /// same places, each target typed in a session of its own: how its ranking serves the same
  /// people (`citybench relevance --executor`). Its answers must list at least
  /// ``deepestRank`` places to rank a target that deep. It answers every place; with a
  /// ``scope``, the places out of it are dropped from its answers (MatchSpec §9.1).
  ///
  /// - Throws: the executor's error, when it fails to answer.
  /// - Complexity: one answer of the executor per keystroke of every trace.
  public func run(targets: Targets = .fullNames, seed: UInt64 = 1, through executor: any Executor) throws -> Report {
    var traces: [Trace] = []
    try forEachText(targets: targets, seed: seed) { place, style, weight, text in
      traces.append(
        try trace(place: place, style: style, weight: weight, text: text, start: executor.startSession) {
          var result = try executor.answer($0).result
          if !scope.isEverything { result.hits.removeAll { !scope.contains($0.index) } }
          return result
        })
    }
    return Self.report(corpus: corpus.source, traces: traces, prominent: prominent)
  }

  /// Calls `body` with every text typed towards a target of `targets`, in order.
  func forEachText(targets: Targets, seed: UInt64, _ body: (Int, String, Double, String) throws -> Void) rethrows {
    var random = SplitMix64(seed: seed)
    for place in 0..<corpus.count {
      let weight = Double(facts.prominence(at: place))
      guard weight > 0, targetScope.contains(place) else { continue }
      for (style, text) in texts(place: place, targets: targets, random: &random) {
        try body(place, style, weight, text)
      }
    }
  }

  /// The ``prominentPlaces`` most prominent places of the facts.
  var prominent: Set<Int> {
    let ranked = (0..<facts.count).filter { facts.prominence(at: $0) > 0 && targetScope.contains($0) }.sorted {
      (facts.prominence(at: $0), $1) > (facts.prominence(at: $1), $0)
    }
    return Set(ranked.prefix(Self.prominentPlaces))
  }

  /// One target typed as `text`, one character at a time, through the reference.
  public func trace(place: Int, style: String, weight: Double, text: String) -> Trace {
    let answer = { (typed: String) in
      reference.search(typed, mode: .syllable, limit: Self.deepestRank, scope: scope)
    }
    return trace(place: place, style: style, weight: weight, text: text, start: {}, answer: answer)
  }

  /// One target typed as `text` in a session that `start` begins, `answer` giving the answer
  /// after each keystroke.
  func trace(
    place: Int, style: String, weight: Double, text: String, start: () throws -> Void,
    answer: (String) throws -> SearchResult
  ) rethrows -> Trace {
    var trace = Trace(place: place, style: style, weight: weight, keystrokes: [], ranks: [], firsts: [])
    try start()
    var typed = ""
    for character in text {
      typed.append(character)
      let result = try answer(typed)
      trace.keystrokes.append(typed)
      let rank = result.hits.firstIndex { $0.index == place }.map { $0 + 1 }
      trace.ranks.append(rank.flatMap { $0 <= Self.deepestRank ? $0 : nil })
      trace.firsts.append(result.hits.first?.index)
    }
    return trace
  }

  static func report(corpus: String, traces: [Trace], prominent: Set<Int>) -> Report {
    func weightedMean(_ items: [Trace], _ value: (Trace) -> Double) -> Double {
      let total = items.reduce(0) { $0 + $1.weight }
      return total == 0 ? 0 : items.reduce(0) { $0 + $1.weight * value($1) } / total
    }
    let initials = traces.filter {
      ($0.style == InputStyle.initials.rawValue || $0.style == ShortNameStyle.initials) && $0.keystrokes.count >= 2
    }
    let longest = traces.map(\.keystrokes.count).max() ?? 0
    let reciprocal = (0..<min(longest, 12)).map { k in
      weightedMean(traces.filter { $0.ranks.count > k }) { 1 / Double($0.ranks[k] ?? Int.max) }
    }
    var styles = InputStyle.allCases.map(\.rawValue) + ["alias"] + ShortNameStyle.all
    // Other styles (a keyboard's, `fuzzy`) after these, in order of first appearance.
    for trace in traces where !styles.contains(trace.style) { styles.append(trace.style) }
    let byStyle = styles.compactMap { style -> (String, Double, Double, Int)? in
      let these = traces.filter { $0.style == style }
      guard !these.isEmpty else { return nil }
      return (
        style, weightedMean(these) { Double($0.cost(toRank: 1)) }, weightedMean(these) { Double($0.cost(toRank: 3)) },
        these.count
      )
    }
    return Report(
      corpus: corpus, traces: traces, meanKeystrokesToFirst: weightedMean(traces) { Double($0.cost(toRank: 1)) },
      meanKeystrokesToTop3: weightedMean(traces) { Double($0.cost(toRank: 3)) },
      firstAfterTwoInitials: weightedMean(initials) { $0.ranks[1] == 1 ? 1 : 0 },
      neverFirst: weightedMean(traces) { $0.keystrokes(toRank: 1) == nil ? 1 : 0 },
      droppingOut: weightedMean(traces) { $0.dropOuts > 0 ? 1 : 0 },
      prominentDropOuts: traces.filter { prominent.contains($0.place) }.reduce(0) { $0 + $1.dropOuts },
      reciprocalRankByKeystroke: reciprocal, byStyle: byStyle)
  }
}
