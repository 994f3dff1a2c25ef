import CitySearch

/// A backend that can list every place matching a query with its match; ranking, counting and
/// the incremental session are then shared (`TopK`, ``Narrowing``).
///
/// An indexed backend conforms by enumerating its own candidates in ``forEachMatch(_:mode:_:)``
/// and gets ``rankedSearch(_:mode:limit:scope:)`` and a typing session (``Narrowing``) for free.
public protocol MatchSource: Sendable {
  /// The corpus whose places it lists.
  var corpus: Corpus { get }
  /// The shared matcher over ``corpus``, for verifying candidates and narrowing sessions.
  var matcher: PlaceMatcher { get }
  /// The rank keys of ``corpus``'s places.
  var ranking: Ranking { get }

  /// Calls `body` exactly once for every matching place, in any order.
  func forEachMatch(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode, _ body: (Int, Match) -> Void)

  /// The posting lists that hold `query`'s candidates, for a backend that keeps them
  /// (``forEachMatch(_:mode:_:)`` then verifies exactly these): the precomputed answers verify
  /// them a block of places at a time. `nil` for a backend that enumerates otherwise.
  func postingCandidates(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode) -> PostingCandidates?

  /// Precomputed answers of the shortest queries, if the backend keeps them.
  var shortAnswers: ShortQueryAnswers? { get }

  /// Precomputed answers of the shortest queries read with some fuzzy rules
  /// (``ShortQueryAnswers/fuzzy``), if the backend keeps them.
  var fuzzyAnswers: ShortQueryAnswers? { get }

  /// About how many candidates a fresh search for `query` would verify; a session narrows the
  /// previous keystroke's matches instead when they are fewer. `Int.max` when unknown.
  func candidateEstimate(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode) -> Int
}

extension MatchSource {
  /// No posting lists.
  public func postingCandidates(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode) -> PostingCandidates? { nil }

  /// No precomputed answers.
  public var shortAnswers: ShortQueryAnswers? { nil }

  /// No precomputed answers of fuzzy queries.
  public var fuzzyAnswers: ShortQueryAnswers? { nil }

  /// The precomputed answer of `query`, from the table of its fuzzy rules, if there is one.
  @inlinable @inline(__always)
  public func precomputedAnswer(_ query: NormalizedQuery, mode: MatchMode, limit: Int) -> SearchResult? {
    if query.fuzzy.isEmpty || mode == .seed {
      return shortAnswers?.answer(query, mode: mode, limit: limit, corpus: corpus)
    }
    return fuzzyAnswers?.answer(query, mode: mode, limit: limit, corpus: corpus)
  }

  /// Unknown: a session always narrows the previous keystroke's matches.
  public func candidateEstimate(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode) -> Int { .max }

  /// How many places a fresh enumeration of `query` visits, about: the exact total of a
  /// precomputed answer, else ``candidateEstimate(_:mode:)``.
  @inlinable
  public func enumerationEstimate(_ query: NormalizedQuery, _ prepared: PlaceMatcher.PreparedQuery, mode: MatchMode)
    -> Int
  {
    precomputedAnswer(query, mode: mode, limit: 0)?.total ?? candidateEstimate(prepared, mode: mode)
  }

  /// Calls `body` exactly once for every place in `scope` that matches, in any order: the
  /// backend's enumeration less the places out of scope, or, when the scope holds fewer places
  /// than the enumeration would visit (a city picker's 360 against the 8,803 matches of `s` on
  /// towns), each place of the scope tested with the shared matcher.
  ///
  /// - Complexity: O(min(s, e)) matcher calls or visits for s places in scope and e estimated
  ///   by ``enumerationEstimate(_:_:mode:)``.
  @inlinable
  public func forEachMatch(
    _ query: NormalizedQuery, _ prepared: PlaceMatcher.PreparedQuery, mode: MatchMode, in scope: PlaceScope,
    _ body: (Int, Match) -> Void
  ) {
    if scope.placeCount < enumerationEstimate(query, prepared, mode: mode) {
      matcher.withPlaces { places in
        for index in scope.indices {
          if let match = places.match(prepared, mode: mode, at: Int(index)) { body(Int(index), match) }
        }
      }
    } else {
      forEachMatch(prepared, mode: mode) { index, match in if scope.contains(index) { body(index, match) } }
    }
  }

  /// Counts every match in `scope` and keeps the best `limit`. The precomputed answers are of
  /// every place, so a scoped search enumerates even the shortest queries, or tests the places
  /// of a small scope one by one (``forEachMatch(_:_:mode:in:_:)``).
  ///
  /// - Complexity: the backend's enumeration plus O(n log limit) for n matches.
  @inlinable
  public func rankedSearch(
    _ query: NormalizedQuery, mode: MatchMode, limit: Int, scope: PlaceScope = .everything
  ) -> SearchResult {
    precondition(scope.admits(corpus), "a scope resolved for another corpus")
    var top = TopK(limit: limit)
    if scope.isEverything {
      if let answer = precomputedAnswer(query, mode: mode, limit: limit) { return answer }
      if !query.isEmpty {
        forEachMatch(matcher.prepare(query), mode: mode) { index, match in
          top.insert(key: ranking.key(match, place: index), index: index, match: match)
        }
      }
    } else if !query.isEmpty {
      forEachMatch(query, matcher.prepare(query), mode: mode, in: scope) { index, match in
        top.insert(key: ranking.key(match, place: index), index: index, match: match)
      }
    }
    return top.result(query, mode: mode, corpus: corpus)
  }
}

/// The narrowing that the indexed backends' sessions share (`TrieSession`,
/// `InvertedIndexSession`). Extending a query can only shrink its set of matches
/// (MatchSpec §6), so each keystroke re-verifies the previous keystroke's matches with the
/// shared matcher instead of searching afresh (when they are fewer than a fresh search would
/// verify). It keeps one match list per keystroke typed, so a backspace returns to an earlier
/// list at no cost. Generic over its source, so the timed path calls the backend directly.
public struct Narrowing<Source: MatchSource> {
  @usableFromInline let source: Source
  @usableFromInline let mode: MatchMode
  @usableFromInline let limit: Int
  @usableFromInline let scope: PlaceScope
  @usableFromInline let normalizer: QueryNormalizer
  /// The match lists of the current text's prefixes, shortest first; never an empty query.
  @usableFromInline var stack: [(query: NormalizedQuery, matches: [(index: Int32, match: Match)])] = []
  /// The ranking of every keystroke, its memory the session's: a keystroke allocates no heap of
  /// its own.
  @usableFromInline var top: TopK

  /// A session over `source` answering in `mode` with at most `limit` hits of the places in
  /// `scope`, each keystroke read with the fuzzy rules `fuzzy`; its match lists hold only
  /// places in scope.
  @inlinable
  public init(source: Source, mode: MatchMode, limit: Int, scope: PlaceScope = .everything, fuzzy: FuzzyRules = []) {
    precondition(scope.admits(source.corpus), "a scope resolved for another corpus")
    self.source = source
    self.mode = mode
    self.limit = limit
    self.scope = scope
    self.normalizer = QueryNormalizer(tables: source.corpus.tables, fuzzy: fuzzy)
    top = TopK(limit: limit)
    // Room for the lists of a typed name's keystrokes, so that the first few do not regrow it.
    stack.reserveCapacity(Self.expectedKeystrokes)
  }

  /// The keystrokes of a text the stack makes room for at once (a name's pinyin is rarely longer).
  @usableFromInline static var expectedKeystrokes: Int { 16 }

  /// The answer to the box's current text.
  ///
  /// - Complexity: O(m) matcher calls for the m matches of the previous keystroke, or the
  ///   backend's fresh search when that would verify fewer; plus O(n log limit) to rank n matches.
  @inlinable
  public mutating func update(_ text: String) -> SearchResult {
    let query = normalizer.normalize(text)
    while let top = stack.last, !top.query.isPrefix(of: query) { stack.removeLast() }
    // A precomputed answer needs no match list; the next keystroke searches afresh.
    if stack.isEmpty, scope.isEverything,
      let answer = source.precomputedAnswer(query, mode: mode, limit: limit)
    {
      return answer
    }
    if !query.isEmpty && stack.last?.query != query {
      stack.append((query, matches(of: query)))
    }
    top.removeAll()
    if !query.isEmpty {
      for (index, match) in stack[stack.count - 1].matches {
        top.insert(key: source.ranking.key(match, place: Int(index)), index: Int(index), match: match)
      }
    }
    return top.result(query, mode: mode, corpus: source.corpus)
  }

  @inlinable
  func matches(of query: NormalizedQuery) -> [(index: Int32, match: Match)] {
    guard scope.isEverything else { return scopedMatches(of: query) }
    let prepared = source.matcher.prepare(query)
    if let previous = stack.last?.matches, previous.count <= source.candidateEstimate(prepared, mode: mode) {
      return narrowed(previous, prepared)
    }
    var result: [(index: Int32, match: Match)] = []
    result.reserveCapacity(Self.expectedMatches)
    source.forEachMatch(prepared, mode: mode) { result.append((Int32($0), $1)) }
    return result
  }

  /// The room a fresh search's match list is given before its first match: a query searched
  /// beyond the precomputed answers mostly has no more matches than an answer keeps
  /// (``ShortQueryAnswers/depth``), and a list grown from empty was copied five times on the
  /// way to 31 matches (`ding` on `cities`: 2,000 of a keystroke's 27,000 instructions).
  @usableFromInline static var expectedMatches: Int { ShortQueryAnswers.depth }

  /// The places of `previous` that still match, re-verified with the shared matcher.
  @inlinable @inline(__always)
  func narrowed(_ previous: [(index: Int32, match: Match)], _ prepared: PlaceMatcher.PreparedQuery) -> [(
    index: Int32, match: Match
  )] {
    var result: [(index: Int32, match: Match)] = []
    result.reserveCapacity(min(previous.count, Self.expectedMatches))
    source.matcher.withPlaces { places in
      for (index, _) in previous {
        if let match = places.match(prepared, mode: mode, at: Int(index)) { result.append((index, match)) }
      }
    }
    return result
  }

  /// ``matches(of:)`` in a scope: a fresh search costs the smaller of the enumeration and the
  /// scope's places, and the previous list holds places in scope only. Kept apart so that the
  /// unscoped keystroke compiles as it did.
  @inlinable @inline(never)
  func scopedMatches(of query: NormalizedQuery) -> [(index: Int32, match: Match)] {
    let prepared = source.matcher.prepare(query)
    let fresh = min(scope.placeCount, source.enumerationEstimate(query, prepared, mode: mode))
    if let previous = stack.last?.matches, previous.count <= fresh { return narrowed(previous, prepared) }
    var result: [(index: Int32, match: Match)] = []
    source.forEachMatch(query, prepared, mode: mode, in: scope) { result.append((Int32($0), $1)) }
    return result
  }
}
