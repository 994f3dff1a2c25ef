import CitySearch
import CitySearchConformance
import CitySearchExecutor

/// The conformance profile of an implementation behind an executor: every query answered in a
/// session of its own and compared with the reference's answer on what the implementation
/// offers (`ConformanceProfile`).
public struct ExecutorProfiler {
  /// The reference, answering the same queries.
  public let reference: LinearScanBackend
  /// The corpus's name in the profile.
  public let corpusName: String
  /// The match mode.
  public let mode: MatchMode
  /// The fuzzy rules the reference and the executor read every query with (MatchSpec §3.5).
  public let fuzzy: FuzzyRules
  /// The places per answer.
  public let limit: Int

  /// A profiler against `reference` over the corpus named `corpusName`, queries read with the
  /// fuzzy rules `fuzzy` (the executor was started with them).
  public init(reference: LinearScanBackend, corpusName: String, mode: MatchMode, fuzzy: FuzzyRules = [], limit: Int) {
    self.reference = reference
    self.corpusName = corpusName
    self.mode = mode
    self.fuzzy = fuzzy
    self.limit = limit
  }

  /// The profile of `executor` on `texts`, sent in batches (`Executor.answersAlone`). A query
  /// it fails is counted; once it has failed for good, the rest are counted as failed and the
  /// failure is returned beside the profile.
  ///
  /// - Complexity: one answer of the executor and one of the reference per text.
  public func profile(
    _ executor: any Executor, texts: [String], progress: (Int, Int) -> Void = { _, _ in }
  ) -> (profile: ConformanceProfile, failure: ExecutorError?) {
    let capabilities = executor.capabilities
    var profile = ConformanceProfile(
      implementation: executor.name, corpus: corpusName, mode: mode, fuzzy: fuzzy, ranked: capabilities.ranked,
      limit: limit)
    let corpus = reference.corpus
    var done = 0
    for batch in stride(from: 0, to: texts.count, by: 256).map({ texts[$0..<min($0 + 256, texts.count)] }) {
      progress(done, texts.count)
      for (text, outcome) in zip(batch, executor.answersAlone(Array(batch))) {
        guard case .success(let answer) = outcome else {
          profile.failedQueries += 1
          continue
        }
        let expected = reference.search(text, mode: mode, limit: limit, fuzzy: fuzzy)
        let exactlyEqual = capabilities.difference(expected: expected, actual: answer.result, limit: limit) == nil
        profile.add(text: text, expected: expected, actual: answer.result, exactlyEqual: exactlyEqual) { hit in
          corpus.name(at: hit.index)
        }
      }
      done += batch.count
    }
    progress(texts.count, texts.count)
    profile.finish()
    return (profile, executor.failure)
  }

  /// The distinct queries of a profile: every prefix of a seeded sample of targets
  /// (`ConformanceQueries.sample`), at least `count` of them, in a fixed order.
  public static func queries(_ corpus: Corpus, count: Int, seed: UInt64) -> [String] {
    var seen = Set<String>()
    var texts: [String] = []
    for target in ConformanceQueries.sample(corpus, queries: count, seed: seed) {
      for k in 1...target.count {
        let text = String(target.prefix(k))
        if seen.insert(text).inserted { texts.append(text) }
      }
    }
    return texts
  }
}
