import CitySearch

extension ExecutorCapabilities {
  /// `result` with only what an implementation of these capabilities is asked for, so that
  /// its answer and the reference's compare on what both have: without match ranges, hits
  /// carry no match; without ranking, hits are a set (in id order), and when there are more
  /// matches than `limit` the set cannot be compared (any `limit` of them is right), so only
  /// the total is; without exact totals, the total is not compared (it is set to `total`).
  ///
  /// Applied to both answers of a pair, with `total` the reference's.
  public func comparable(_ result: SearchResult, limit: Int, total: Int) -> SearchResult {
    var projected = result
    if !matchRanges {
      for i in projected.hits.indices { projected.hits[i].match = Match(bits: 0) }
    }
    if !ranked {
      if total > limit {
        projected.hits = []
      } else {
        projected.hits.sort { $0.id < $1.id }
      }
    }
    if !exactTotals { projected.total = total }
    return projected
  }

  /// Whether answers need ``comparable(_:limit:total:)`` before they compare: the suite's own
  /// backends have every capability and compare as they are.
  public var comparesAsIs: Bool { ranked && matchRanges && exactTotals }
}
