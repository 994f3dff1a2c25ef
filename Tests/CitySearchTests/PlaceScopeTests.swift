import CitySearch
import CitySearchCatalog
import CitySearchICU
import CitySearchTestSupport
import Testing

/// Scoped search (MatchSpec §9): what a scope holds, the reference's scoped answer as the
/// unscoped answer with the places out of scope left out, and every backend agreeing with it.
@Suite(.timed) struct PlaceScopeTests {
  static var corpus: Corpus { Fixtures.cities }
  static func place(_ path: String) -> Int { corpus.lookup(path)[0] }

  /// The scopes every backend is checked under: a city picker, one level, a subtree, and all
  /// three conditions at once.
  static let scopes: [PlaceScope] = [
    PlaceScope(corpus: corpus, citiesOnly: true),
    PlaceScope(corpus: corpus, levels: [.county]),
    PlaceScope(corpus: corpus, under: place("广东省")),
    PlaceScope(corpus: corpus, citiesOnly: true, levels: [.prefecture], under: place("四川省")),
  ]

  @Test func aScopeHoldsThePlacesThatPassEveryCondition() {
    let corpus = Self.corpus
    let cities = PlaceScope(corpus: corpus, citiesOnly: true)
    #expect((0..<corpus.count).filter(cities.contains) == corpus.cityIndices)
    #expect(cities.placeCount == corpus.cityIndices.count && cities.description == "cities")

    let provinces = PlaceScope(corpus: corpus, levels: [.province])
    #expect((0..<corpus.count).filter(provinces.contains) == corpus.rootIndices)
    #expect(provinces.description == "level 1")

    let guangdong = Self.place("广东省")
    let under = PlaceScope(corpus: corpus, under: guangdong)
    let inside = (0..<corpus.count).filter(under.contains)
    #expect(!under.contains(guangdong))  // descendants only
    #expect(inside.count > 100 && inside.allSatisfy { corpus.path(to: $0).first == guangdong })
    #expect(
      inside.count == (0..<corpus.count).filter { $0 != guangdong && corpus.path(to: $0).first == guangdong }.count)

    let both = PlaceScope(corpus: corpus, citiesOnly: true, levels: [.prefecture, .county], under: guangdong)
    #expect(both.placeCount == 21)  // 广东's 21 prefecture-level cities
    #expect(both.description == "cities, levels 2,3, under 广东省")

    #expect(PlaceScope(corpus: corpus, levels: []).placeCount == 0)
    #expect(PlaceScope(corpus: corpus) == .everything && PlaceScope.everything.isEverything)
    #expect((0..<corpus.count).allSatisfy(PlaceScope.everything.contains))
    #expect(cities.admits(corpus) && PlaceScope.everything.admits(Fixtures.latinDigits))
    #expect(!cities.admits(Fixtures.latinDigits))
  }

  @Test func aRequestReadsItsConditionsAndNamesWhatItCannotRead() throws {
    let request = try PlaceScope.Request(parsing: "cities;level=2-3,5;under=四川省")
    #expect(request.citiesOnly && request.levels == [.prefecture, .county, .village] && request.under == "四川省")
    #expect(request.description == "cities;level=2,3,5;under=四川省")
    #expect(try PlaceScope.Request(parsing: request.description) == request)
    #expect(try PlaceScope.Request(parsing: "-").isEverything)
    #expect(throws: ScopeError.badCondition("town")) { try PlaceScope.Request(parsing: "town") }
    #expect(throws: ScopeError.badCondition("under=")) { try PlaceScope.Request(parsing: "under=") }
    #expect(throws: ScopeError.badLevels("3-2")) { try PlaceScope.Request(parsing: "level=3-2") }
    #expect(throws: ScopeError.badLevels("6")) { try PlaceScope.Request.levels(parsing: "6") }
    #expect(throws: ScopeError.badLevels("2,")) { try PlaceScope.Request.levels(parsing: "2,") }

    let scope = try request.resolve(in: Self.corpus)
    #expect(scope.placeCount == 21 && scope.description == "cities, levels 2,3,5, under 四川省")
    #expect(throws: ScopeError.noPlace("火星")) { try PlaceScope.Request(under: "火星").resolve(in: Self.corpus) }
    #expect(throws: ScopeError.self) { try PlaceScope.Request(under: "朝阳区").resolve(in: Self.corpus) }
    #expect(try PlaceScope.Request(under: "北京市/朝阳区").resolve(in: Self.corpus).placeCount == 0)
  }

  /// The definition: the unscoped, unlimited answer with the places out of scope left out, then
  /// cut at the limit; the total counts what is left.
  @Test func theReferenceAnswersTheUnscopedAnswerLessThePlacesOutOfScope() {
    let reference = Fixtures.citiesReference
    for scope in Self.scopes + [PlaceScope(corpus: Self.corpus, levels: [.province])] {
      for query in ConformanceTests.queries + ["shi", "xian", "qu", "gz", "nh", "z"] {
        for mode in MatchMode.allCases {
          let all = reference.search(query, mode: mode, limit: Int.max)
          let kept = all.hits.filter { scope.contains($0.index) }
          let scoped = reference.search(query, mode: mode, limit: 20, scope: scope)
          #expect(scoped.total == kept.count, "\(query) \(mode) \(scope)")
          #expect(scoped.hits == Array(kept.prefix(20)), "\(query) \(mode) \(scope)")
        }
      }
    }
  }

  @Test func aCityPickerNoLongerOffersProvinces() {
    let cities = PlaceScope(corpus: Self.corpus, citiesOnly: true)
    let reference = Fixtures.citiesReference
    #expect(reference.search("heb", limit: 1).hits.map(\.id) == [130000])  // 河北省
    #expect(reference.search("heb", limit: 1, scope: cities).hits.map(\.id) == [230100])  // 哈尔滨市
    #expect(reference.search("xz", limit: 1).hits.map(\.id) == [540000])  // 西藏
    #expect(reference.search("xz", limit: 1, scope: cities).hits.map(\.id) == [320300])  // 徐州市
  }

  /// Every backend, stateless and typed keystroke by keystroke (with backspaces), under each
  /// scope; the uncached ICU backend answers a few queries.
  @Test(arguments: BackendCatalog.all.map { $0.name })
  func everyBackendAnswersScopedQueriesAsTheReferenceDoes(name: String) throws {
    let type = try #require(BackendCatalog.backend(named: name))
    func run<B: SearchBackend>(_ type: B.Type) throws {
      let backend = try B(corpus: Self.corpus, options: BackendOptions())
      let queries = type == ICUBackend.self ? ["gz", "广"] : ConformanceTests.queries + ["shi", "xian", "nh", "z"]
      for scope in Self.scopes {
        let checker = ConformanceChecker(backend, reference: Fixtures.citiesReference, scope: scope)
        for query in queries {
          for mode in MatchMode.allCases {
            checker.check(query, mode: mode)
            checker.checkTyping(query, mode: mode)
          }
        }
      }
    }
    try run(type)
  }
}
