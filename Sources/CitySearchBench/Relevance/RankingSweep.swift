import CitySearch
import CitySearchConformance

/// Many rankings measured on the same typed targets without searching again
/// (`citybench relevance --sweep`, docs/Relevance.md).
///
/// Which places match a text, and the match each reports (MatchSpec §5.3), do not depend on the
/// ranking's weights; only their order does. So the reference answers every keystroke of every
/// target once, in full, and the sweep keeps each answer's places grouped by their class
/// combination, sorted by their rank base. Under any `RankingWeights` a place's key is its
/// base plus its combination's penalty (`Ranking.keyPenalty(classes:)`), so the target's rank is a sum of binary searches, one
/// per combination, and the first place the smallest of the groups' first keys. The report of a
/// weighting is exactly the one the reference would give with it (a test holds the sweep to
/// ``RelevanceEvaluation/run(targets:seed:)``).
public struct RankingSweep: Sendable {
  /// One answer, regrouped: its places' rank bases, by class combination.
  struct Answer: Sendable {
    /// `(combination, range in bases)` for every combination that matched.
    var groups: [(combination: Int, range: Range<Int>)] = []
    /// The target's combination and base, when it matched.
    var target: (combination: Int, base: UInt64)?
  }

  /// One typed target: its trace's fixed parts and one answer per keystroke.
  struct Target: Sendable {
    var place: Int
    var style: String
    var weight: Double
    var keystrokes: [String]
    var answers: [Answer]
  }

  /// The corpus the answers come from.
  public let corpus: Corpus
  private var bases: [UInt64] = []
  private var targets: [RelevanceEvaluation.Targets: [Target]] = [:]
  private var cases: [(RelevanceCase, Answer)] = []
  private let placeByOrdinal: [Int]
  private let prominent: Set<Int>

  /// The answers of every keystroke of `evaluation`'s targets of each set in `sets`, and of
  /// `cases`' queries.
  ///
  /// - Complexity: one unlimited reference search per keystroke and case.
  public init(
    evaluation: RelevanceEvaluation, sets: [RelevanceEvaluation.Targets] = RelevanceEvaluation.Targets.allCases,
    cases: [RelevanceCase] = [], seed: UInt64 = 1
  ) {
    corpus = evaluation.corpus
    let reference = LinearScanBackend(corpus: corpus)
    var placeByOrdinal = [Int](repeating: 0, count: corpus.count)
    for place in 0..<corpus.count { placeByOrdinal[corpus.rankOrdinal(at: place)] = place }
    self.placeByOrdinal = placeByOrdinal
    prominent = evaluation.prominent
    var bases: [UInt64] = []
    let ranking = Ranking(corpus: corpus, weights: .zero)
    func answer(_ text: String, target: Int?) -> Answer {
      // Each hit as its combination (5 bits) above its base (below 2⁴⁴), sorted once.
      var keyed: [UInt64] = []
      var answer = Answer()
      for hit in reference.search(text, mode: .syllable, limit: .max).hits {
        let combination = hit.match.classes
        let base = ranking.key(hit.match, place: hit.index)
        keyed.append(UInt64(combination) << 58 | base)
        if hit.index == target { answer.target = (combination, base) }
      }
      keyed.sort()
      var start = 0
      while start < keyed.count {
        let combination = Int(keyed[start] >> 58)
        var end = start + 1
        while end < keyed.count && Int(keyed[end] >> 58) == combination { end += 1 }
        let first = bases.count
        bases += keyed[start..<end].lazy.map { $0 & (1 << 58 - 1) }
        answer.groups.append((combination, first..<bases.count))
        start = end
      }
      return answer
    }
    for set in sets {
      var typed: [Target] = []
      evaluation.forEachText(targets: set, seed: seed) { place, style, weight, text in
        var target = Target(place: place, style: style, weight: weight, keystrokes: [], answers: [])
        var prefix = ""
        for character in text {
          prefix.append(character)
          target.keystrokes.append(prefix)
          target.answers.append(answer(prefix, target: place))
        }
        typed.append(target)
      }
      targets[set] = typed
    }
    self.cases = cases.map { ($0, answer($0.query, target: nil)) }
    self.bases = bases
  }

  /// The report the reference would give on `set` if it ranked with `weights`.
  public func report(_ weights: RankingWeights, targets set: RelevanceEvaluation.Targets) -> RelevanceEvaluation.Report
  {
    let penalties = Self.keyPenalties(weights, corpus: corpus)
    let traces = (targets[set] ?? []).map { target in
      var trace = RelevanceEvaluation.Trace(
        place: target.place, style: target.style, weight: target.weight, keystrokes: target.keystrokes, ranks: [],
        firsts: [])
      for answer in target.answers {
        trace.ranks.append(rank(answer, penalties: penalties))
        trace.firsts.append(first(answer, penalties: penalties))
      }
      return trace
    }
    return RelevanceEvaluation.report(corpus: corpus.source, traces: traces, prominent: prominent)
  }

  /// How many of the hand-checked cases have an acceptable first answer under `weights`.
  public func casesPassing(_ weights: RankingWeights) -> Int { cases.count - failures(weights).count }

  /// The hand-checked cases whose first answer under `weights` is not acceptable, each with
  /// that answer (`nil` when nothing matched).
  public func failures(_ weights: RankingWeights) -> [(RelevanceCase, PlaceID?)] {
    let penalties = Self.keyPenalties(weights, corpus: corpus)
    return cases.compactMap { c, answer in
      let got = first(answer, penalties: penalties).map { corpus.id(at: $0) }
      return got.map(c.expected.contains) == true ? nil : (c, got)
    }
  }

  /// What a weighting's key adds to a place's base, per class combination.
  private static func keyPenalties(_ weights: RankingWeights, corpus: Corpus) -> [UInt64] {
    let ranking = Ranking(corpus: corpus, weights: weights)
    return (0..<Match.classCombinations).map(ranking.keyPenalty(classes:))
  }

  /// The target's rank (from 1) under `penalties`, `nil` when it did not match or ranks past
  /// ``RelevanceEvaluation/deepestRank``.
  private func rank(_ answer: Answer, penalties: [UInt64]) -> Int? {
    guard let target = answer.target else { return nil }
    let key = target.base &+ penalties[target.combination]
    var better = 0
    for group in answer.groups {
      let penalty = penalties[group.combination]
      guard key > penalty else { continue }
      better += lowerBound(key - penalty, in: group.range) - group.range.lowerBound
      if better >= RelevanceEvaluation.deepestRank { return nil }
    }
    return better + 1
  }

  /// The place ranked first under `penalties`.
  private func first(_ answer: Answer, penalties: [UInt64]) -> Int? {
    let best = answer.groups.map { bases[$0.range.lowerBound] &+ penalties[$0.combination] }.min()
    return best.map { placeByOrdinal[Int(UInt32(truncatingIfNeeded: $0))] }
  }

  /// The first position in `range` of `bases` whose base is not below `key`.
  private func lowerBound(_ key: UInt64, in range: Range<Int>) -> Int {
    var (low, high) = (range.lowerBound, range.upperBound)
    while low < high {
      let middle = (low + high) / 2
      if bases[middle] < key { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
