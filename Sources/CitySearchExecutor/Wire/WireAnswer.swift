import CitySearch

/// An executor's answer to one ``WireQuery``: the place ids in rank order, the total, the match
/// of each hit when the implementation reports them, and the nanoseconds it measured around
/// its own search call; or an error.
public struct WireAnswer: Codable, Sendable, Hashable {
  /// The ``WireQuery/id`` answered.
  public var id: Int
  /// The hits' place ids, best first (any order for an implementation that does not rank).
  public var ids: [PlaceID]
  /// The number of matching places.
  public var total: Int
  /// Each hit's match, when the implementation reports ranges and classes.
  public var matches: [WireMatch]?
  /// The time of the answer, measured inside the executor.
  public var nanoseconds: UInt64
  /// Set when the implementation could not answer; the other fields are then empty.
  public var error: WireError?

  /// An answer as the fields say.
  public init(
    id: Int, ids: [PlaceID], total: Int, matches: [WireMatch]?, nanoseconds: UInt64, error: WireError? = nil
  ) {
    self.id = id
    self.ids = ids
    self.total = total
    self.matches = matches
    self.nanoseconds = nanoseconds
    self.error = error
  }

  /// The wire form of an in-process `answer` to query `id`.
  public init(id: Int, answer: ExecutorAnswer) {
    self.init(
      id: id, ids: answer.result.hits.map(\.id), total: answer.result.total,
      matches: answer.result.hits.map { WireMatch($0.match) }, nanoseconds: answer.nanoseconds)
  }

  /// The answer as a result of `corpus`, for a replay to compare with the reference's: each id
  /// must name a place of `corpus`, and the matches, when sent, must be one per hit.
  ///
  /// - Throws: ``WireError`` naming the first wrong field.
  public func result(query: NormalizedQuery, mode: MatchMode, corpus: Corpus) throws -> SearchResult {
    if let error { throw error }
    if let matches, matches.count != ids.count {
      throw WireError(kind: .malformed, message: "\(matches.count) matches for \(ids.count) ids")
    }
    let hits = try ids.enumerated().map { (i, id) -> SearchHit in
      guard let index = corpus.index(of: id) else {
        throw WireError(kind: .unknownPlace, message: "id \(id) names no place of \(corpus.source)")
      }
      return SearchHit(index: index, id: id, match: matches?[i].match ?? Match(bits: 0))
    }
    return SearchResult(normalized: query, mode: mode, total: total, hits: hits)
  }
}

/// A hit's match on the wire: the range and the classes of `Match`, spelled out.
public struct WireMatch: Codable, Sendable, Hashable {
  /// `Match.start`.
  public var start: Int
  /// `Match.end`.
  public var end: Int
  /// `Match.matchClass`.
  public var matchClass: Int
  /// `Match.readingClass`.
  public var readingClass: Int
  /// `Match.spellingClass`.
  public var spellingClass: Int
  /// `Match.fuzzyClass` when it is 1 (MatchSpec §3.5); absent for 0, so that an implementation
  /// that knows no fuzzy rules need not send it.
  public var fuzzyClass: Int?

  /// The wire form of `match`.
  public init(_ match: Match) {
    start = match.start
    end = match.end
    matchClass = match.matchClass
    readingClass = match.readingClass
    spellingClass = match.spellingClass
    fuzzyClass = match.fuzzyClass == 0 ? nil : match.fuzzyClass
  }

  /// The match it spells out.
  public var match: Match {
    Match(
      start: start, end: end, matchClass: matchClass, readingClass: readingClass, spellingClass: spellingClass,
      fuzzyClass: fuzzyClass ?? 0)
  }
}
