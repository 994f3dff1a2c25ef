import CitySearch
import CitySearchTestSupport
import Testing

/// The contract's rules as written once (`MatchRules`), against MatchSpec §3.2, §4.3 and §5.1
/// worked by hand.
@Suite(.timed) struct MatchRulesTests {
  /// Each prefix of `syllable` as a piece: where the query goes on, and where it ends.
  func pieces(_ syllable: String) -> [(going: MatchRules.Piece?, ending: MatchRules.Piece?)] {
    let bytes = Array(syllable.utf8)
    let initial = MatchRules.initialLength(bytes, start: 0, length: bytes.count)
    return (1...bytes.count).map { k in
      (
        MatchRules.piece(prefix: k, of: bytes.count, initialLength: initial, endsQuery: false),
        MatchRules.piece(prefix: k, of: bytes.count, initialLength: initial, endsQuery: true)
      )
    }
  }

  @Test func aSyllableOffersItsInitialItsWholeSelfAndAnyPrefixLast() {
    // zhuang: z and zh are initials, zhuang the whole syllable; zhu, zhua only as the last piece.
    let zhuang = pieces("zhuang")
    #expect(zhuang.map(\.going) == [.initial, .initial, nil, nil, nil, .whole])
    #expect(zhuang.map(\.ending) == [.initial, .initial, .lastPrefix, .lastPrefix, .lastPrefix, .whole])
    // bei: b is the initial; be only last (`bej` does not reach 北京 through `be`).
    #expect(pieces("bei").map(\.going) == [.initial, nil, .whole])
    // A one-letter syllable is whole, and its own initial is the same piece.
    #expect(pieces("e").map(\.ending) == [.whole])
    // h after another letter is no two-letter initial: `kh` is not a piece of a `khan`-like spelling.
    #expect(pieces("han").map(\.going) == [.initial, nil, .whole])
  }

  @Test func onlyZhChShHaveTwoLetterInitials() {
    for (spelling, length) in [("zhang", 2), ("chang", 2), ("shang", 2), ("zang", 1), ("hang", 1), ("h", 1), ("a", 1)] {
      let bytes = Array(spelling.utf8)
      #expect(MatchRules.initialLength(bytes, start: 0, length: bytes.count) == length, "\(spelling)")
    }
    // Read in place, from any offset of a flattened table.
    let flat = Array("anshi".utf8)
    #expect(MatchRules.initialLength(flat, start: 2, length: 3) == 2)
  }

  @Test func anOpaqueUnitHasNoInitial() {
    #expect(MatchRules.initial(firstByte: UInt8(ascii: "b"), kind: .syllable) == UInt8(ascii: "b"))
    #expect(MatchRules.initial(firstByte: UInt8(ascii: "7"), kind: .literal) == UInt8(ascii: "7"))
    #expect(MatchRules.initial(firstByte: 0xE3, kind: .opaque) == nil)
  }

  @Test func matchClassesOfRuns() {
    // 北京市: whole name 3 units, short name 2.
    #expect(MatchRules.matchClass(start: 0, end: 2, whole: 3, short: 2) == 0)
    #expect(MatchRules.matchClass(start: 0, end: 3, whole: 3, short: 2) == 0)
    #expect(MatchRules.matchClass(start: 0, end: 1, whole: 3, short: 2) == 1)
    #expect(MatchRules.matchClass(start: 1, end: 3, whole: 3, short: 2) == 2)
    // A later run is class 2 even when it ends where the name does.
    #expect(MatchRules.matchClass(start: 2, end: 3, whole: 3, short: 3) == 2)
  }

  @Test func theCorpusInitialsFollowTheRule() {
    let corpus = Fixtures.cities
    let index = Fixtures.index(of: "北京市")
    #expect(String(decoding: corpus.initials(at: index), as: UTF8.self) == "bjs")
  }
}
