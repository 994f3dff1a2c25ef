import Foundation

/// Any backend's search with two-level queries (MatchSpec §9.2): a query that names a place and
/// then one under it — `北京朝阳`, `bjcy`, `beijing chaoyang` — also finds the place under it
/// (北京's 朝阳区), ranked by the pair.
///
/// The whole query is answered by the backend as always; each head of the query
/// (``PlaceHeads``) is answered by the backend's own scoped search of the rest under the place
/// it names (``PlaceScope/restricted(under:in:)``), so every backend answers two-level queries
/// from its own index, and a backend that conforms without them conforms with them.
///
/// ```swift
/// let search = TwoLevelSearch(backend: try TrieBackend(corpus: corpus, options: BackendOptions()))
/// search.search("bjcy").hits.first?.id  // 110105, 朝阳区, via 北京市
/// ```
public struct TwoLevelSearch<Backend: SearchBackend>: Sendable {
  /// What it answers with, behind one reference: a copy of the search (into a session, an
  /// executor, each keystroke's call) retains one object, not every array of the corpus.
  private final class Parts: Sendable {
    let backend: Backend
    let heads: PlaceHeads
    let matcher: PlaceMatcher
    let ranking: Ranking
    let scopes = ScopeCache()

    init(backend: Backend, heads: PlaceHeads) {
      self.backend = backend
      self.heads = heads
      matcher = PlaceMatcher(corpus: backend.corpus)
      ranking = Ranking(corpus: backend.corpus)
    }
  }

  private let parts: Parts

  /// The backend that answers the whole query and each rest.
  public var backend: Backend { parts.backend }
  /// The forms a query may name a place by first.
  public var heads: PlaceHeads { parts.heads }

  /// Two-level search over `backend`, with the heads of its corpus (built here: about 1 ms per
  /// 1,000 places of levels 1–3).
  public init(backend: Backend) {
    self.init(backend: backend, heads: PlaceHeads(corpus: backend.corpus))
  }

  /// Two-level search over `backend` with heads already built for its corpus.
  public init(backend: Backend, heads: PlaceHeads) {
    parts = Parts(backend: backend, heads: heads)
  }

  /// Normalizes `text` (MatchSpec §2) and answers it, two-level matches included.
  public func search(
    _ text: String, mode: MatchMode = .syllable, limit: Int = 20, scope: PlaceScope = .everything,
    fuzzy: FuzzyRules = []
  ) -> SearchResult {
    search(
      QueryNormalizer(tables: parts.backend.corpus.tables, fuzzy: fuzzy).normalize(text), mode: mode, limit: limit,
      scope: scope)
  }

  /// Answers `query` with the places in `scope`: its matches as the backend answers them, and
  /// the two-level matches of its heads (a rest matched only in a place's administrative
  /// suffix, match class 3, names nothing), each place once, by its better rank key.
  ///
  /// - Complexity: one backend search, plus, per head and place it names, one scoped search of
  ///   the rest (all of its matches), and, for the places found that way, a set lookup each when
  ///   the whole query's matches are at hand or fewer, else one reference match each.
  public func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int, scope: PlaceScope) -> SearchResult {
    addingTwoLevelMatches(
      to: parts.backend.search(query, mode: mode, limit: limit, scope: scope), mode: mode, limit: limit, scope: scope)
  }

  /// `direct`, the backend's answer to a whole query (``SearchResult/normalized``) in `mode`
  /// with `limit` hits of the places in `scope`, joined with the query's two-level matches: what
  /// a caller that already has the backend's answer (a session's, an executor's) adds to it.
  ///
  /// - Complexity: nothing beyond one walk of ``heads`` when the query has no head.
  public func addingTwoLevelMatches(
    to direct: SearchResult, mode: MatchMode, limit: Int, scope: PlaceScope
  ) -> SearchResult {
    let found = parts.heads.heads(of: direct.normalized)
    guard !found.isEmpty else { return direct }
    let query = direct.normalized
    let (backend, matcher, ranking, scopes) = (parts.backend, parts.matcher, parts.ranking, parts.scopes)
    let corpus = backend.corpus

    // Every two-level match, each place by its best key.
    var pairs: [Int32: (key: UInt64, match: Match, via: Int32)] = [:]
    for head in found {
      let rest = NormalizedQuery(tokens: Array(query.tokens[head.tailStart...]), fuzzy: query.fuzzy)
      for ancestor in head.ancestors {
        let under = scopes.scope(under: ancestor, within: scope, in: corpus)
        guard under.placeCount > 0 else { continue }
        // Every match of the rest: the places a suffix run alone reaches are left out, and the
        // places reached twice are counted once.
        let answer = backend.search(rest, mode: mode, limit: .max, scope: under)
        for hit in answer.hits where hit.match.matchClass != 3 {
          let key = ranking.key(hit.match, place: hit.index, under: Int(ancestor))
          if let kept = pairs[Int32(hit.index)], kept.key <= key { continue }
          pairs[Int32(hit.index)] = (key, hit.match, ancestor)
        }
      }
    }
    guard !pairs.isEmpty else { return direct }

    // A place the whole query matches too is counted once, by its better key. Which those are is
    // read from the smaller side: the whole query's matches when they are all at hand (or fewer
    // than the two-level ones), else each two-level place matched against the whole query.
    var whole: [Int32: Match] = [:]
    var wholeKnown = direct.total == direct.hits.count
    var all = direct
    if !wholeKnown && direct.total <= pairs.count {
      all = backend.search(query, mode: mode, limit: .max, scope: scope)
      wholeKnown = true
    }
    if wholeKnown {
      for hit in all.hits where pairs[Int32(hit.index)] != nil { whole[Int32(hit.index)] = hit.match }
    } else {
      let prepared = matcher.prepare(query)
      matcher.withPlaces { places in
        for place in pairs.keys {
          if let match = places.match(prepared, mode: mode, at: Int(place)) { whole[place] = match }
        }
      }
    }
    var added = 0
    var candidates: [(key: UInt64, hit: SearchHit)] = []
    var replaced = Set<Int32>()
    for (place, pair) in pairs {
      if let match = whole[place] {
        guard pair.key < ranking.key(match, place: Int(place)) else { continue }
        replaced.insert(place)
      } else {
        added += 1
      }
      let hit = SearchHit(index: Int(place), id: corpus.id(at: Int(place)), match: pair.match, via: Int(pair.via))
      candidates.append((pair.key, hit))
    }
    for hit in direct.hits where !replaced.contains(Int32(hit.index)) {
      candidates.append((ranking.key(hit.match, place: hit.index), hit))
    }
    candidates.sort { $0.key < $1.key }
    return SearchResult(
      normalized: query, mode: mode, total: direct.total + added,
      hits: candidates.prefix(max(limit, 0)).map(\.hit))
  }

  /// Starts a typing session: the backend's own session answers the whole text at each
  /// keystroke (§6 holds for it), and the two-level matches are added afresh (they do not
  /// narrow: `北京` has none, `北京朝` has 朝阳区).
  public func makeSession(mode: MatchMode, limit: Int, scope: PlaceScope = .everything, fuzzy: FuzzyRules = [])
    -> TwoLevelSession<Backend>
  {
    TwoLevelSession(
      search: self, session: parts.backend.makeSession(mode: mode, limit: limit, scope: scope, fuzzy: fuzzy),
      mode: mode,
      limit: limit, scope: scope)
  }
}

/// A typing session with two-level queries (``TwoLevelSearch/makeSession(mode:limit:scope:fuzzy:)``).
public struct TwoLevelSession<Backend: SearchBackend>: SearchSession {
  let search: TwoLevelSearch<Backend>
  var session: Backend.Session
  let mode: MatchMode
  let limit: Int
  let scope: PlaceScope

  /// The backend session's answer to `text` with the text's two-level matches added.
  public mutating func update(_ text: String) -> SearchResult {
    search.addingTwoLevelMatches(to: session.update(text), mode: mode, limit: limit, scope: scope)
  }
}

/// The scopes of the places under each ancestor a head names, kept for the unscoped search
/// (a typist's keystrokes name the same ancestor again and again): at most
/// ``ScopeCache/capacity`` of them, dropped all at once when full.
final class ScopeCache: @unchecked Sendable {
  static let capacity = 64
  private var kept: [Int32: PlaceScope] = [:]
  private let lock = NSLock()

  /// `scope` restricted to the places under `ancestor` (``PlaceScope/restricted(under:in:)``).
  func scope(under ancestor: Int32, within scope: PlaceScope, in corpus: Corpus) -> PlaceScope {
    guard scope.isEverything else { return scope.restricted(under: Int(ancestor), in: corpus) }
    lock.lock()
    let found = kept[ancestor]
    lock.unlock()
    if let found { return found }
    let made = scope.restricted(under: Int(ancestor), in: corpus)
    lock.lock()
    if kept.count >= Self.capacity { kept.removeAll(keepingCapacity: true) }
    kept[ancestor] = made
    lock.unlock()
    return made
  }
}
