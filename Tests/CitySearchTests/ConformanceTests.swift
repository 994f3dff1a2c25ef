import CitySearch
import CitySearchBackends
import CitySearchCatalog
import CitySearchConformance
import CitySearchEngine
import CitySearchICU
import CitySearchTestSupport
import Foundation
import Testing

/// The differential checker itself, and every shipped backend run through it.
@Suite(.timed) struct ConformanceTests {
  @Test func differenceNamesTheTotalAndTheFirstPosition() throws {
    let reference = Fixtures.citiesReference
    let broken = DropsLastHitBackend(corpus: Fixtures.cities, fewest: 1)
    let expected = reference.search("bj", mode: .syllable, limit: 20)
    let actual = broken.search("bj", mode: .syllable, limit: 20)
    let difference = try #require(ResultDifference(expected: expected, actual: actual))
    #expect(difference.position == 9)
    #expect(
      difference.description == "total 8, expected 9; position 9: got nothing, expected #540421 [1,3) class 1/2/0")
    #expect(ResultDifference(expected: expected, actual: expected) == nil)
    let table = difference.sideBySide(corpus: Fixtures.cities)
    #expect(table.contains("> 9 "))
    #expect(table.contains("expected (total 9)"))
  }

  @Test func differentialRunFindsTheDivergenceAndItsSignature() {
    let run = DifferentialRun(reference: Fixtures.citiesReference)
    let broken = DropsLastHitBackend(corpus: Fixtures.cities, fewest: 1)
    let outcome = run.check(broken, label: "dropping", mode: .syllable, texts: ["bj", "beijing"], targets: ["bj"])
    // 'beijing' has one hit (dropped too); 'bj' loses its last.
    #expect(outcome.statelessChecked == 2)
    #expect(outcome.unexpectedCount == 2)
    #expect(outcome.expectedCount == 0)
    #expect(outcome.unexpected.allSatisfy { $0.culprits.count == 1 })
    #expect(outcome.culprits.count == 2)
    let accepting = run.check(
      broken, label: "dropping", mode: .syllable, texts: ["bj", "beijing"], targets: [], isExpected: { _ in true })
    #expect(accepting.expectedCount == 2 && accepting.unexpectedCount == 0 && !accepting.conforms)
    #expect(outcome.sessionNote != nil)  // RepeatingSession: covered by the stateless pass
  }

  static let queries = [
    "bj", "beij", "北京", "xi'an", "xian", "zhongqing", "lv", "長沙", "b", "zh", "chaoyang", "eijing", "sh", "hebs",
    "gu'an'x", "cs", "chongq", "重", "a", "wlmq", "xm", "hhht",
  ]

  /// Every backend but the slow uncached ICU one, which answers a few of the queries.
  @Test(arguments: BackendCatalog.all.map { $0.name })
  func backendConformsOnSampleQueries(name: String) throws {
    let type = try #require(BackendCatalog.backend(named: name))
    let queries = type == ICUBackend.self ? Array(Self.queries.prefix(4)) : Self.queries
    try checkAll(type, queries: queries)
  }

  private func checkAll<B: SearchBackend>(_ type: B.Type, queries: [String]) throws {
    let checker = ConformanceChecker(
      try B(corpus: Fixtures.cities, options: BackendOptions()), reference: Fixtures.citiesReference)
    for query in queries {
      for mode in MatchMode.allCases {
        checker.check(query, mode: mode)
        checker.checkTyping(query, mode: mode)
      }
    }
  }

  /// A seeded slice of the fuzzed queries (`citybench conform --fuzz N` runs as many as asked):
  /// every kind, long periodic queries among them, stateless in both modes.
  @Test(arguments: ["trie", "inverted-index", "sqlite-fts5", "icu-cached"])
  func backendConformsOnFuzzedQueries(name: String) throws {
    let type = try #require(BackendCatalog.backend(named: name))
    func run<B: SearchBackend>(_ type: B.Type) throws {
      let checker = ConformanceChecker(
        try B(corpus: Fixtures.cities, options: BackendOptions()), reference: Fixtures.citiesReference)
      for (_, text) in FuzzQueries.generate(Fixtures.cities, count: 300, seed: 7) {
        for mode in MatchMode.allCases { checker.check(text, mode: mode) }
      }
    }
    try run(type)
  }

  @Test func fuzzedQueriesAreSeededAndCoverEveryKind() {
    let a = FuzzQueries.generate(Fixtures.cities, count: 200, seed: 3)
    #expect(a.map(\.text) == FuzzQueries.generate(Fixtures.cities, count: 200, seed: 3).map(\.text))
    #expect(a.map(\.text) != FuzzQueries.generate(Fixtures.cities, count: 200, seed: 4).map(\.text))
    #expect(Set(a.map(\.kind)) == Set(FuzzQueries.Kind.allCases))
    let long = a.filter { $0.kind == .long }
    #expect(long.count == 4 && long.allSatisfy { $0.text.count >= 1_000 })
    #expect(a.contains { $0.text.unicodeScalars.contains { $0.properties.generalCategory == .control } })
  }

  /// A representative slice of `citybench conform`'s exhaustive sweep of cities (which CI runs
  /// whole, in a release build): every form of every 200th place and of every 9th place with
  /// aliases, typed out keystroke by keystroke, for the indexed backends.
  @Test(arguments: ["trie", "inverted-index", "sqlite-fts5"])
  func indexedBackendConformsOnExhaustiveSlice(name: String) throws {
    let type = try #require(BackendCatalog.backend(named: name))
    func run<B: SearchBackend>(_ type: B.Type) throws {
      let corpus = Fixtures.cities
      let checker = ConformanceChecker(
        try B(corpus: corpus, options: BackendOptions()), reference: Fixtures.citiesReference)
      let aliased = (0..<corpus.count).filter { corpus.hasAliases(at: $0) }
      let places =
        Array(stride(from: 0, to: corpus.count, by: 200))
        + stride(from: 0, to: aliased.count, by: 9).map {
          aliased[$0]
        }
      for place in places {
        for form in ConformanceQueries.forms(of: place, in: corpus) {
          for mode in MatchMode.allCases where !checker.checkTyping(form, mode: mode) { return }
        }
      }
    }
    try run(type)
  }

  /// The precomputed answers (every one- and two-letter query, one-Hanzi ones and longer ones
  /// that extend an extended query) agree with the reference at every limit, including limits
  /// beyond what they keep (then the backend searches as usual).
  @Test(arguments: ["trie", "inverted-index"])
  func shortQueryAnswersAgreeWithTheReference(name: String) throws {
    let type = try #require(BackendCatalog.backend(named: name))
    func run<B: SearchBackend>(_ type: B.Type) throws {
      let backend = try B(corpus: Fixtures.cities, options: BackendOptions())
      let letters = "abcdefghijklmnopqrstuvwxyz0123456789".map(String.init)
      // Every one- and two-character query is precomputed, and so are the one-Hanzi ones and
      // the longer ones whose prefix is extended, broad or not (`藏`, `鄂`); the others here
      // (`zzz`, `x1a`, `𠀀`, no Hanzi of the corpus) are answered by the walk.
      let broad = ["xia", "zha", "she", "shi", "zho", "xin", "xian", "chang", "县", "市", "区", "州", "阳", "山"]
      let narrow = ["bjs", "qqh", "zzz", "x1a", "藏", "鄂", "𠀀"]
      let queries = letters + ["zh", "sh", "bj", "xa", "a1", "cs"] + broad + narrow
      for limit in [0, 1, 20, 64, 65] {
        let checker = ConformanceChecker(backend, reference: Fixtures.citiesReference, limit: limit)
        for query in queries {
          for mode in MatchMode.allCases { checker.check(query, mode: mode) }
        }
      }
    }
    try run(type)
  }

  /// Which queries the table answers: a query of one Hanzi exactly when the corpus holds it; a
  /// query of three letters or more exactly when its prefix one letter shorter is answered
  /// there too (or is of two letters) and is extended (`isExtended`: on `cities`, more than
  /// `smallCorpusExtensionTotal` matches, 8, at any length), and in `seed` mode
  /// its last two letters match some place; never one with a mark, nor one of two Hanzi. The
  /// answers kept, broad or not, are the reference's.
  @Test func extensionsOfExtendedQueriesAreAnsweredFromTheTableOthersByTheWalk() throws {
    let backend = TrieBackend(corpus: Fixtures.cities)
    let table = try #require(backend.shortAnswers)
    let normalizer = QueryNormalizer(tables: Fixtures.cities.tables)
    var narrow = 0
    var longer = 0
    var walked = 0
    let texts = [
      "xia", "zha", "she", "shi", "zho", "xin", "bjs", "zzz", "qqh", "县", "市", "区", "藏", "鄂", "xian", "xiang",
      "chang", "changs", "dong", "shan", "shanx", "zhou", "jiangj", "xianx", "zhoukou", "qz", "xq", "bshua",
      "shouguang",
    ]
    for text in texts {
      for mode in MatchMode.allCases {
        func total(_ text: String) -> Int {
          Fixtures.citiesReference.search(normalizer.normalize(text), mode: mode, limit: 0).total
        }
        func kept(_ text: String) -> Bool {
          guard text.unicodeScalars.allSatisfy(\.isASCII) else { return text.count == 1 && total(text) > 0 }
          guard text.count >= 3 else { return text.count >= 1 }
          let prefix = String(text.dropLast())
          return kept(prefix)
            && ShortQueryAnswers.isExtended(
              length: prefix.count, total: total(prefix), mode: mode, placeCount: Fixtures.cities.count)
            && (mode == .syllable || total(String(text.suffix(2))) > 0)
        }
        let query = normalizer.normalize(text)
        let stored = table.answer(query, mode: mode, limit: 20, corpus: Fixtures.cities)
        #expect((stored != nil) == kept(text), "\(text) \(mode): \(total(text)) matches")
        if let stored {
          #expect(stored == Fixtures.citiesReference.search(query, mode: mode, limit: 20), "\(text) \(mode)")
          if stored.total <= ShortQueryAnswers.broadTotal && text.count >= 3 { narrow += 1 }
          if text.count > 3 { longer += 1 }
        } else {
          walked += 1
        }
      }
    }
    #expect(narrow >= 2, "the table holds queries of few matches")
    #expect(longer >= 4, "the table holds queries of four letters or more")
    #expect(walked >= 4, "some queries are walked")
    for text in ["xi'a", "北京"] {
      #expect(table.answer(normalizer.normalize(text), mode: .syllable, limit: 20, corpus: Fixtures.cities) == nil)
    }
  }

  /// Raw ICU reads 长沙 as zhang sha: without the overrides, chang sha is only an alternate
  /// reading (from the polyphone table), so 长沙 drops to reading class 1.
  @Test func rawICUDivergesWhereICUMisreads() throws {
    let corpus = Fixtures.cities
    let raw = try ICUCachedBackend(corpus: corpus, options: BackendOptions().setting(.icuRaw, to: true))
    let fixed = try ICUCachedBackend(corpus: corpus, options: BackendOptions())
    let changsha = try #require(corpus.index(of: 430100))
    #expect(fixed.search("changsha").hits.first { $0.index == changsha }?.match.readingClass == 0)
    #expect(raw.search("changsha").hits.first { $0.index == changsha }?.match.readingClass == 1)
    #expect(raw.search("zhangsha").hits.first?.id == 430100)
    #expect(fixed.overrideCount > 100)
    #expect(raw.overrideCount == 0)
  }
}

/// Backends are immutable after build and safe to query from many threads: stateless queries
/// in both modes, and typing sessions (each thread its own) over one shared backend. The test
/// counts calls in flight, so it shows that calls really overlapped rather than ran in turn.
@Suite(.timed) struct ConcurrencyTests {
  /// The calls in flight (the most there ever were at once), the calls made and the answers
  /// that differed from the serial ones.
  final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var now = 0
    private(set) var most = 0
    private(set) var calls = 0
    private(set) var differences: [String] = []

    func record(_ same: Bool, _ what: @autoclosure () -> String) {
      lock.lock()
      calls += 1
      if !same { differences.append(what()) }
      lock.unlock()
    }

    func around<T>(_ body: () -> T) -> T {
      lock.lock()
      now += 1
      most = max(most, now)
      lock.unlock()
      defer {
        lock.lock()
        now -= 1
        lock.unlock()
      }
      return body()
    }
  }

  static let threads = 4

  /// Runs `body(0..<count)` on `count` new threads at once and waits for all of them.
  static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    for k in 0..<count {
      Thread {
        start.wait()
        body(k)
        done.signal()
      }.start()
    }
    for _ in 0..<count { start.signal() }
    for _ in 0..<count { done.wait() }
  }

  @Test(arguments: ["linear", "trie", "inverted-index", "sqlite-fts5", "icu-cached", "icu"])
  func concurrentQueriesAndSessionsAgreeWithSerialOnes(name: String) throws {
    let type = try #require(BackendCatalog.backend(named: name))
    let backend = try type.init(corpus: Fixtures.cities, options: BackendOptions())
    // The uncached ICU backend transliterates every place per query (about a second in a debug
    // build): one query, and no typing (its session answers each keystroke afresh).
    let queries = name == "icu" ? ["b'j"] : ConformanceTests.queries + ["x", "重庆", "lv", "b'j"]
    let typed = name == "icu" ? [] : ["beijing", "xi'an", "chongqing", "guangzhou"]
    let sessionAnswers: @Sendable (String, MatchMode) -> [SearchResult] = { text, mode in
      var session = backend.makeSession(mode: mode, limit: 20)
      return (1...text.count).map { session.update(String(text.prefix($0))) }
    }
    let modes = MatchMode.allCases
    let serial = modes.map { mode in queries.map { backend.search($0, mode: mode, limit: 20) } }
    let serialSessions = modes.map { mode in typed.map { sessionAnswers($0, mode) } }

    let tally = Tally()
    // Threads of their own (not the shared pools, which other tests keep busy), started together.
    Self.onThreads(Self.threads) { thread in
      for (m, mode) in modes.enumerated() {
        // Each thread starts at another query, so threads do not move in step.
        for k in queries.indices {
          let i = (k + thread * 7) % queries.count
          let answer = tally.around { backend.search(queries[i], mode: mode, limit: 20) }
          tally.record(answer == serial[m][i], "\(mode) \(queries[i])")
        }
        for (t, text) in typed.enumerated() {
          let answers = tally.around { sessionAnswers(text, mode) }
          tally.record(answers == serialSessions[m][t], "\(mode) session \(text)")
        }
      }
    }
    #expect(tally.calls == Self.threads * modes.count * (queries.count + typed.count))
    #expect(tally.differences.isEmpty, "\(tally.differences.prefix(5))")
    #expect(tally.most >= 2, "calls never overlapped")
  }
}
