import CitySearch
import CitySearchExecutor

/// How much a backend's time on one query can exceed the reference's: the input-cost bound.
///
/// Every query is timed once, one at a time, for the reference and for the backend (the text
/// API, normalization included). A backend's *ratio* on a query is its time over the
/// reference's. No query may have a ratio above ``allowedGrowth`` (10×) — or, for a backend
/// slower than the reference on the typical query, above 10× its median ratio (the uncached
/// ICU backend is about 1,000× the reference on every query; that is its design, not a slow
/// input). Queries over half the bound on the first timing are timed again in seven interleaved
/// pairs (backend, reference, backend, …), and the median of the pairs' ratios decides: one
/// preemption, or a busy machine, does not fail a run.
public struct InputCost: Sendable {
  /// The bound: a query may cost at most this many times the reference's time (or the
  /// backend's median ratio, when that is above 1).
  public static let allowedGrowth = 10.0

  /// The query with the largest ratio, and its times.
  public let worstQuery: String
  /// The backend's time on the worst query, nanoseconds.
  public let backendNanoseconds: UInt64
  /// The reference's time on the worst query, nanoseconds.
  public let referenceNanoseconds: UInt64
  /// The worst query's time over the reference's.
  public let worstRatio: Double
  /// The median of the per-query ratios.
  public let medianRatio: Double
  /// How many queries were timed.
  public let queries: Int

  /// The largest ratio allowed: 10, or 10× the median ratio when that is above 1.
  public var bound: Double { Self.allowedGrowth * max(medianRatio, 1) }
  /// Whether the worst query stayed within ``bound``.
  public var withinBound: Bool { worstRatio <= bound }

  /// The reference's time on each query (one timing each), as its executor measured it.
  public static func referenceTimes(_ reference: any Executor, queries: [String]) throws -> [UInt64] {
    try queries.map { try reference.answerAlone($0).nanoseconds }
  }

  /// Times the implementation behind `executor` on `queries` against the reference's times,
  /// re-timing suspects; each time is the one the executor measured around its own answer
  /// (stateless executors: normalization and search, nothing else).
  ///
  /// - Complexity: O(q) searches, plus 14 per suspect query.
  public static func measure(
    _ executor: any Executor, reference: any Executor, queries: [String], referenceTimes: [UInt64]
  ) throws -> InputCost {
    precondition(queries.count == referenceTimes.count && !queries.isEmpty)
    var times = try zip(queries, referenceTimes).map { query, ref in
      (reference: ref, backend: try executor.answerAlone(query).nanoseconds)
    }
    var ratios = times.map { Double($0.backend) / Double(max($0.reference, 1)) }
    let median = ratios.sorted()[ratios.count / 2]
    let bound = allowedGrowth * max(median, 1)
    // A single timing is noisy: anything over half the bound is timed again, paired.
    for i in ratios.indices where ratios[i] > bound / 2 {
      let pairs = try (0..<7).map { _ in
        let b = try executor.answerAlone(queries[i]).nanoseconds
        let r = try reference.answerAlone(queries[i]).nanoseconds
        return (ratio: Double(b) / Double(max(r, 1)), reference: r, backend: b)
      }.sorted { $0.ratio < $1.ratio }
      ratios[i] = pairs[3].ratio
      times[i] = (pairs[3].reference, pairs[3].backend)
    }
    let worst = ratios.indices.max { ratios[$0] < ratios[$1] }!
    return InputCost(
      worstQuery: queries[worst], backendNanoseconds: times[worst].backend,
      referenceNanoseconds: times[worst].reference, worstRatio: ratios[worst], medianRatio: median,
      queries: queries.count)
  }
}
