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

  static let doublePinyin = [
    "xiaohe", "ziranma", "microsoft", "zhineng-abc", "pinyinpp", "sogou", "ziguang", "guobiao",
  ]

  @Test func theNineLayoutsAreThere() {
    #expect(Self.keyboards.map(\.name) == Self.doublePinyin + ["daqian"])
    #expect(Self.keyboards.filter(\.isZhuyin).map(\.name) == ["daqian"])
  }

  /// Each layout spells every syllable of the cities tier: a place's name can be typed on it.
  @Test(arguments: doublePinyin)
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
    ("sogou", "oj", "an"), ("sogou", "bzj;", "bei'jing"), ("sogou", "xyvb", "xu'zhou"), ("sogou", "aj", "a'j"),
    ("ziguang", "or", "an"), ("ziguang", "bkj;", "bei'jing"), ("ziguang", "ahq;", "chong'qing"),
    ("guobiao", "af", "an"), ("guobiao", "aa", "a"), ("guobiao", "al", "er"), ("guobiao", "bbjj", "bei'jing"),
    ("guobiao", "lx", "lve"), ("guobiao", "jx", "jue"), ("guobiao", "vn", "zhuang"), ("guobiao", "bbu", "bei'sh"),
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
      ("sogou", "bzj;"), ("ziguang", "bkj;"), ("guobiao", "bbjj"), ("daqian", "1o3ru/"),
    ] {
      let result = backend.search(try keyboard(name).read(keys), mode: .syllable, limit: 5)
      #expect(result.hits.first.map { Fixtures.cities.name(at: $0.index) } == "北京市", "\(name)")
    }
  }

  /// Daqian: each of its 41 keys types one Bopomofo symbol or tone mark, the 37 symbols and four
  /// tones all present; keys that are no key of it (Hanzi, boundary marks) pass as typed.
  @Test func daqianTypesEverySymbolOnce() throws {
    let daqian = try keyboard("daqian")
    #expect(daqian.pairs.isEmpty)
    #expect(daqian.symbols.count == 41)
    let symbols = Set(daqian.symbols.values)
    #expect(symbols.count == 41)
    for scalar in 0x3105...0x3129 { #expect(symbols.contains(Character(UnicodeScalar(scalar)!)), "\(scalar)") }
    #expect(daqian.read("1o3ru/") == "ㄅㄟˇㄐㄧㄥ")
    #expect(daqian.read("1O3 北京'") == "ㄅㄟˇ 北京'")
    #expect(daqian.read("5 g ") == "ㄓˉㄕˉ")
  }

  /// Daqian typing reads as the Zhuyin it types (§2.9), tone keys ending syllables.
  @Test(arguments: [
    ("1o3ru/", "bei'jing"), ("1r", "b'j"), ("g;4c93", "shang'hai"), ("xm3xu;6", "lv'liang"), ("0 cjo", "an'hui"),
    ("vm65.", "xu'zhou"), ("k4-32jin", "e'er'duo's"), ("54", "zhi"), ("5 ", "zhi"), ("5", "zh"),
    ("g ru/ ", "shi'jing"),
  ])
  func daqianReadsAsZhuyin(_ typed: String, _ pinyin: String) throws {
    let read = try keyboard("daqian").read(typed)
    #expect(QueryNormalizer(tables: Fixtures.tables).normalize(read).text == pinyin, "\(read)")
  }

  /// `type` is `read`'s inverse: every place of the cities tier typed on every layout reads back
  /// as its own syllables (ü written v), and a syllable with no keys gives `nil`.
  @Test func typedNamesReadBackAsTheirSyllables() throws {
    let normalizer = QueryNormalizer(tables: Fixtures.tables)
    for layout in Self.keyboards {
      var typed = 0
      for place in 0..<Fixtures.cities.count {
        let syllables = Fixtures.cities.pinyin(at: place)
        guard let keys = layout.type(syllables) else { continue }
        typed += 1
        #expect(
          normalizer.normalize(layout.read(keys)).text == syllables.joined(separator: "'"),
          "\(layout.name): \(syllables) typed \(keys)")
      }
      #expect(typed == Fixtures.cities.count, "\(layout.name) typed \(typed) of \(Fixtures.cities.count) places")
    }
    #expect(try keyboard("xiaohe").type(["bei", "jing"]) == "bwjk")
    #expect(try keyboard("daqian").type(["bei", "jing"]) == "1o ru/ ")
    #expect(try keyboard("xiaohe").type(["bei", "qxz"]) == nil)
  }

  @Test func aMalformedZhuyinRowIsNamedByItsLine() {
    let data = Data("keyboard\tkey\tsymbol\ndaqian\t1\tㄅ\ndaqian\t2\tb\n".utf8)
    do {
      _ = try Keyboard.zhuyinLayouts(data, name: "zhuyin.tsv")
      Issue.record("a row whose symbol is no Zhuyin was accepted")
    } catch {
      #expect("\(error)".hasPrefix("zhuyin.tsv:3: bad row"))
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
