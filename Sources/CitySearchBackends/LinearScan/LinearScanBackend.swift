import CitySearch

/// The reference backend: tests every place with the shared ``PlaceMatcher`` and sorts the
/// matches by ``RankKey``. Its correctness is meant to be obvious by reading; every other
/// backend is checked against it.
public struct LinearScanBackend: SearchBackend {
  public static let name = "linear"
  public static let summary = "Reference: tests every place with the shared matcher, then sorts all matches"

  public let corpus: Corpus
  private let matcher: PlaceMatcher

  public init(corpus: Corpus, options: BackendOptions = BackendOptions()) {
    self.corpus = corpus
    self.matcher = PlaceMatcher(corpus: corpus)
  }

  /// - Complexity: O(P · c) for P places and the matcher's per-place cost c, plus
  ///   O(k log k) to sort the k matches.
  public func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int) -> SearchResult {
    var matches: [(key: RankKey, hit: SearchHit)] = []
    if !query.isEmpty {
      let prepared = matcher.prepare(query)
      for index in 0..<corpus.count {
        guard let match = matcher.match(prepared, mode: mode, at: index) else { continue }
        let hit = SearchHit(index: index, id: corpus.id(at: index), match: match)
        matches.append((RankKey(match: match, place: index, in: corpus), hit))
      }
    }
    matches.sort { $0.key < $1.key }
    return SearchResult(
      normalized: query, mode: mode, total: matches.count, hits: matches.prefix(max(limit, 0)).map(\.hit))
  }
}
