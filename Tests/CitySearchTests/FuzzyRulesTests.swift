import CitySearch
import CitySearchCatalog
import CitySearchEngine
import CitySearchICU
import CitySearchTestSupport
import Testing

/// Fuzzy pinyin (MatchSpec §3.5): the rules and their names, the spellings they give a
/// syllable, the reference's answers, and every backend agreeing with it under each rule alone
/// and under all of them.
@Suite(.timed) struct FuzzyRulesTests {
  @Test func rulesReadTheirNamesEitherWayRoundAndNameWhatTheyCannotRead() throws {
    #expect(try FuzzyRules(parsing: "zh-z,n-l") == [.zhZ, .nL])
    #expect(try FuzzyRules(parsing: "z-zh, l-n") == [.zhZ, .nL])
    #expect(try FuzzyRules(parsing: "all") == .all && FuzzyRules.all.description == "all")
    #expect(try FuzzyRules(parsing: "none").isEmpty && FuzzyRules().description == "none")
    #expect(FuzzyRules.named.count == 12 && FuzzyRules.named.allSatisfy { FuzzyRules.all.contains($0.rule) })
    let some: FuzzyRules = [.anAng, .uV, .fH]
    #expect(some.description == "an-ang,f-h,u-v")
    #expect(try FuzzyRules(parsing: some.description) == some)
    #expect(throws: FuzzyRulesError.unknownRule("zh-j")) { try FuzzyRules(parsing: "zh-z,zh-j") }
    #expect("\(FuzzyRulesError.unknownRule("x"))".contains("n-l"))
  }

  /// The spellings of §3.5: one initial rule, one final rule, or both; finals as written.
  @Test func aSyllableGetsTheSpellingsOfEachRuleAndOfOneOfEachKind() {
    func spellings(_ syllable: String) -> [String: FuzzyRules] {
      Dictionary(
        uniqueKeysWithValues: MatchRules.fuzzySpellings(of: Array(syllable.utf8)).map {
          (String(decoding: $0.spelling, as: UTF8.self), $0.rules)
        })
    }
    #expect(spellings("zhong") == ["zong": .zhZ])
    #expect(
      spellings("lan") == ["nan": .nL, "ran": .rL, "lang": .anAng, "nang": [.nL, .anAng], "rang": [.rL, .anAng]])
    #expect(spellings("shen") == ["sen": .shS, "sheng": .enEng, "seng": [.shS, .enEng]])
    #expect(spellings("xiang") == ["xian": .ianIang])
    #expect(spellings("huan")["fuan"] == .fH && spellings("huan")["huang"] == .uanUang)
    #expect(spellings("lv") == ["lu": .uV, "nv": .nL, "rv": .rL, "nu": [.nL, .uV], "ru": [.rL, .uV]])
    #expect(spellings("yan") == ["yang": .anAng])  // the final as written
    #expect(spellings("er").isEmpty && spellings("a").isEmpty && spellings("ju").isEmpty)
    #expect(MatchRules.fuzzyFirstLetters(typedAs: UInt8(ascii: "l"), rules: .all) == 1 << 11 | 1 << 13 | 1 << 17)
    #expect(MatchRules.fuzzyFirstLetters(typedAs: UInt8(ascii: "z"), rules: .all) == 1 << 25)
  }

  static let reference = Fixtures.citiesReference

  static func top(_ query: String, _ rules: FuzzyRules, mode: MatchMode = .syllable) -> SearchHit? {
    reference.search(query, mode: mode, limit: 5, fuzzy: rules).hits.first
  }

  static func name(_ hit: SearchHit?) -> String? { hit.map { Fixtures.cities.name(at: $0.index) } }

  /// The typos of the issue that found nothing, each found through its rule, with fuzzy class 1.
  @Test func aRuleFindsWhatItsTypistMeans() throws {
    let cases: [(String, FuzzyRules, String)] = [
      ("zongqing", .zhZ, "重庆市"), ("lanzou", .zhZ, "兰州市"), ("hangzou", .zhZ, "杭州市"), ("shenzen", .zhZ, "深圳市"),
      ("lanjing", .nL, "南京市"), ("sanghai", .shS, "上海市"), ("cengdu", [.chC, .enEng], "成都市"),
      ("fangzhou", .fH, "杭州市"), ("lanzhou", [], "兰州市"), ("pindingshan", .inIng, "平顶山市"),
    ]
    for (query, rules, expected) in cases {
      let hits = Self.reference.search(query, limit: 5, fuzzy: rules).hits
      let hit = try #require(hits.first { Fixtures.cities.name(at: $0.index) == expected }, "\(query) \(rules)")
      #expect(hit.match.fuzzyClass == (rules.isEmpty ? 0 : 1), "\(query)")
      if !rules.isEmpty { #expect(Self.reference.search(query, limit: 5).hits.allSatisfy { $0.index != hit.index }) }
    }
    // Only its own rule: zh-z does not make n l.
    #expect(Self.top("lanjing", .zhZ).map(Self.name) == nil || Self.name(Self.top("lanjing", .zhZ)) != "南京市")
  }

  /// Any match that needs no rule ranks first, whatever the prominence; seed mode ignores rules.
  @Test func aMatchWithoutARuleRanksBeforeEveryFuzzyMatch() {
    let hits = Self.reference.search("cengdu", limit: 50, fuzzy: .all).hits
    let firstFuzzy = hits.firstIndex { $0.match.fuzzyClass == 1 } ?? hits.count
    #expect(firstFuzzy > 0 && hits[firstFuzzy...].allSatisfy { $0.match.fuzzyClass == 1 })
    #expect(Self.name(hits.first) == "曾都区")  // cengdu as typed, before 成都
    let plain = Self.reference.search("bj", limit: 20)
    let fuzzy = Self.reference.search("bj", limit: 20, fuzzy: .all)
    #expect(fuzzy.hits.prefix(plain.hits.count).map(\.index) == plain.hits.map(\.index))
    let seed = Self.reference.search("zongqing", mode: .seed, limit: 5, fuzzy: .all)
    #expect(seed.total == Self.reference.search("zongqing", mode: .seed, limit: 5).total)
    #expect(Self.reference.search("lanzou", mode: .seed, limit: 5, fuzzy: .all).total == 0)
  }

  /// Under each rule alone and under all of them, stateless and typed keystroke by keystroke.
  static let queries = [
    "zongqing", "lanzou", "hangzou", "shenzen", "lanjing", "sanghai", "cengdu", "fong", "huzou", "lvliang", "lu",
    "nan", "zh", "l", "z", "xiam", "guanzou", "beijin", "ci", "wulumuqi", "zhen", "hn", "changcun", "北京", "nan京",
  ]

  @Test(arguments: BackendCatalog.all.map { $0.name }.filter { $0 != "linear" })
  func everyBackendConformsUnderEachRuleAndAll(name: String) throws {
    let type = try #require(BackendCatalog.backend(named: name))
    func run<B: SearchBackend>(_ type: B.Type) throws {
      let backend = try B(corpus: Fixtures.cities, options: BackendOptions())
      // The uncached ICU backend transliterates every place per query: a few of each.
      let slow = type == ICUBackend.self
      for rules in [FuzzyRules.all] + FuzzyRules.named.map(\.rule) {
        let checker = ConformanceChecker(backend, reference: Self.reference, fuzzy: rules)
        for query in slow ? Array(Self.queries.prefix(rules == .all ? 3 : 1)) : Self.queries {
          checker.check(query, mode: .syllable)
          if rules == .all && !slow {
            checker.checkTyping(query, mode: .syllable)
            checker.check(query, mode: .seed)
          }
        }
      }
    }
    try run(type)
  }

  /// With `fuzzy-answers` the broadest queries read with every rule come from a table, and
  /// with `fuzzy-lists` the inverted index's candidates from lists of their own: the same
  /// answers, stateless and typed; a query of other rules is walked as before.
  @Test(arguments: [
    ("trie", BackendOption<Bool>.fuzzyAnswers), ("inverted-index", .fuzzyAnswers), ("inverted-index", .fuzzyLists),
  ])
  func precomputedFuzzyAnswersAndListsGiveTheSameAnswers(name: String, option: BackendOption<Bool>) throws {
    let type = try #require(BackendCatalog.backend(named: name))
    func run<B: SearchBackend>(_ type: B.Type) throws {
      let backend = try B(corpus: Fixtures.cities, options: BackendOptions().setting(option, to: true))
      for rules in [FuzzyRules.all, [.nL, .zhZ]] {
        let checker = ConformanceChecker(backend, reference: Self.reference, fuzzy: rules)
        for query in Self.queries + ["s", "x", "zh", "xi", "xia", "xian", "shan", "l", "n", "f", "h", "cs"] {
          checker.check(query, mode: .syllable)
          checker.check(query, mode: .seed)
          checker.checkTyping(query, mode: .syllable)
        }
      }
    }
    try run(type)
  }
}
