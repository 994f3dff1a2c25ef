import CitySearch
import CitySearchTestSupport
import Foundation
import Testing

/// The four property-list shapes of the seed apps (Tests/CitySearchTests/Fixtures/Seeds), and
/// the shapes the loader refuses.
@Suite(.timed) struct SeedPropertyListTests {
  static func load(_ name: String) throws -> Corpus {
    try CorpusLoader.load(
      path: Fixtures.fixturePath("Seeds/\(name)"), tables: Fixtures.tables, pinyinSource: CorpusLoaderTests.pinyin)
  }

  static func load(text: String, name: String = "p.plist") throws -> Corpus {
    try CorpusLoader.load(
      data: Data(text.utf8), name: name, tables: Fixtures.tables, pinyinSource: CorpusLoaderTests.pinyin)
  }

  /// `name@level<parent` for every place, in id order.
  static func outline(_ corpus: Corpus) -> [String] {
    (0..<corpus.count).map { i in
      let parent = corpus.parentIndex(at: i).map { "<\(corpus.name(at: $0))" } ?? ""
      return "\(corpus.name(at: i))@\(corpus.level(at: i).rawValue)\(parent)"
    }
  }

  static func titles(_ list: SectionedList, _ corpus: Corpus) -> [String] {
    list.sections.map { "\($0.title): " + $0.places.map(corpus.name(at:)).joined(separator: " ") }
  }

  @Test func groupBuyingSectionsAreHeadingsAndNeighboursAreAliases() throws {
    let corpus = try Self.load("GroupBuying-Cities.plist")
    #expect(
      Self.outline(corpus) == [
        "安庆@2", "迎江区@3<安庆", "大观区@3<安庆", "北京@2", "朝阳区@3<北京", "海淀区@3<北京", "保定@2", "竞秀区@3<保定",
        "长沙@2", "岳麓区@3<长沙", "重庆@2", "渝中区@3<重庆", "上海@2", "浦东新区@3<上海",
      ])
    #expect((0..<corpus.count).filter(corpus.isHot(at:)).map(corpus.name(at:)) == ["北京", "重庆", "上海"])
    #expect(corpus.fileSection(at: 0) == "A" && corpus.fileSection(at: 1) == nil)
    let list = SectionedList(corpus: corpus, places: corpus.rootIndices)
    #expect(
      Self.titles(list, corpus) == ["热门: 北京 重庆 上海", "A: 安庆", "B: 北京 保定", "C: 长沙 重庆", "S: 上海"])
    #expect(!(0..<corpus.count).contains { ["三里屯", "望京", "陆家嘴"].contains(corpus.name(at: $0)) })
    // A district's business areas are its aliases (MatchSpec §8), as written and as pinyin.
    let reference = LinearScanBackend(corpus: corpus)
    for (query, district) in [
      ("三里屯", "朝阳区"), ("三里", "朝阳区"), ("sanlitun", "朝阳区"), ("wangj", "朝阳区"), ("zhongguancun", "海淀区"),
      ("陆家嘴", "浦东新区"), ("jiefangbei", "渝中区"),
    ] {
      let first = reference.search(query, limit: 1).hits.first
      #expect(first.map { corpus.name(at: $0.index) } == district, "\(query)")
      #expect(first?.match.readingClass == 1, "\(query)")  // an alias match
    }
    let chaoyang = try #require(corpus.lookup("北京/朝阳区").first)
    #expect(corpus.aliasCount(at: chaoyang) == 6)  // 三里屯 sanlitun 望京 wangjing 国贸 guomao
    #expect(reference.search("slt", limit: 1).total == 0)  // an alias has no initials
  }

  @Test func provincePickerHasProvincesAndTheirCities() throws {
    let corpus = try Self.load("ProvincePicker-cities.plist")
    #expect(
      Self.outline(corpus) == [
        "北京@1", "北京@2<北京", "广东@1", "广州@2<广东", "深圳@2<广东", "佛山@2<广东", "湖南@1", "长沙@2<湖南", "株洲@2<湖南",
      ])
    #expect(corpus.place(at: 5).pinyin == ["fo", "shan"])
  }

  @Test func indexedTableIsAFlatListWithTheFilesSections() throws {
    let corpus = try Self.load("IndexedTable-sortednames.plist")
    #expect(Set((0..<corpus.count).map { corpus.level(at: $0) }) == [.prefecture])
    #expect(corpus.rootIndices.count == 10)
    let list = SectionedList(corpus: corpus, places: corpus.rootIndices)
    // The file's order within a section (北京 before 保定), not pinyin order.
    #expect(Self.titles(list, corpus) == ["A: 安庆 鞍山", "B: 北京 保定 包头", "C: 长沙 重庆 成都", "S: 上海 深圳"])
  }

  @Test func treeNavigationKeepsProvincesWhateverTheirCitiesAre() throws {
    let corpus = try Self.load("TreeNavigation-provinces_cities.plist")
    #expect(
      Self.outline(corpus) == ["北京市@1", "北京市@2<北京市", "广东省@1", "广州市@2<广东省", "佛山市@2<广东省", "湖南省@1", "长沙市@2<湖南省"])
  }

  @Test func aHotSectionMarksCitiesListedUnderTheirLetterToo() throws {
    let corpus = try Self.load(
      text: """
        <plist version="1.0"><dict>\
        <key>热门</key><array><string>北京</string><string>上海</string></array>\
        <key>B</key><array><string>北京</string><string>保定</string></array>\
        <key>S</key><array><string>上海</string></array></dict></plist>
        """)
    #expect(Self.outline(corpus) == ["北京@2", "上海@2", "保定@2"])
    let list = SectionedList(corpus: corpus, places: corpus.rootIndices)
    #expect(Self.titles(list, corpus) == ["热门: 北京 上海", "B: 北京 保定", "S: 上海"])
  }

  static let refused: [(String, String)] = [
    (
      "<array><dict><key>name</key><string>B</string><key>cities</key><string>北京</string></dict></array>",
      "p.plist: element 1: bad cities of section 'B' '北京': expected an array of cities"
    ),
    (
      "<array><dict><key>name</key><string>B</string><key>cities</key><array><dict><key>name</key>"
        + "<string>北京</string><key>districts</key><array><dict><key>name</key><string>朝阳区</string>"
        + "<key>neighbours</key><array><integer>3</integer></array></dict></array></dict></array></dict></array>",
      "p.plist: element 2: bad neighbours of '朝阳区' 'an array': expected an array of names"
    ),
    (
      "<array><dict><key>name</key><string>B</string><key>cities</key><array><dict><key>name</key>"
        + "<string>北京</string><key>hot</key><string>yes</string></dict></array></dict></array>",
      "p.plist: element 1: bad hot 'yes': expected a boolean, 0 or 1"
    ),
    (
      "<array><dict><key>name</key><string>B</string><key>cities</key><array/></dict><string>C</string></array>",
      "p.plist: element 1: bad section 2 'C': expected {name: a heading (A–Z, #, 热门), cities: [...]}"
    ),
    (
      "<array><dict><key>name</key><string>广东</string><key>cities</key><array><real>1.5</real></array></dict></array>",
      "p.plist: element 2: bad city in cities of '广东' '1.5': expected a name or {name, url}"
    ),
    (
      "<dict><key>A</key><array><string>安庆</string></array><key>广东</key><array/></dict>",
      "p.plist: unsupported corpus format: key 'A' is a section heading but '广东' is not: a file is either sections (A–Z) or provinces"
    ),
    (
      "<dict><key>广东</key><integer>7</integer></dict>",
      "p.plist: element 2: bad province '广东' '7': expected an array of cities or one city's name"
    ),
    (
      "<array><dict><key>name</key><string>北京</string><key>hot</key><true/></dict></array>",
      "p.plist: element 1: bad province 1 '北京': expected {name, cities: [names]}: it has no cities"
    ),
    (
      "<array><string>北京</string></array>",
      "p.plist: element 1: bad element '北京': expected sections {name: A–Z, cities: [...]} or provinces {name, cities: [names]}"
    ),
  ]

  @Test(arguments: refused)
  func refusedShapesNameTheElement(_ body: String, _ message: String) {
    let text = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"# + body + "</plist>"
    do {
      _ = try Self.load(text: text)
      Issue.record("loaded: \(body)")
    } catch {
      #expect("\(error)" == message)
    }
  }
}
