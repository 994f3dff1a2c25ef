import CitySearch
import CitySearchCorpus
import CitySearchTestSupport
import Foundation
import Testing

/// The shipped tiers: sizes, nesting, ids, the hot rule and the tables.
@Suite(.timed) struct CorpusTierTests {
  func levelCounts(_ corpus: Corpus) -> [Int] {
    var counts = [Int](repeating: 0, count: 6)
    for i in 0..<corpus.count { counts[Int(corpus.level(at: i).rawValue)] += 1 }
    return Array(counts.dropFirst())
  }

  @Test func citiesTier() {
    let corpus = Fixtures.cities
    #expect(levelCounts(corpus) == [33, 333, 2845, 0, 0])
    #expect(corpus.rootIndices.count == 33)
  }

  @Test func townsTier() {
    #expect(levelCounts(Fixtures.towns) == [33, 333, 2845, 38723, 0])
  }

  @Test func villagesTierLoadsAndNests() throws {
    let villages = try Fixtures.corpusDirectory.load(.villages)
    let counts = levelCounts(villages)
    #expect(Array(counts.prefix(4)) == [33, 333, 2845, 38723])
    #expect(counts[4] > 600_000)
    // Every village hangs under a township.
    for i in stride(from: 0, to: villages.count, by: 101) where villages.level(at: i) == .village {
      #expect(villages.level(at: villages.parentIndex(at: i)!) == .township)
    }
    #expect(namesThatDoNotFindThemselves(villages, every: 97).isEmpty)
    #expect(namesWithAFoldedCharacter(villages).isEmpty)
  }

  /// The names with a character that query normalization folds to another (MatchSpec §2.6): such
  /// a name could not be typed as itself. Cheap enough for every place of every tier.
  func namesWithAFoldedCharacter(_ corpus: Corpus) -> [String] {
    let folded = corpus.tables.simplified
    return (0..<corpus.count).filter { corpus.units(at: $0).contains { folded[$0] != nil } }.map(corpus.name(at:))
  }

  /// Of every `every`-th place, those whose own name, typed, is not their name after
  /// normalization or is not matched by the matcher as that run from the first unit (MatchSpec
  /// §2.6, 2.0: the fold damages no simplified name). A name with an opaque unit (`、`, `·`, which
  /// normalization drops and no run crosses, §1, §3.3) is typed up to that unit.
  func namesThatDoNotFindThemselves(_ corpus: Corpus, every: Int) -> [String] {
    let normalizer = QueryNormalizer(tables: corpus.tables)
    let matcher = PlaceMatcher(corpus: corpus)
    var failures: [String] = []
    for i in stride(from: 0, to: corpus.count, by: every) {
      let units = corpus.units(at: i)
      let typed = units.prefix { Hanzi.isHanzi($0) || Hanzi.isLatin($0) }
      let query = normalizer.normalize(String(String.UnicodeScalarView(typed.compactMap(Unicode.Scalar.init))))
      let typedAsItself = query.tokens.elementsEqual(typed)
      let match = matcher.match(query, mode: .syllable, at: i)
      let found = match?.start == 0 && (match?.end ?? 0) >= typed.count && match?.matchClass != 2
      if !typedAsItself || !found { failures.append(corpus.name(at: i)) }
    }
    return failures
  }

  @Test func everyCityAndTownFindsItselfByItsName() {
    #expect(namesThatDoNotFindThemselves(Fixtures.cities, every: 1).isEmpty)
    #expect(namesThatDoNotFindThemselves(Fixtures.towns, every: 3).isEmpty)
    #expect(namesWithAFoldedCharacter(Fixtures.towns).isEmpty)
  }

  /// Prominence and aliases (Corpus/prominence.tsv, aliases.tsv) reach the places they name, by
  /// id and name, and order places (MatchSpec §5.4, §8).
  @Test func placeFactsReachTheirPlaces() throws {
    let corpus = Fixtures.cities
    let foshan = try #require(corpus.index(of: 440600))
    let fushun = try #require(corpus.index(of: 210400))
    #expect(corpus.prominence(at: foshan) > corpus.prominence(at: fushun))
    #expect(corpus.rankOrdinal(at: foshan) < corpus.rankOrdinal(at: fushun))
    let shanghai = try #require(corpus.index(of: 310000))
    #expect((0..<corpus.aliasCount(at: shanghai)).map { Array(corpus.aliasTokens(at: shanghai, $0)) } == [[0x6CAA]])
    let hongKong = try #require(corpus.index(of: 810000))
    let spellings = (0..<corpus.aliasCount(at: hongKong)).map {
      String(String.UnicodeScalarView(corpus.aliasTokens(at: hongKong, $0).map { Unicode.Scalar($0)! }))
    }
    #expect(spellings.sorted() == ["hk", "hongkong", "港"])
    // The rank ordinals are a permutation of the places.
    #expect(Set((0..<corpus.count).map(corpus.rankOrdinal(at:))) == Set(0..<corpus.count))
    // Every township and village has no prominence and ranks after every known place.
    let towns = Fixtures.towns
    let firstTownship = try #require((0..<towns.count).first { towns.level(at: $0) == .township })
    #expect(towns.prominence(at: firstTownship) == 0)
    #expect(towns.rankOrdinal(at: firstTownship) >= Fixtures.cities.count)
  }

  /// Facts are keyed by id and name: a user's place that reuses an id gets none of them.
  @Test func placeFactsNeedTheNameToo() throws {
    let facts = PlaceFacts(entries: [310000: .init(name: "上海市", prominence: 9, aliases: ["沪"])])
    let tables = ReadingTables(polyphones: [:], simplified: [:], facts: facts)
    var builder = CorpusBuilder(source: "test", tables: tables)
    try builder.add(
      PlaceRecord(id: 310000, parentID: 0, level: 1, name: "别处", pinyin: ["bie", "chu"]),
      at: RecordLocation(file: "test", line: 1))
    let corpus = try builder.build()
    #expect(corpus.prominence(at: 0) == 0)
    #expect(corpus.aliasCount(at: 0) == 0)
    #expect(facts.entry(id: 310000, name: "上海市")?.prominence == 9)
  }

  @Test func placeFactErrorsNameTheFileAndLine() {
    func tables(prominence: String) throws -> ReadingTables {
      try ReadingTables(
        polyphones: Data("character\treadings\texample\n".utf8), polyphonesName: "p",
        traditional: Data("traditional\tsimplified\n".utf8), traditionalName: "t",
        prominence: (Data(prominence.utf8), "prominence.tsv"))
    }
    let header = "id\tname\tgeonameid\tgeonames_name\tpopulation\tprominence\n"
    #expect(throws: Never.self) { _ = try tables(prominence: header + "1\t甲\t\t\t\t5\n") }
    for (body, fragment) in [
      ("x\t甲\t\t\t\t5\n", "prominence.tsv:2: bad id 'x'"), ("1\t甲\t\t\t\t-5\n", "bad prominence '-5'"),
      ("1\t甲\t\t\t\t5\n1\t乙\t\t\t\t5\n", "prominence.tsv:3: bad name '乙'"),
    ] {
      do {
        _ = try tables(prominence: header + body)
        Issue.record("accepted \(body)")
      } catch {
        #expect("\(error)".contains(fragment), "\(error)")
      }
    }
  }

  /// Each tier's file is the previous tier's rows plus more: cities ⊂ towns ⊂ villages.
  @Test func tierFilesNest() throws {
    func lines(_ tier: CorpusTier) throws -> [Substring] {
      try String(contentsOfFile: Fixtures.corpusDirectory.file(tier.fileName), encoding: .utf8).split(separator: "\n")
    }
    let cities = try lines(.cities)
    let towns = try lines(.towns)
    #expect(Array(towns.prefix(cities.count)) == cities)
    let villagesPrefix = try String(
      contentsOfFile: Fixtures.corpusDirectory.file(CorpusTier.villages.fileName), encoding: .utf8
    )
    .split(separator: "\n", maxSplits: towns.count).prefix(towns.count)
    #expect(Array(villagesPrefix) == towns)
  }

  @Test func idsAreOfficialCodesAndParentsNest() {
    let corpus = Fixtures.towns
    let beijing = corpus.index(of: 110000)!
    #expect(corpus.name(at: beijing) == "北京市")
    let chaoyang = corpus.index(of: 110105)!
    #expect(corpus.pathNames(to: chaoyang) == ["北京市", "朝阳区"])
    for i in 0..<corpus.count {
      if let p = corpus.parentIndex(at: i) { #expect(corpus.level(at: p) < corpus.level(at: i)) }
    }
  }

  @Test func hotPlacesFollowTheDocumentedRule() {
    let corpus = Fixtures.cities
    let hot = Set((0..<corpus.count).filter(corpus.isHot(at:)).map(corpus.name(at:)))
    #expect(hot.count == 38)  // 4 municipalities + 2 SARs + 27 capitals + 5 sub-provincial cities
    for name in ["北京市", "上海市", "重庆市", "香港特别行政区", "广州市", "深圳市", "厦门市", "哈尔滨市", "拉萨市"] {
      #expect(hot.contains(name), "\(name)")
    }
    #expect(!hot.contains("苏州市"))
  }

  @Test func shortNamesComeFromTheDataOrTheRule() {
    let corpus = Fixtures.cities
    func short(_ name: String) -> String { corpus.place(at: Fixtures.index(of: name)).shortName }
    #expect(short("新疆维吾尔自治区") == "新疆")
    #expect(short("内蒙古自治区") == "内蒙古")
    #expect(short("延边朝鲜族自治州") == "延边")
    #expect(short("单县") == "单县")
    #expect(short("北京市") == "北京")
  }

  @Test func tablesAreLoaded() {
    let tables = Fixtures.tables
    #expect(tables.simplified[("廣" as Unicode.Scalar).value] == ("广" as Unicode.Scalar).value)
    #expect(tables.polyphones["长"] == ["chang", "zhang"])
    #expect(tables.polyphones.count >= 40)
  }
}

/// MatchSpec §5.1 and §7 as pure functions.
@Suite(.timed) struct ShortNameAndAlternatesTests {
  @Test(arguments: [
    ("北京市", "北京"), ("单县", "单县"), ("延边朝鲜族自治州", "延边"), ("巴里坤哈萨克自治县", "巴里坤"),
    ("龙胜各族自治县", "龙胜"), ("大通回族土族自治县", "大通"), ("香港特别行政区", "香港"), ("和田地区", "和田"),
    ("塘坪畲族乡", "塘坪"), ("东华门街道", "东华门"), ("城区", "城区"), ("县", "县"), ("回族乡", "回族"),
  ])
  func suffixRule(_ name: String, _ short: String) {
    #expect(String(name.unicodeScalars.prefix(ShortName.length(of: name)).map(Character.init)) == short)
  }

  @Test func alternatesEnumerateBySubsetSizeAndStopAtEight() {
    let tables = Fixtures.tables
    let units = Array("长乐重行".unicodeScalars)
    let canonical = ["chang", "le", "chong", "xing"]
    let alternates = tables.alternates(units: units, canonical: canonical)
    #expect(alternates.count == ReadingTables.maximumAlternates)
    #expect(alternates[0] == ["zhang", "le", "chong", "xing"])
    #expect(alternates[1] == ["chang", "yue", "chong", "xing"])
    #expect(alternates[2] == ["chang", "lao", "chong", "xing"])
    #expect(alternates[3] == ["chang", "le", "zhong", "xing"])
    #expect(alternates[4] == ["chang", "le", "chong", "hang"])
    #expect(alternates[5] == ["zhang", "yue", "chong", "xing"])
    #expect(tables.alternates(units: Array("北京".unicodeScalars), canonical: ["bei", "jing"]).isEmpty)
  }
}

/// The browse lists of MatchSpec §10.
@Suite(.timed) struct SectionedListTests {
  @Test func heilongjiangPrefectures() {
    let corpus = Fixtures.cities
    let province = corpus.lookup("黑龙江省")
    #expect(province.count == 1)
    let list = SectionedList(corpus: corpus, places: corpus.children(of: province[0]))
    #expect(list.sections.first?.title == "热门")
    #expect(list.sections.first?.places.map(corpus.name(at:)) == ["哈尔滨市"])
    let titles = list.sections.map(\.title)
    #expect(titles == ["热门", "D", "H", "J", "M", "Q", "S", "Y"])
    let h = list.sections.first { $0.title == "H" }!.places.map(corpus.name(at:))
    #expect(h == ["哈尔滨市", "鹤岗市", "黑河市"])  // ha er bin < he gang < hei he
  }

  @Test func filterDropsEmptySections() {
    let corpus = Fixtures.cities
    let list = SectionedList(corpus: corpus, places: corpus.rootIndices)
    let matches = Set(Fixtures.citiesReference.search("shan", limit: corpus.count).hits.map(\.index))
    let filtered = list.filtered(keeping: matches)
    #expect(filtered.sections.map(\.title) == ["热门", "S"])
    #expect(filtered.sections[0].places.map(corpus.name(at:)) == ["上海市"])
    // 山西 and 陕西 both read shan xi sheng: id decides.
    #expect(filtered.sections[1].places.map(corpus.name(at:)) == ["山东省", "山西省", "陕西省", "上海市"])
  }

  @Test func lookupAcceptsIdsShortNamesAndPaths() {
    let corpus = Fixtures.cities
    #expect(corpus.lookup("110105").map(corpus.name(at:)) == ["朝阳区"])
    #expect(corpus.lookup("朝阳区").count == 2)
    #expect(corpus.lookup("吉林省/长春市/朝阳区").map(corpus.id(at:)) == [220104])
    #expect(corpus.lookup("黑龙江").map(corpus.name(at:)) == ["黑龙江省"])
    #expect(corpus.lookup("no such place").isEmpty)
  }
}

/// The `cities` tier compiled into the binary is the file's, place for place.
@Suite(.timed) struct EmbeddedCorpusTests {
  @Test func embeddedCitiesEqualTheFile() throws {
    let embedded = try EmbeddedCorpus.cities()
    let file = Fixtures.cities
    #expect(embedded.count == file.count)
    for index in 0..<file.count {
      #expect(embedded.place(at: index) == file.place(at: index))
      #expect(embedded.alternateCount(at: index) == file.alternateCount(at: index))
    }
    let tables = try EmbeddedCorpus.tables()
    #expect(tables.polyphones == Fixtures.tables.polyphones)
    #expect(tables.simplified == Fixtures.tables.simplified)
  }

  @Test func malformedTablesAreReported() {
    #expect(throws: CorpusError.missingColumn(RecordLocation(file: "t.tsv", line: 2), column: "simplified")) {
      _ = try ReadingTables(
        polyphones: Data("character\treadings\texample\n".utf8), polyphonesName: "p.tsv",
        traditional: Data("traditional\tsimplified\n廣\n".utf8), traditionalName: "t.tsv")
    }
    #expect(throws: CorpusError.badHeader(file: "p.tsv", expected: "character\treadings\texample", found: "x")) {
      _ = try ReadingTables(
        polyphones: Data("x\n".utf8), polyphonesName: "p.tsv",
        traditional: Data("traditional\tsimplified\n".utf8), traditionalName: "t.tsv")
    }
  }
}
