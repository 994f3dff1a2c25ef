/// One ranked result.
public struct SearchHit: Sendable, Hashable {
  /// The place's index in the corpus.
  public var index: Int
  /// The place's id.
  public var id: PlaceID
  /// How the place matched: the range and the ranking classes.
  public var match: Match
  /// For a two-level match (MatchSpec §9.2), the corpus index of the place the query named
  /// first, one of this place's ancestors; -1 for a match of the whole query.
  public var viaIndex: Int32

  /// A hit of the place at `index` with id `id`, matched by the whole query, or by the rest of
  /// a two-level query under the place at `via`.
  public init(index: Int, id: PlaceID, match: Match, via: Int? = nil) {
    self.index = index
    self.id = id
    self.match = match
    self.viaIndex = via.map(Int32.init) ?? -1
  }

  /// The corpus index of the place a two-level query named first; `nil` for a match of the
  /// whole query.
  public var via: Int? { viaIndex < 0 ? nil : Int(viaIndex) }
}

/// What a backend answers: the exact number of matching places and the first `limit` of them
/// in rank order (MatchSpec §5).
public struct SearchResult: Sendable, Hashable {
  /// The query as normalized (MatchSpec §2).
  public var normalized: NormalizedQuery
  /// The contract it was answered under.
  public var mode: MatchMode
  /// The number of matching places.
  public var total: Int
  /// The best `limit` places, best first.
  public var hits: [SearchHit]

  /// A result of `total` matches, the first `hits` in rank order.
  public init(normalized: NormalizedQuery, mode: MatchMode, total: Int, hits: [SearchHit]) {
    self.normalized = normalized
    self.mode = mode
    self.total = total
    self.hits = hits
  }
}

extension SearchResult {
  /// The result of a scan: asks `match` for every place of `corpus` (none for an empty query),
  /// sorts all matches by ``Ranking/key(_:place:)`` and keeps the first `limit`. The plain
  /// ranking the scanning backends (the reference, the ICU ones) share.
  ///
  /// - Complexity: P calls of `match` for P places, plus O(k log k) to sort k matches.
  public static func rankingEveryPlace(
    _ query: NormalizedQuery, mode: MatchMode, limit: Int, in corpus: Corpus, match: (Int) -> Match?
  ) -> SearchResult {
    var matches: [(index: Int, match: Match)] = []
    if !query.isEmpty {
      for index in 0..<corpus.count {
        if let found = match(index) { matches.append((index, found)) }
      }
    }
    return Ranking(corpus: corpus).result(matches, query: query, mode: mode, limit: limit, corpus: corpus)
  }
}
