import CitySearch
import CitySearchBackends
import CitySearchCatalog
import Testing

/// The differential checker itself, and every shipped backend run through it.
@Suite struct ConformanceTests {
  /// A backend that drops the last hit: the checker must notice.
  struct DroppingBackend: SearchBackend {
    static let name = "dropping"
    static let summary = "test double that loses one result"
    let corpus: Corpus
    let inner: LinearScanBackend
    init(corpus: Corpus, options: BackendOptions) {
      self.corpus = corpus
      inner = LinearScanBackend(corpus: corpus)
    }
    func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int) -> SearchResult {
      var result = inner.search(query, mode: mode, limit: limit)
      if !result.hits.isEmpty {
        result.hits.removeLast()
        result.total -= 1
      }
      return result
    }
  }

  @Test func checkerReportsADivergence() {
    let reference = Fixtures.citiesReference
    let broken = DroppingBackend(corpus: Fixtures.cities, options: BackendOptions())
    let expected = reference.search("bj", mode: .syllable, limit: 20)
    let actual = broken.search("bj", mode: .syllable, limit: 20)
    #expect(ConformanceChecker<DroppingBackend>.difference(expected: expected, actual: actual) == "total 8, expected 9")
    #expect(ConformanceChecker<DroppingBackend>.difference(expected: expected, actual: expected) == nil)
  }

  static let queries = [
    "bj", "beij", "北京", "xi'an", "xian", "zhongqing", "lv", "長沙", "b", "zh", "chaoyang", "eijing", "sh", "hebs",
  ]

  @Test(arguments: BackendCatalog.all.map { $0.name })
  func backendConformsOnSampleQueries(name: String) throws {
    let type = try #require(BackendCatalog.backend(named: name))
    try checkAll(type, corpus: Fixtures.cities)
  }

  private func checkAll<B: SearchBackend>(_ type: B.Type, corpus: Corpus) throws {
    let checker = ConformanceChecker(
      try B(corpus: corpus, options: BackendOptions()), reference: Fixtures.citiesReference)
    for query in Self.queries {
      for mode in MatchMode.allCases {
        checker.check(query, mode: mode)
        checker.checkTyping(query, mode: mode)
      }
    }
  }
}

/// Backends are immutable after build and safe to query from many threads.
@Suite struct ConcurrencyTests {
  @Test func concurrentQueriesAgreeWithSerialOnes() async {
    let backend = Fixtures.citiesReference
    let queries = ConformanceTests.queries + ["x", "重庆", "lv", "b'j"]
    let serial = queries.map { backend.search($0, mode: .syllable, limit: 20) }
    let concurrent = await withTaskGroup(of: (Int, SearchResult).self) { group in
      for _ in 0..<4 {
        for (i, query) in queries.enumerated() {
          group.addTask { (i, backend.search(query, mode: .syllable, limit: 20)) }
        }
      }
      var results: [(Int, SearchResult)] = []
      for await result in group { results.append(result) }
      return results
    }
    #expect(concurrent.count == queries.count * 4)
    for (i, result) in concurrent { #expect(result == serial[i], "\(queries[i])") }
  }
}
