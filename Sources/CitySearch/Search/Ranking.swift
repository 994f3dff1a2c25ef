import Foundation

/// The total order of MatchSpec §5.4 as one integer per (place, match): ascending by the
/// match's class penalty less the place's prominence scale (``RankingWeights``), then the
/// place's rank ordinal (``Corpus/rankOrdinal(at:)``: prominence, level, name length, id).
///
/// Every backend ranks with it, the reference included: the reference sorts every match by
/// ``key(_:place:)``, the indexed backends keep the best few in a ``TopK``.
///
/// ```swift
/// let ranking = Ranking(corpus: corpus)
/// ranking.key(match, place: index)  // smaller is better
/// ```
public struct Ranking: Sendable {
  /// The units of a prominence scale and of a class penalty per doubling of prominence.
  public static let unitsPerDoubling = 16
  /// Above every place's scale: 2⁶⁴ prominence is 1,024 units.
  public static let scaleCeiling = 1_024

  /// Per place, `(scaleCeiling - scale) << 32 | ordinal` (shared with the corpus, no copy).
  @usableFromInline let bases: IntegerTable<UInt64>
  /// Per class combination (``Match/classes``), its penalty `<< 32`.
  @usableFromInline let penalties: ContiguousArray<UInt64>
  /// Per class combination `c`, the lowest penalty of the combinations from `c` on: what a
  /// match pays at least when its combination is known to be `c` or later.
  @usableFromInline let lowestPenalties: ContiguousArray<UInt64>
  /// The steps this ranking weighs classes by.
  public let weights: RankingWeights

  /// The ranking of `corpus`'s places with `weights` (the contract's unless given).
  public init(corpus: Corpus, weights: RankingWeights = .contract) {
    bases = corpus.rankBases
    penalties = ContiguousArray(weights.penalties.map { $0 << 32 })
    var lowest = penalties
    for c in lowest.indices.reversed().dropFirst() { lowest[c] = min(lowest[c], lowest[c + 1]) }
    lowestPenalties = lowest
    self.weights = weights
  }

  /// A place's prominence scale: 16 × log₂ of its prominence, rounded (0 for 0 and 1).
  public static func scale(prominence: UInt64) -> Int {
    guard prominence > 1 else { return 0 }
    return min(Int((log2(Double(prominence)) * Double(unitsPerDoubling)).rounded()), scaleCeiling)
  }

  /// The rank key of the place at `place` matched as `match`: its classes' penalty less its
  /// scale, above its ordinal. Keys of different places differ, so they order places totally.
  @inlinable @inline(__always)
  public func key(_ match: Match, place: Int) -> UInt64 {
    penalties.withUnsafeBufferPointer { $0[match.classes] } &+ bases[place]
  }

  /// The smallest key a match of the place at `place` can have when its class combination
  /// (``Match/classes``) is known to be `combination` or a later one: its base plus the lowest
  /// penalty from there on. Candidates taken in the order of this bound can stop as soon as it
  /// is at or above the worst key kept (``TopK/threshold``): no later one can be kept.
  @inlinable @inline(__always)
  public func lowestKey(place: Int, classesFrom combination: Int = 0) -> UInt64 {
    lowestPenalties.withUnsafeBufferPointer { $0[combination] } &+ bases[place]
  }

  /// The step a two-level match pays beyond its rest's penalty (MatchSpec §9.2): 4 doublings,
  /// as a match from the first unit does.
  public static let twoLevelStep: UInt64 = 4 * UInt64(unitsPerDoubling)

  /// The rank key of the place at `place` matched as `match` by the rest of a two-level query
  /// whose head named `ancestor` (MatchSpec §9.2): the place's own key for the match, plus
  /// ``twoLevelStep``, less half the ancestor's scale (rounded down). Below one ancestor the
  /// places keep the order of their own keys.
  @inlinable
  public func key(_ match: Match, place: Int, under ancestor: Int) -> UInt64 {
    let ancestorScale = UInt64(Self.scaleCeiling) &- bases[ancestor] >> 32
    return key(match, place: place) &+ Self.twoLevelStep << 32 &- (ancestorScale / 2) << 32
  }

  /// What ``key(_:place:)`` adds to a place's base for a match of class combination `classes`
  /// (``Match/classes``): a key less this is the same for every weighting.
  public func keyPenalty(classes: Int) -> UInt64 { penalties[classes] }

  /// `limit` hits of `matches`, best first, and their total: a full sort by ``key(_:place:)``.
  /// The plain ranking of the scanning backends; the indexed ones keep a ``TopK`` instead.
  ///
  /// - Complexity: O(k log k) for k matches.
  public func result(
    _ matches: [(index: Int, match: Match)], query: NormalizedQuery, mode: MatchMode, limit: Int, corpus: Corpus
  ) -> SearchResult {
    let ranked = matches.map { (key: key($0.match, place: $0.index), $0) }.sorted { $0.key < $1.key }
    let hits = ranked.prefix(max(limit, 0)).map {
      SearchHit(index: $0.1.index, id: corpus.id(at: $0.1.index), match: $0.1.match)
    }
    return SearchResult(normalized: query, mode: mode, total: matches.count, hits: hits)
  }
}
