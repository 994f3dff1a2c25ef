import CitySearch
import CitySearchConformance
import CitySearchTestSupport
import Testing

/// MatchSpec §2: one normalization for every backend.
@Suite(.timed) struct NormalizationTests {
  let normalizer = QueryNormalizer(tables: Fixtures.tables)

  @Test(arguments: [
    ("ＢＥＩＪＩＮＧ", "beijing"),  // §2.1 full-width
    ("BeiJing", "beijing"),  // §2.2
    ("lü", "lv"), ("LÜ", "lv"), ("lu:", "lv"), ("lv", "lv"), ("nǚ", "nv"),  // §2.3
    ("Běijīng", "beijing"), ("Xī'ān", "xi'an"), ("lǘ", "lv"),  // §2.4
    ("廣州", "广州"), ("臺北", "台北"), ("長沙", "长沙"),  // §2.5
    ("xi’an", "xi'an"), ("xi＇an", "xi'an"), ("xi  an", "xi'an"), (" 'xi'' an' ", "xi'an"),  // §2.6
    ("北 京", "北'京"), ("bei\tjing", "bei'jing"), ("北京\u{3000}", "北京"),
    ("bei-jing", "beijing"), ("b.j!", "bj"), ("🙂", ""), ("", ""), ("''", ""), ("12号", "12号"),  // §2.7
  ])
  func normalizes(_ input: String, _ expected: String) {
    #expect(normalizer.normalize(input).text == expected)
  }

  /// §2.5 (2.0) Tone numbers end a syllable; a digit in a number stays a digit.
  @Test(arguments: [
    ("bei3jing1", "bei'jing"), ("xi1an1", "xi'an"), ("bei3", "bei"), ("b3j", "b'j"), ("zhong1 guo2", "zhong'guo"),
    ("fxl20", "fxl20"), ("a12", "a12"), ("bei6", "bei6"), ("bei0", "bei0"), ("3a", "3a"), ("bei 3", "bei'3"),
    ("ｂｅｉ３", "bei"),
  ])
  func toneNumbers(_ input: String, _ expected: String) {
    #expect(normalizer.normalize(input).text == expected)
  }

  /// §2.3 (2.1) After j, q, x and y pinyin writes ü as `u`, and so does the query; after other
  /// letters ü stays `v`.
  @Test(arguments: [
    ("xvzhou", "xuzhou"), ("yvlin", "yulin"), ("jv", "ju"), ("qv", "qu"), ("xü", "xu"), ("xu:", "xu"),
    ("XÜ", "xu"), ("lv", "lv"), ("nvren", "nvren"), ("x'v", "x'v"), ("ｘｖ", "xu"),
  ])
  func üAfterJQXYIsU(_ input: String, _ expected: String) {
    #expect(normalizer.normalize(input).text == expected)
  }

  /// §2.9 (2.1) Zhuyin reads as its pinyin, a syllable at a time, each followed by a boundary.
  @Test(arguments: [
    ("ㄅㄟˇㄐㄧㄥ", "bei'jing"), ("ㄅㄐ", "b'j"), ("ㄒㄩㄓㄡ", "xu'zhou"), ("ㄌㄩˇㄌㄧㄤˊ", "lv'liang"),
    ("ㄋㄩˇ", "nv"), ("ㄐㄩㄝˊ", "jue"), ("ㄑㄩㄥˊ", "qiong"), ("ㄩㄥˇ", "yong"), ("ㄩㄢˊ", "yuan"),
    ("ㄧ", "yi"), ("ㄧㄡˇ", "you"), ("ㄧㄣ", "yin"), ("ㄧㄥˊ", "ying"), ("ㄧㄢ", "yan"), ("ㄉㄧㄡ", "diu"),
    ("ㄨ", "wu"), ("ㄨㄟˋ", "wei"), ("ㄨㄣˊ", "wen"), ("ㄨㄥ", "weng"), ("ㄍㄨㄟˋ", "gui"), ("ㄉㄨㄣ", "dun"),
    ("ㄓㄨㄥ", "zhong"), ("ㄓ", "zh"), ("ㄓˋ", "zhi"), ("ㄙˋ", "si"), ("ㄅˋ", "b"), ("ㄦˊ", "er"),
    ("ㄇㄚ˙", "ma"), ("ㄅㄛˊ", "bo"), ("ㄈㄥ", "feng"), ("ㄅㄟ京", "bei'京"), ("ㄅㄟjing", "bei'jing"),
  ])
  func zhuyinReadsAsPinyin(_ input: String, _ expected: String) {
    #expect(normalizer.normalize(input).text == expected)
  }

  /// §2.6 (2.0) A Traditional character that is a standard simplified one in use in place names
  /// does not fold: 乾 stays 乾 (in 1.0 it became 干).
  @Test func foldKeepsCharactersInSimplifiedUse() {
    for kept in ["乾", "於", "著", "苎", "垵", "氹", "昇"] {
      #expect(normalizer.normalize(kept).text == kept)
    }
    #expect(normalizer.normalize("乾县").text == "乾县")
    #expect(normalizer.normalize("張家").text == "张家")
  }

  @Test func boundaryMarksNeverLeadTrailOrRepeat() {
    let tokens = normalizer.normalize("  ' a '' ' b  ' ").tokens
    #expect(tokens == [0x61, NormalizedQuery.boundary, 0x62])
  }

  @Test func minimumUnitsCountsSixLettersPerUnit() {
    #expect(normalizer.normalize("zhuang").minimumUnits == 1)
    #expect(normalizer.normalize("zhuangz").minimumUnits == 2)
    #expect(normalizer.normalize("北京bj").minimumUnits == 3)
    #expect(normalizer.normalize(String(repeating: "a", count: 10_000)).minimumUnits == 1667)
  }

  @Test func prefixRelationIsOnTokens() {
    let short = normalizer.normalize("xi")
    #expect(short.isPrefix(of: normalizer.normalize("xi'an")))
    #expect(!normalizer.normalize("lu").isPrefix(of: normalizer.normalize("lu:")))
  }
}

/// The fast paths (ASCII; ASCII with the common Hanzi) give exactly what the general
/// (Foundation NFKC) path gives.
@Suite(.timed) struct NormalizerFastPathTests {
  let normalizer = QueryNormalizer(tables: Fixtures.tables)

  @Test func theFastPathAgreesWithTheGeneralPath() {
    // Every string of up to two characters over the bytes that matter, and the fuzzed ASCII queries.
    let alphabet = (0x00..<0x80).map { String(UnicodeScalar(UInt8($0))) }
    var queries = alphabet
    for a in ["b", "u", "U", "3", "'", " ", ":", "V"] { for b in alphabet { queries.append(a + b) } }
    queries += ["Bei3Jing1", "lu:", "LU:E", "xi'an", "  B J  ", "l20", "a\t\nb", "bei5", "x1y", "u::", "\u{7F}z"]
    queries += FuzzQueries.generate(Fixtures.cities, count: 3_000, seed: 11).map(\.text)
      .filter { $0.utf8.allSatisfy { $0 < 0x80 } }
    for query in queries {
      #expect(normalizer.normalize(query) == normalizer.normalizeUnicode(query), "\(query.debugDescription)")
    }
    #expect(queries.count > 2_000)
    // The fold table maps Hanzi only, so the fast path may skip it for ASCII.
    #expect(Fixtures.tables.simplified.keys.allSatisfy { $0 >= 0x80 })
  }

  /// ASCII with the common Hanzi (unified ideographs and extension A) takes a path of its own
  /// that gives what the general path gives too: the names, Traditional forms, the blocks'
  /// edges and the scalars beside them (which NFKC maps or which are not Hanzi), and the fuzzed
  /// queries of every input style.
  @Test func theHanziFastPathAgreesWithTheGeneralPath() {
    let corpus = Fixtures.cities
    var hanzi = (0..<corpus.count).map { corpus.name(at: $0) }
    hanzi += Fixtures.tables.simplified.keys.compactMap { UnicodeScalar($0).map(String.init) }
    let edges: [UInt32] = [
      0x33FF, 0x3400, 0x4DBF, 0x4DC0, 0x4DFF, 0x4E00, 0x9FFF, 0xA000, 0x3007, 0xF900, 0xFA0E, 0xFF21,
    ]
    hanzi += (Array(stride(from: 0x3400, through: 0x9FFF, by: 97)) + edges).map { String(UnicodeScalar($0)!) }
    var queries = hanzi
    for text in hanzi.prefix(2_000) { queries += ["B" + text + "j3", text + " Xi'AN", text + "ü"] }
    queries += FuzzQueries.generate(corpus, count: 3_000, seed: 12).map(\.text)
    var nonASCII = 0
    for query in queries {
      if query.utf8.contains(where: { $0 >= 0x80 }) { nonASCII += 1 }
      #expect(normalizer.normalize(query) == normalizer.normalizeUnicode(query), "\(query.debugDescription)")
    }
    #expect(nonASCII > 10_000)
  }
}
