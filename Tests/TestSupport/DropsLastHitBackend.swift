import CitySearch

/// A backend that answers like the reference but drops the last hit of every answer with at
/// least `fewest` hits (and counts one match fewer): a known divergence, for proving that a
/// check notices one.
public struct DropsLastHitBackend: SearchBackend {
  /// The name reports show.
  public static let name = "drops-last-hit"
  /// What it is.
  public static let summary = "the reference less its last hit (tests only)"
  /// The corpus it answers from.
  public let corpus: Corpus
  /// The fewest hits an answer must have to lose its last.
  public let fewest: Int
  let reference: LinearScanBackend

  /// Drops the last of two or more hits.
  public init(corpus: Corpus, options: BackendOptions) throws { self.init(corpus: corpus, fewest: 2) }

  /// Drops the last hit of answers with at least `fewest` hits.
  public init(corpus: Corpus, fewest: Int) {
    self.corpus = corpus
    self.fewest = fewest
    reference = LinearScanBackend(corpus: corpus)
  }

  /// The reference's answer, less its last hit where it has `fewest` or more.
  public func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int, scope: PlaceScope) -> SearchResult {
    var result = reference.search(query, mode: mode, limit: limit, scope: scope)
    if result.hits.count >= max(fewest, 1) {
      result.hits.removeLast()
      result.total -= 1
    }
    return result
  }
}
