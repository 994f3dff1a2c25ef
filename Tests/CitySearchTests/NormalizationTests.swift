import CitySearch
import Testing

/// MatchSpec §2: one normalization for every backend.
@Suite struct NormalizationTests {
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
