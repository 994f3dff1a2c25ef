import CitySearch
import CitySearchBackends
import CitySearchCorpus
import CitySearchTestSupport
import Foundation
import Testing

/// MatchSpec §2.10: double-pinyin keyboards read as the full pinyin they spell.
@Suite(.timed) struct KeyboardTests {
  static let keyboards = try! EmbeddedCorpus.keyboards()

  func keyboard(_ name: String) throws -> Keyboard { try #require(Self.keyboards.first { $0.name == name }) }

  @Test func theFiveLayoutsAreThere() {
    #expect(Self.keyboards.map(\.name) == ["xiaohe", "ziranma", "microsoft", "zhineng-abc", "pinyinpp"])
  }

  /// Each layout spells every syllable of the cities tier: a place's name can be typed on it.
  @Test(arguments: ["xiaohe", "ziranma", "microsoft", "zhineng-abc", "pinyinpp"])
  func everySyllableOfThePlacesCanBeTyped(_ name: String) throws {
    let layout = try keyboard(name)
    let syllabary = Fixtures.cities.syllabary
    let typable = Set(layout.pairs.values)
    // §7's alternate spellings with u for ü after l and n (lue for lüe) are typed as the ü syllable.
    func typed(_ s: String) -> Bool {
      let umlaut = "\(s.prefix(1))v\(s.dropFirst(2))"
      return typable.contains(s) || (["lu", "nu"].contains(s.prefix(2)) && typable.contains(umlaut))
    }
    let missing = (0..<syllabary.count).filter { syllabary.kinds[$0] == .syllable }
      .map { String(decoding: syllabary.spellings[$0], as: UTF8.self) }.filter { !typed($0) }
    #expect(missing.isEmpty, "\(name) cannot type \(missing)")
  }

  /// Key pairs as each layout's published chart gives them, zero initials included (Microsoft
  /// types 安 as `oj`, where Xiaohe types `an` or `aj`); a lone last key is its initial.
  @Test(arguments: [
    ("xiaohe", "bwjk", "bei'jing"), ("xiaohe", "vhqk", "zhang'qing"), ("xiaohe", "aj", "an"),
    ("xiaohe", "xuvz", "xu'zhou"), ("xiaohe", "bwv", "bei'zh"), ("xiaohe", "uhhd", "shang'hai"),
    ("microsoft", "oj", "an"), ("microsoft", "j;", "jing"), ("microsoft", "bzj;", "bei'jing"),
    ("microsoft", "ly", "lv"), ("ziranma", "jy", "jing"), ("ziranma", "bzjy", "bei'jing"),
    ("zhineng-abc", "bqjy", "bei'jing"), ("zhineng-abc", "at", "zhuang"), ("pinyinpp", "bwjq", "bei'jing"),
    ("xiaohe", "bw京", "bei'京"), ("xiaohe", "BWJK", "bei'jing"), ("xiaohe", "bw jk", "bei'jing"),
  ])
  func pairsReadAsTheirSyllables(_ name: String, _ typed: String, _ pinyin: String) throws {
    let read = try keyboard(name).read(typed)
    #expect(QueryNormalizer(tables: Fixtures.tables).normalize(read).text == pinyin, "\(read)")
  }

  /// Typed on a keyboard, each place is found as by its full pinyin: the first hit of 北京 typed
  /// on every layout is 北京.
  @Test func aSearchTypedOnAKeyboardFindsThePlace() throws {
    let backend = TrieBackend(corpus: Fixtures.cities)
    for (name, keys) in [
      ("xiaohe", "bwjk"), ("ziranma", "bzjy"), ("microsoft", "bzj;"), ("zhineng-abc", "bqjy"), ("pinyinpp", "bwjq"),
    ] {
      let result = backend.search(try keyboard(name).read(keys), mode: .syllable, limit: 5)
      #expect(result.hits.first.map { Fixtures.cities.name(at: $0.index) } == "北京市", "\(name)")
    }
  }

  @Test func aMalformedRowIsNamedByItsLine() {
    let data = Data("keyboard\tkeys\tsyllable\nxiaohe\tbw\tbei\nxiaohe\tb\tbei\n".utf8)
    #expect(throws: CorpusError.self) { try Keyboard.layouts(data, name: "layouts.tsv") }
    do {
      _ = try Keyboard.layouts(data, name: "layouts.tsv")
    } catch {
      #expect("\(error)".hasPrefix("layouts.tsv:3: bad row"))
    }
  }
}
