/// The total order of MatchSpec §5.4 as one integer per (place, match): ascending by spelling
/// class, match class, reading class, then the place's rank ordinal
/// (``Corpus/rankOrdinal(at:)``: prominence, level, name length, id).
///
/// Every backend ranks with it, the reference included: the reference sorts every match by
/// ``key(_:place:)``, the indexed backends keep the best few in a ``TopK``.
///
/// ```swift
/// let ranking = Ranking(corpus: corpus)
/// ranking.key(match, place: index)  // classes above the ordinal: smaller is better
/// ```
public struct Ranking: Sendable {
  @usableFromInline let ordinals: ContiguousArray<UInt32>

  /// The ranking of `corpus`'s places; it shares the corpus's ordinals (no copy).
  public init(corpus: Corpus) { ordinals = corpus.rankOrdinals }

  /// The rank key of the place at `place` matched as `match`: its classes above its ordinal.
  /// Keys of different places differ, so they order places totally.
  @inlinable @inline(__always)
  public func key(_ match: Match, place: Int) -> UInt64 { match.rankClasses << 32 | UInt64(ordinals[place]) }

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
