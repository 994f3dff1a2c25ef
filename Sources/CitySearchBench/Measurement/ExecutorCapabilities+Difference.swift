import CitySearch
import CitySearchConformance
import CitySearchExecutor

extension ExecutorCapabilities {
  /// How an implementation of these capabilities answered otherwise than the reference, on
  /// what it offers (`comparable(_:limit:total:)` applied to both answers, the total being the
  /// reference's); `nil` when they agree. The bench replay and the conformance profile both
  /// compare this way.
  public func difference(expected: SearchResult, actual: SearchResult, limit: Int) -> ResultDifference? {
    guard !comparesAsIs else { return ResultDifference(expected: expected, actual: actual) }
    return ResultDifference(
      expected: comparable(expected, limit: limit, total: expected.total),
      actual: comparable(actual, limit: limit, total: expected.total))
  }
}
