import CitySearch
import CitySearchTestSupport
import Testing

@testable import CitySearchICU

/// The one layout of a corpus's readings (`ReadingStore`): the corpus's reviewed store and the
/// one `icu-cached` builds from ICU's transliterations.
@Suite(.timed) struct ReadingStoreTests {
  /// The joined pinyin, the unit ends and the letter masks are derived from the tokens.
  @Test func derivesThePinyinAndTheLettersFromTheTokens() throws {
    let corpus = Fixtures.cities
    let baoji = try #require(corpus.index(of: 610300))
    try #require(!corpus.hasAliases(at: baoji))
    let store = corpus.readings
    #expect(String(decoding: store.joinedPinyin(at: baoji), as: UTF8.self) == "baojishi")
    #expect(Array(store.pinyinUnitEnds(at: baoji)) == [3, 5, 8])
    #expect(store.letterMask(at: baoji) == Hanzi.letterMask("baojishi".unicodeScalars.map(\.value)))
    #expect(store.count == corpus.count)
  }

  /// With its override rules, ICU reads every name as the corpus does: `icu-cached`'s store
  /// holds the corpus's tokens, alternates and joined pinyin, place by place; plain ICU's
  /// differs on the places the expected failures list.
  @Test func icuWithOverridesStoresTheCorpusReadings() throws {
    let corpus = Fixtures.cities
    let fixed = try ICUCachedBackend(corpus: corpus).store
    for index in 0..<corpus.count {
      #expect(fixed.canonicalTokens(at: index).elementsEqual(corpus.canonicalTokens(at: index)), "\(index)")
      #expect(fixed.alternateTokens(at: index).elementsEqual(corpus.alternateTokens(at: index)), "\(index)")
      #expect(fixed.joinedPinyin(at: index).elementsEqual(corpus.joinedPinyin(at: index)), "\(index)")
    }
    let raw = try ICUCachedBackend(corpus: corpus, options: BackendOptions().setting(.icuRaw, to: true)).store
    let changsha = try #require(corpus.index(of: 430100))
    #expect(String(decoding: raw.joinedPinyin(at: changsha), as: UTF8.self) == "zhangshashi")
  }
}
