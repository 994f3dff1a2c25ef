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
/// // A whole-syllable reading (`sha` → 沙河) yields to a place 2⁴ = 16 times as prominent.
/// let weights = RankingWeights(spelling: 4, matchStart: 1.5, matchLater: 3, reading: 1)
/// let ranking = Ranking(corpus: corpus, weights: weights)
/// ```
public struct RankingWeights: Sendable, Hashable, CustomStringConvertible {
  /// The cost of spelling class 1 (an initial or a prefix piece) over class 0.
  public var spelling: Double
  /// The cost of match class 1 (the run starts the name) over class 0 (the whole name or short
  /// name).
  public var matchStart: Double
  /// The cost of match class 2 (the run starts later) over class 0.
  public var matchLater: Double
  /// The cost of reading class 1 (an alternate reading or an alias) over class 0.
  public var reading: Double

  /// Steps of the given numbers of doublings of prominence.
  public init(spelling: Double, matchStart: Double, matchLater: Double, reading: Double) {
    self.spelling = spelling
    self.matchStart = matchStart
    self.matchLater = matchLater
    self.reading = reading
  }

  /// The steps of contract 2.2 (MatchSpec §5.4), chosen by the relevance measurement.
  public static let contract = RankingWeights.strict

  /// No class costs anything: prominence alone orders the matches.
  public static let zero = RankingWeights(spelling: 0, matchStart: 0, matchLater: 0, reading: 0)

  /// Classes before prominence, whatever the ratio: the order of contracts 2.0 and 2.1. Each
  /// step between two class combinations is 65 doublings, more than the whole range of
  /// ``Ranking/scale(prominence:)`` (64).
  public static let strict = RankingWeights(spelling: 400, matchStart: 130, matchLater: 260, reading: 65)

  /// `spelling 4, start 1.5, later 3, reading 1`, or `strict`.
  public var description: String {
    if self == .strict { return "strict" }
    func number(_ value: Double) -> String {
      value == value.rounded() ? String(Int(value)) : String(value)
    }
    return
      "spelling \(number(spelling)), start \(number(matchStart)), later \(number(matchLater)), reading \(number(reading))"
  }

  /// The penalty of each packed class combination (``Match``'s bits above 13: spelling class
  /// ≪ 3 | match class ≪ 1 | reading class), in ``Ranking/unitsPerDoubling``, made
  /// non-decreasing in the combinations' order so that the match a place reports (the lowest,
  /// §5.3) is also the one that ranks it best.
  public var penalties: [UInt64] {
    var running = 0.0
    return (0..<16).map { combination -> UInt64 in
      let spellingClass = combination >> 3 & 1
      let matchClass = combination >> 1 & 3
      let readingClass = combination & 1
      let match = matchClass == 0 ? 0 : matchClass == 1 ? matchStart : matchLater
      let cost = Double(spellingClass) * spelling + match + Double(readingClass) * reading
      running = max(running, max(cost, 0))
      return UInt64((running * Double(Ranking.unitsPerDoubling)).rounded())
    }
  }
}
