/// How much prominence a worse class may be outweighed by (MatchSpec §5.4): each class step of
/// a match costs a number of **doublings** of prominence, so a place ranks before a place with
/// a better match when it is more prominent by more than the classes' difference.
///
/// With steps larger than any ratio of prominences (``strict``) the classes decide and
/// prominence only orders places of the same classes, the ranking of contracts 2.0 and 2.1.
/// The contract's own steps (``contract``) were chosen by `citybench relevance --sweep`
/// (docs/Relevance.md).
///
/// ```swift
/// // Initials (spelling class 1) yield to a place 2⁸ = 256 times as prominent.
/// let weights = RankingWeights(spelling: 8, matchStart: 4, matchLater: 5, matchSuffix: 21, reading: 4)
/// let ranking = Ranking(corpus: corpus, weights: weights)
/// ```
public struct RankingWeights: Sendable, Hashable, CustomStringConvertible {
  /// The cost of spelling class 1 (an initial or a prefix piece) over class 0.
  public var spelling: Double
  /// The cost of match class 1 (the run starts the name) over class 0 (the whole name or short
  /// name).
  public var matchStart: Double
  /// The cost of match class 2 (the run starts later, within the short name) over class 0.
  public var matchLater: Double
  /// The cost of match class 3 (the run starts in the administrative suffix: `shi` in 上海市)
  /// over class 0.
  public var matchSuffix: Double
  /// The cost of reading class 1 (an alternate reading or an alias) over class 0.
  public var reading: Double

  /// Steps of the given numbers of doublings of prominence.
  public init(spelling: Double, matchStart: Double, matchLater: Double, matchSuffix: Double, reading: Double) {
    self.spelling = spelling
    self.matchStart = matchStart
    self.matchLater = matchLater
    self.matchSuffix = matchSuffix
    self.reading = reading
  }

  /// The steps of contract 3.0 (MatchSpec §5.4), chosen by the relevance measurement: of the
  /// weightings `citybench relevance --sweep` tries, the one with the fewest keystrokes until
  /// first on both target sets that leaves at most two more hand-checked cases wrong.
  public static let contract = RankingWeights(
    spelling: 8, matchStart: 4, matchLater: 5, matchSuffix: 21, reading: 4)

  /// No class costs anything: prominence alone orders the matches.
  public static let zero = RankingWeights(spelling: 0, matchStart: 0, matchLater: 0, matchSuffix: 0, reading: 0)

  /// Classes before prominence, whatever the ratio: the order of contracts 2.0 and 2.1, but for
  /// class 3, which they did not have (it was class 2). Each step between two class
  /// combinations is at least 65 doublings, more than the whole range of
  /// ``Ranking/scale(prominence:)`` (64).
  public static let strict = RankingWeights(
    spelling: 400, matchStart: 130, matchLater: 260, matchSuffix: 800, reading: 65)

  /// `spelling 8, start 4, later 5, suffix 21, reading 4`, or `strict`.
  public var description: String {
    if self == .strict { return "strict" }
    func number(_ value: Double) -> String {
      value == value.rounded() ? String(Int(value)) : String(value)
    }
    return
      "spelling \(number(spelling)), start \(number(matchStart)), later \(number(matchLater)), "
      + "suffix \(number(matchSuffix)), reading \(number(reading))"
  }

  /// The penalty of each class combination (``Match/classes``: fuzzy class ≪ 5 | suffix ≪ 4 |
  /// spelling class ≪ 3 | match class field ≪ 1 | reading class), in
  /// ``Ranking/unitsPerDoubling``, made non-decreasing in the combinations' order so that the
  /// match a place reports (the lowest, §5.3) is also the one that ranks it best. A fuzzy
  /// match (§3.5) pays the largest penalty of any other match and ``fuzzyTier`` doublings more
  /// than its other classes cost: it ranks after every match that needs no fuzzy rule, whatever
  /// the places' prominence.
  public var penalties: [UInt64] {
    var running = 0.0
    let exact = (0..<Match.classCombinations / 2).map { combination -> Double in
      let suffix = combination >> 4 & 1
      let spellingClass = combination >> 3 & 1
      let field = combination >> 1 & 3
      let readingClass = combination & 1
      // A match in the suffix has the field of class 2, and no match has field 3: combinations
      // no match has take the penalty before them and raise none after them.
      if suffix == 1 ? field == 2 : field < 3 {
        let match = suffix == 1 ? matchSuffix : field == 0 ? 0 : field == 1 ? matchStart : matchLater
        let cost = Double(spellingClass) * spelling + match + Double(readingClass) * reading
        running = max(running, max(cost, 0))
      }
      return running
    }
    let fuzzy = exact.map { running + Self.fuzzyTier + $0 }
    return (exact + fuzzy).map { UInt64(($0 * Double(Ranking.unitsPerDoubling)).rounded()) }
  }

  /// The doublings a fuzzy match pays beyond the dearest other match: more than the whole range
  /// of ``Ranking/scale(prominence:)`` (64), so no prominence lifts it over an exact match.
  public static let fuzzyTier = 65.0
}
