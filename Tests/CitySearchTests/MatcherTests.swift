import CitySearch
import CitySearchBackends
import Testing

/// The shared matcher against hand-worked examples, and the properties MatchSpec promises.
@Suite struct MatcherTests {
  let corpus = Fixtures.cities
  let matcher = PlaceMatcher(corpus: Fixtures.cities)
  let normalizer = QueryNormalizer(tables: Fixtures.tables)

  func match(_ query: String, _ name: String, mode: MatchMode = .syllable) -> Match? {
    matcher.match(normalizer.normalize(query), mode: mode, at: Fixtures.index(of: name))
  }

  @Test func syllableExamplesFromTheSpec() {
    // §3: bj, beij, bjing, beijing, bei京 match 北京; bejing and eijing do not.
    for q in ["bj", "beij", "bjing", "beijing", "bei京"] {
      #expect(match(q, "北京市") == Match(start: 0, end: 2, matchClass: 0, readingClass: 0), "\(q)")
    }
    #expect(match("bejing", "北京市") == nil)
    #expect(match("eijing", "北京市") == nil)
    #expect(match("xian", "西安市") != nil)
    #expect(match("xi'an", "西安市") != nil)
    #expect(match("xi'an", "献县") == nil)
    #expect(match("xian", "献县") == Match(start: 0, end: 1, matchClass: 1, readingClass: 0))  // 献 xian
    #expect(match("xian", "邯郸市") == nil)
  }

  @Test func wholeShortNameIsClassZeroWholeNameToo() {
    #expect(match("beijing", "北京市")?.matchClass == 0)
    #expect(match("beijingshi", "北京市") == Match(start: 0, end: 3, matchClass: 0, readingClass: 0))
    #expect(match("bei", "北京市") == Match(start: 0, end: 1, matchClass: 1, readingClass: 0))
    #expect(match("jing", "北京市") == Match(start: 1, end: 2, matchClass: 2, readingClass: 0))
  }

  @Test func alternateReadingsRankBelowCanonical() {
    #expect(match("zhongqing", "重庆市") == Match(start: 0, end: 2, matchClass: 0, readingClass: 1))
    #expect(match("chongqing", "重庆市")?.readingClass == 0)
    #expect(match("liuan", "六安市")?.readingClass == 1)
    #expect(match("luan", "六安市")?.readingClass == 0)
    // A Hanzi piece never needs a reading.
    #expect(match("重庆", "重庆市")?.readingClass == 0)
  }

  @Test func seedExamplesFromTheSpec() {
    #expect(match("eijing", "北京市", mode: .seed) == Match(start: 0, end: 2, matchClass: 2, readingClass: 0))
    #expect(match("bjs", "北京市", mode: .seed)?.matchClass == 0)
    #expect(match("beijing", "北京市", mode: .seed)?.matchClass == 0)
    #expect(match("beij", "北京市", mode: .seed) == Match(start: 0, end: 2, matchClass: 1, readingClass: 0))
    #expect(match("zhongqing", "重庆市", mode: .seed) == nil)
  }

  /// MatchSpec §6: every prefix of a matching query matches too, so typing only narrows.
  @Test(arguments: MatchMode.allCases)
  func extendingAQueryOnlyShrinksTheMatches(mode: MatchMode) {
    let backend = Fixtures.citiesReference
    let samples = stride(from: 0, to: corpus.count, by: 97).map { corpus.place(at: $0) }
    for place in samples {
      let typed = place.pinyin.joined()
      var previous: Set<PlaceID>?
      for length in 1...typed.count {
        let result = backend.search(String(typed.prefix(length)), mode: mode, limit: corpus.count)
        let ids = Set(result.hits.map(\.id))
        #expect(ids.contains(place.id), "\(typed.prefix(length)) should find \(place.name)")
        if let previous { #expect(ids.isSubset(of: previous), "\(typed.prefix(length)) widened the matches") }
        previous = ids
      }
    }
  }

  @Test func veryLongQueriesAnswerWithoutMatching() {
    let backend = Fixtures.citiesReference
    for query in [
      String(repeating: "a", count: 10_000), String(repeating: "北", count: 10_000),
      String(repeating: "bj'", count: 4_000),
    ] {
      for mode in MatchMode.allCases {
        #expect(backend.search(query, mode: mode, limit: 20).total == 0)
      }
    }
  }

  @Test func everyPlaceFindsItselfByNameAndPinyin() {
    let backend = Fixtures.citiesReference
    for index in stride(from: 0, to: corpus.count, by: 13) {
      let place = corpus.place(at: index)
      for query in [place.name, place.pinyin.joined(), place.pinyin.map { String($0.first!) }.joined()] {
        let result = backend.search(query, mode: .syllable, limit: corpus.count)
        let hit = result.hits.first { $0.id == place.id }
        #expect(hit?.match.matchClass == 0, "\(query) → \(place.name)")
      }
    }
  }
}
