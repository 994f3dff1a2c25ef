import CitySearch
import CitySearchBackends
import CitySearchTestSupport
import Testing

/// The shared matcher against hand-worked examples, and the properties MatchSpec promises.
@Suite(.timed) struct MatcherTests {
  let corpus = Fixtures.cities
  let matcher = PlaceMatcher(corpus: Fixtures.cities)
  let normalizer = QueryNormalizer(tables: Fixtures.tables)

  func match(_ query: String, _ name: String, mode: MatchMode = .syllable) -> Match? {
    matcher.match(normalizer.normalize(query), mode: mode, at: Fixtures.index(of: name))
  }

  @Test func syllableExamplesFromTheSpec() {
    // §3: bj, beij, bjing, beijing, bei京 match 北京; bejing and eijing do not.
    // §5.2: only `beijing` and `bei京` are whole syllables (spelling class 0).
    for q in ["bj", "beij", "bjing", "beijing", "bei京"] {
      let spelling = q == "beijing" || q == "bei京" ? 0 : 1
      #expect(
        match(q, "北京市") == Match(start: 0, end: 2, matchClass: 0, readingClass: 0, spellingClass: spelling), "\(q)")
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

/// Contract 2.0's new rules in the matcher: aliases (§8), ü typed as `u` (§7), short names (§5.1).
@Suite(.timed) struct ContractTwoMatcherTests {
  let corpus = Fixtures.cities
  var matcher: PlaceMatcher { PlaceMatcher(corpus: corpus) }

  func match(_ query: String, _ id: PlaceID, mode: MatchMode = .syllable) -> Match? {
    matcher.match(QueryNormalizer(tables: corpus.tables).normalize(query), mode: mode, at: corpus.index(of: id)!)
  }

  @Test func aliasesMatchAsPrefixesWithReadingClassOneAndTheWholeName() {
    #expect(match("沪", 310000) == Match(start: 0, end: 3, matchClass: 0, readingClass: 1))
    #expect(match("harb", 230100) == Match(start: 0, end: 4, matchClass: 1, readingClass: 1, spellingClass: 1))
    #expect(match("hong kong", 810000)?.matchClass == 0)
    #expect(match("hong'kong", 810000)?.matchClass == 0)
    #expect(match("kong", 810000) == nil)  // not a prefix of the alias
    #expect(match("pekingx", 110000) == nil)
    #expect(match("peking", 110000, mode: .seed) == nil)  // no aliases in seed mode
    // A name match that is better than the alias's wins; 新 is a whole alias (class 0) of 新疆.
    #expect(match("beijing", 110000) == Match(start: 0, end: 2, matchClass: 0, readingClass: 0))
    #expect(match("新", 650000) == Match(start: 0, end: 8, matchClass: 0, readingClass: 1))
  }

  /// §5.2 The spelling class: whole syllables (0) before initials and last prefixes (1).
  @Test func spellingClassReadsWholeSyllablesFirst() {
    #expect(match("nan", 320100)?.spellingClass == 0)  // 南京: nan, a whole syllable (class 1)
    #expect(match("nan", 220122)?.spellingClass == 1)  // 农安: n + an, the whole short name
    #expect(match("nan", 220122)?.matchClass == 0)
    // 上杭 reads shang hang: `shang` as its first syllable (spelling 0) beats s + hang.
    #expect(match("shang", 350823) == Match(start: 0, end: 1, matchClass: 1, readingClass: 0, spellingClass: 0))
    #expect(match("xian", 610100)?.spellingClass == 0)  // 西安: xi + an
    #expect(match("xia", 610100)?.spellingClass == 1)  // xi + a, a prefix
    #expect(match("beijing", 110000, mode: .seed)?.spellingClass == 0)
  }

  @Test func uSpellingOfUmlautIsAnAlternateReading() {
    #expect(match("luliang", 141100) == Match(start: 0, end: 2, matchClass: 0, readingClass: 1))
    #expect(match("lvliang", 141100) == Match(start: 0, end: 2, matchClass: 0, readingClass: 0))
    #expect(match("luliang", 530322)?.readingClass == 0)  // 陆良 reads lu liang
    #expect(ReadingTables.uSpelling(of: "lv") == "lu")
    #expect(ReadingTables.uSpelling(of: "nve") == "nue")
    #expect(ReadingTables.uSpelling(of: "lu") == nil)
    #expect(ReadingTables.uSpelling(of: "xv") == nil)
  }

  @Test(arguments: [
    ("浦东新区", 2), ("两江新区", 2), ("清新区", 3), ("鄂温克族自治旗", 3), ("鄂伦春自治旗", 3), ("巴彦塔拉苏木", 4),
    ("卜尔汉图嘎查", 4), ("三岔口嘎查村", 3), ("新区", 2), ("单县", 2), ("延边朝鲜族自治州", 2),
  ])
  func shortNames(_ name: String, _ length: Int) {
    #expect(ShortName.length(of: name) == length)
  }
}
