/// The reference backend: tests every place with the shared `PlaceMatcher` and sorts the
/// matches by their ``Ranking`` key. Its correctness is meant to be obvious by reading; every other
/// backend is checked against it.
public struct LinearScanBackend: SearchBackend {
  public static let name = "linear"
  public static let summary = "Reference: tests every place with the shared matcher, then sorts all matches"

  /// The corpus it scans.
  public let corpus: Corpus
  private let matcher: PlaceMatcher

  public init(corpus: Corpus, options: BackendOptions = BackendOptions()) {
    self.corpus = corpus
    self.matcher = PlaceMatcher(corpus: corpus)
  }

  /// Tests every place in `scope` and sorts the matches.
  ///
  /// - Complexity: O(P · c) for P places and the matcher's per-place cost c, plus
  ///   O(k log k) to sort the k matches.
  public func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int, scope: PlaceScope) -> SearchResult {
    precondition(scope.admits(corpus), "a scope resolved for another corpus")
    let prepared = matcher.prepare(query)
    return matcher.withPlaces { places in
      .rankingEveryPlace(query, mode: mode, limit: limit, in: corpus) { index in
        scope.contains(index) ? places.match(prepared, mode: mode, at: index) : nil
      }
    }
  }
}
