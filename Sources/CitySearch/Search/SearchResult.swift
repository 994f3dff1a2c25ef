/// One ranked result.
public struct SearchHit: Sendable, Hashable {
  /// The place's index in the corpus.
  public var index: Int
  /// The place's id.
  public var id: PlaceID
  /// How the place matched: the range and the ranking classes.
  public var match: Match

  /// A hit of the place at `index` with id `id`.
  public init(index: Int, id: PlaceID, match: Match) {
    self.index = index
    self.id = id
    self.match = match
  }
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
  /// sorts all matches by ``RankKey`` and keeps the first `limit`. The plain ranking the
  /// scanning backends (the reference, the ICU ones) share.
  ///
  /// - Complexity: P calls of `match` for P places, plus O(k log k) to sort k matches.
  public static func rankingEveryPlace(
    _ query: NormalizedQuery, mode: MatchMode, limit: Int, in corpus: Corpus, match: (Int) -> Match?
  ) -> SearchResult {
    var matches: [(key: RankKey, hit: SearchHit)] = []
    if !query.isEmpty {
      for index in 0..<corpus.count {
        guard let found = match(index) else { continue }
        let hit = SearchHit(index: index, id: corpus.id(at: index), match: found)
        matches.append((RankKey(match: found, place: index, in: corpus), hit))
      }
    }
    matches.sort { $0.key < $1.key }
    return SearchResult(
      normalized: query, mode: mode, total: matches.count, hits: matches.prefix(max(limit, 0)).map(\.hit))
  }
}

/// The total order of MatchSpec §5.4: ascending by spelling class, match class, reading class,
/// then the place's rank ordinal (``Corpus/rankOrdinal(at:)``: prominence, level, name length,
/// id).
public struct RankKey: Sendable, Hashable, Comparable {
  /// ``Match/spellingClass``.
  public var spellingClass: Int
  /// ``Match/matchClass``.
  public var matchClass: Int
  /// ``Match/readingClass``.
  public var readingClass: Int
  /// ``Corpus/rankOrdinal(at:)`` of the place.
  public var rankOrdinal: Int

  /// The key of `match` of the place at `index` of `corpus`.
  public init(match: Match, place index: Int, in corpus: Corpus) {
    spellingClass = match.spellingClass
    matchClass = match.matchClass
    readingClass = match.readingClass
    rankOrdinal = corpus.rankOrdinal(at: index)
  }

  public static func < (a: RankKey, b: RankKey) -> Bool {
    (a.spellingClass, a.matchClass, a.readingClass, a.rankOrdinal)
      < (b.spellingClass, b.matchClass, b.readingClass, b.rankOrdinal)
  }
}
