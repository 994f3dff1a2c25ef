import CitySearch
import CitySearchCatalog
import CitySearchTestSupport
import Foundation
import Testing

/// A list of the user's own: Traditional names found by their own Hanzi, and places joined to
/// the facts (prominence, aliases) of the tier they are named like.
@Suite(.timed) struct ImportedListTests {
  static let header = "id\tparent\tlevel\tname\tpinyin\tshort\thot\n"
  static let readings = KnownNamesPinyin(corpus: Fixtures.cities)

  /// A picker's list of cities without ids of the tiers, a Traditional name among them.
  static let list = try! Fixtures.corpus(
    tsv: header
      + [
        "1\t0\t1\t江西\t\t\t0", "2\t1\t2\t赣州\t\t\t0", "3\t0\t1\t辽宁\t\t\t0", "4\t3\t2\t抚顺\t\t\t0",
        "5\t3\t2\t朝阳\t\t\t0", "6\t0\t1\t廣東\t\t\t0", "7\t6\t2\t廣州\t\t\t0", "8\t6\t2\t佛山\t\t\t0",
        "9\t0\t2\t上海\t\t\t0", "10\t0\t2\t臺北\ttai bei\t\t0", "11\t0\t3\t通州\t\t\t0",
      ].joined(separator: "\n") + "\n", pinyin: readings)

  @Test func traditionalNamesAreFoundByTheirOwnHanziAndKeptAsWritten() throws {
    let reference = LinearScanBackend(corpus: Self.list)
    let taibei = try #require(Self.list.lookup("臺北").first)
    #expect(Self.list.name(at: taibei) == "臺北")
    for query in ["臺北", "台北", "臺", "tb"] {
      #expect(reference.search(query, limit: 1).hits.map(\.index) == [taibei], "\(query)")
    }
    #expect(reference.search("臺", mode: .seed, limit: 1).hits.map(\.index) == [taibei])
    let guangzhou = try #require(Self.list.lookup("廣州").first)
    #expect(Self.list.pinyin(at: guangzhou) == ["guang", "zhou"])  // read as 广州, from the tier
    #expect(reference.search("广州", limit: 1).hits.map(\.index) == [guangzhou])
    // Every backend answers the folded names as the reference does.
    for type in BackendCatalog.all {
      func check<B: SearchBackend>(_ type: B.Type) throws {
        let checker = ConformanceChecker(try B(corpus: Self.list, options: BackendOptions()), reference: reference)
        for query in ["臺北", "台", "廣", "广州", "gz", "tb", "州"] {
          for mode in MatchMode.allCases { checker.checkTyping(query, mode: mode) }
        }
      }
      try check(type)
    }
  }

  @Test func placesTakeTheFactsOfTheTierPlaceTheyAreNamedLike() throws {
    let plain = LinearScanBackend(corpus: Self.list)
    // Without facts, places of one class rank by level, length and id: the file's order.
    #expect(plain.search("gz", limit: 1).hits.map { Self.list.name(at: $0.index) } == ["赣州"])
    #expect(plain.search("fs", limit: 1).hits.map { Self.list.name(at: $0.index) } == ["抚顺"])
    #expect(plain.search("沪", limit: 1).total == 0)

    let (joined, join) = Self.list.joiningFacts(from: Fixtures.cities)
    let reference = LinearScanBackend(corpus: joined)
    func first(_ query: String) -> String? {
      reference.search(query, limit: 1).hits.first.map { joined.name(at: $0.index) }
    }
    #expect(first("gz") == "廣州")  // 广州 is more prominent than 赣州
    #expect(first("fs") == "佛山")
    #expect(first("沪") == "上海")  // its alias
    #expect(first("canton") == "廣州")
    #expect(first("粤") == "廣東")

    let name = { (place: Int) in joined.name(at: place) }
    let known = { (k: Int) in Fixtures.cities.id(at: k) }
    let pairs = Dictionary(uniqueKeysWithValues: join.joined.map { (name($0.place), known($0.known)) })
    #expect(pairs["廣州"] == 440100 && pairs["廣東"] == 440000)
    #expect(pairs["朝阳"] == 211300)  // 朝阳市, the prefecture, not a 朝阳区: its parent 辽宁 and its level
    #expect(join.unknown.map(name) == ["臺北"])
    // 通州: 北京's and 南通's districts, both county level, and no parent to choose by.
    #expect(join.ambiguous.map { name($0.place) } == ["通州"])
    #expect(join.ambiguous[0].candidates.map(known).sorted() == [110112, 320612])
    #expect(
      join.summary(imported: joined, known: Fixtures.cities)
        == "joined 9 of 11 places to the facts (prominence, aliases) of \(Fixtures.cities.source); "
        + "1 unknown there (臺北); 1 named like several places (通州)")
    #expect(joined.prominence(at: joined.lookup("通州")[0]) == 0)
  }
}
