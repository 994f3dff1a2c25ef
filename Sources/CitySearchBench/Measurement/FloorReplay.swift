import CitySearch
import CitySearchExecutor

/// The floor of a keystroke's latency on this machine: every answer of the workload known in
/// advance, looked up and copied through the public API as a table-backed search answers: the
/// text normalized (`QueryNormalizer`, as every session does first), its tokens looked up in a
/// hash table, the hits copied into a new `SearchResult`. No backend answering through
/// `SearchSession.update(_:)` can do less, so `bench` reports every backend's p50 and p99 as
/// multiples of it.
///
/// The answers are the reference's, as it gave them in the run's first round; from the second
/// round on the floor answers every keystroke in the shuffled order beside the backends
/// (``BenchRunner``), on the same clock, so it meets the caches they meet.
public struct FloorReplay {
  let normalizer: QueryNormalizer
  let table: [[UInt32]: SearchResult]
  let limit: Int

  /// A table of `answers`, one per text of `texts` (read with `fuzzy`, on `corpus`'s tables),
  /// copied at most `limit` hits at a time.
  public init(corpus: Corpus, fuzzy: FuzzyRules, limit: Int, texts: [String], answers: [SearchResult]) {
    precondition(texts.count == answers.count, "one answer per text")
    let normalizer = QueryNormalizer(tables: corpus.tables, fuzzy: fuzzy)
    var table: [[UInt32]: SearchResult] = [:]
    for (text, answer) in zip(texts, answers) { table[normalizer.normalize(text).tokens] = answer }
    self.normalizer = normalizer
    self.table = table
    self.limit = limit
  }

  /// The answer of `text` from the table: normalized, looked up, its hits copied; `nil` for a
  /// text the table does not hold.
  ///
  /// - Complexity: O(n + limit) for a text of n characters.
  @inline(never)
  public func answer(_ text: String) -> SearchResult? {
    let query = normalizer.normalize(text)
    guard let stored = table[query.tokens] else { return nil }
    return SearchResult(
      normalized: query, mode: stored.mode, total: stored.total, hits: Array(stored.hits.prefix(limit)))
  }

  /// ``answer(_:)`` timed on the monotonic clock, as an in-process executor times a session's
  /// answer: nanoseconds, or `nil` for a text the table does not hold.
  public func timedAnswer(_ text: String) -> UInt64? {
    let start = MonotonicClock.now()
    let answer = self.answer(text)
    let elapsed = MonotonicClock.now() &- start
    return answer == nil ? nil : elapsed
  }
}
