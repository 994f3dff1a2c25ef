import CitySearch
import CitySearchCatalog
import CitySearchConformance
import CitySearchTestSupport
import Foundation
import SQLiteSupport
import Testing

@testable import CitySearchBackends
@testable import CitySearchEngine
@testable import CitySearchICU
@testable import CitySearchSQLite

/// The building blocks of the indexed backends, against hand-computed or naive answers.
@Suite(.timed) struct BackendPartsTests {
  @Test func letterKeysRoundTrip() {
    for text in ["a", "bj", "z9a", "0", "zzz"] {
      let key = LetterKey.of(text.unicodeScalars.map(\.value))
      #expect(LetterKey.string(key) == text)
    }
    #expect(LetterKey.of("ab".unicodeScalars.map(\.value)) != LetterKey.of("ba".unicodeScalars.map(\.value)))
    // Keys of each length lie from its first key on, below the next length's; a prefix is the
    // key of the string's first characters.
    func key(_ text: String) -> Int32 { LetterKey.of(text.unicodeScalars.map(\.value)) }
    // (A key of six characters exists only when its first five's is extensible: not `999999`.)
    for length in 1...6 {
      #expect(LetterKey.first(ofLength: length) <= key(String(repeating: "a", count: length)))
      #expect(length == 1 || key(String(repeating: "9", count: length - 1)) < LetterKey.first(ofLength: length))
    }
    for (text, length, prefix) in [("jiangj", 5, "jiang"), ("jiangj", 3, "jia"), ("z9ab", 3, "z9a"), ("bj", 2, "bj")] {
      #expect(LetterKey.prefix(key(text), length: length) == key(prefix), "\(text) \(length)")
    }
  }

  /// 长沙 (chang sha): a query can begin c, ch, cha, cs, chs, csh (initials or whole syllables
  /// then a prefix of the next), or s, sh, sha from the second unit; never cas or chan+.
  @Test func syllableKeysOfChangsha() throws {
    let corpus = Fixtures.cities
    let generator = SyllableKeyGenerator(syllabary: corpus.syllabary)
    let changsha = try #require(corpus.index(of: 430100))
    var keys: [Int32] = []
    generator.keys(readings: corpus.canonicalTokens(at: changsha).prefix(2), into: &keys)
    let strings = Set(keys.map(LetterKey.string))
    #expect(strings == ["c", "ch", "cha", "cs", "chs", "csh", "s", "sh", "sha"])
  }

  /// The six-letter keys (the inverted index's longer lists) are exact: each of a place's keys
  /// is a query that matches it, and a query of six letters or more that matches it (its whole
  /// pinyin) begins with one of them.
  @Test func sixLetterKeysAreQueriesThatMatch() {
    let corpus = Fixtures.cities
    let generator = SyllableKeyGenerator(syllabary: corpus.syllabary)
    let matcher = PlaceMatcher(corpus: corpus)
    var (keysChecked, queriesChecked) = (0, 0)
    matcher.withPlaces { places in
      func matches(_ letters: [UInt32], _ place: Int) -> Bool {
        places.match(matcher.prepare(NormalizedQuery(tokens: letters)), mode: .syllable, at: place) != nil
      }
      for place in stride(from: 0, to: corpus.count, by: 5) {
        var keys: [Int32] = []
        generator.keys(readings: corpus.canonicalTokens(at: place), lengths: 6...6, into: &keys)
        for key in Set(keys) {
          let letters = LetterKey.string(key).unicodeScalars.map(\.value)
          #expect(letters.count == 6 && matches(letters, place), "\(LetterKey.string(key)) \(corpus.name(at: place))")
          keysChecked += 1
        }
        let pinyin = corpus.joinedPinyin(at: place).map(UInt32.init)
        guard pinyin.count >= 6 && matches(pinyin, place) else { continue }
        #expect(keys.contains(LetterKey.of(pinyin.prefix(6))), "\(corpus.name(at: place))")
        queriesChecked += 1
      }
    }
    #expect(keysChecked > 1_000 && queriesChecked > 300)
  }

  /// The five-letter beginnings of 长沙 that `sqlite-fts5` stores as `starts` tokens: only the
  /// longest strings (`cha` and `chan` begin `chang`, `chs` and `chsh` begin `chsha`), and a
  /// query's beginning asks for a whole token at five letters, a token's prefix at three or four.
  @Test func sqliteStartsKeepTheLongestBeginnings() throws {
    let corpus = Fixtures.cities
    let generator = SyllableKeyGenerator(syllabary: corpus.syllabary)
    let changsha = try #require(corpus.index(of: 430100))
    var keys: [Int32] = []
    generator.keys(readings: corpus.canonicalTokens(at: changsha).prefix(2), lengths: 3...5, into: &keys)
    let starts = SQLiteFTS5Backend.Store.longest(Set(keys.map(LetterKey.string)))
    #expect(starts == ["chang", "chsha", "csha", "sha"])
    func letters(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }
    #expect(SQLiteFTS5Backend.beginning(letters("changshashi")) == "starts : \"chang\"")
    #expect(SQLiteFTS5Backend.beginning(letters("chs")) == "starts : \"chs\" *")
    #expect(SQLiteFTS5Backend.beginning(letters("cs")) == "syl : \"cs\"")
  }

  /// Sorted lists and bitsets, mixed, intersect as sets do.
  @Test func intersectionMatchesANaiveOne() {
    var random = SplitMix64(seed: 3)
    for _ in 0..<200 {
      let lists: [[Int32]] = (0..<(1 + Int(random.next() % 4))).map { _ in
        Array(Set((0..<Int(random.next() % 200)).map { _ in Int32(random.next() % 300) })).sorted()
      }
      let postingLists = lists.map { list -> PostingList in
        guard random.next() % 2 == 0 else { return PostingList(IntegerTable(list)[...]) }
        var words = [UInt64](repeating: 0, count: 5)
        for place in list { words[Int(place) / 64] |= 1 << UInt64(place % 64) }
        return PostingList(bits: IntegerTable(words))
      }
      #expect(zip(postingLists, lists).allSatisfy { Array($0) == $1 && $0.count == $1.count })
      var found: [Int] = []
      forEachCommonPlace(postingLists) { found.append($0) }
      let naive = lists.dropFirst().reduce(Set(lists[0])) { $0.intersection($1) }
      #expect(found == naive.sorted().map(Int.init))
      // One block of places: the same, less the places outside it.
      let low = Int(random.next() % 310)
      let range = low..<low + Int(random.next() % 130)
      var inRange: [Int] = []
      forEachCommonPlace(postingLists, in: range) { inRange.append($0) }
      #expect(inRange == found.filter(range.contains), "\(range)")
    }
    // The intersection of no list is every place.
    var every: [Int] = []
    PostingIntersection([], placeCount: 5).forEachPlace { every.append($0) }
    PostingIntersection([], placeCount: 5).forEachPlace(in: 3..<9) { every.append($0) }
    #expect(every == [0, 1, 2, 3, 4, 3, 4])
  }

  /// The precomputed answers verified a block of places at a time are the answers verified one
  /// query at a time over every place, and those of a source that keeps no lists.
  @Test func answersAreTheSameInAnyBlocks() {
    let corpus = Fixtures.cities
    let backend = InvertedIndexBackend(corpus: corpus, options: BackendOptions().setting(.shortAnswers, to: false))
    /// The backend's enumeration without its lists: the answers of one query after another.
    struct WithoutLists: MatchSource {
      let backend: InvertedIndexBackend
      var corpus: Corpus { backend.corpus }
      var matcher: PlaceMatcher { backend.matcher }
      var ranking: Ranking { backend.ranking }
      func forEachMatch(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode, _ body: (Int, Match) -> Void) {
        backend.forEachMatch(query, mode: mode, body)
      }
      func candidateEstimate(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode) -> Int {
        backend.candidateEstimate(query, mode: mode)
      }
    }
    #expect(
      WithoutLists(backend: backend).postingCandidates(
        backend.matcher.prepare(NormalizedQuery(tokens: [0x61])), mode: .seed) == nil)
    let whole = ShortQueryAnswers(source: WithoutLists(backend: backend), concurrently: false).fileData(for: corpus)
    #expect(whole.count > 100_000)
    for blockPlaces in [700, 1_024, corpus.count] {
      let blocked = ShortQueryAnswers(source: backend, concurrently: true, fuzzy: [], blockPlaces: blockPlaces)
      #expect(blocked.fileData(for: corpus) == whole, "blocks of \(blockPlaces)")
    }
  }

  /// The extension rule's bound: a quarter of an answer's depth on a corpus under 4,096 places
  /// (`cities`), for queries of two characters too; one place in 64 from there (`towns`,
  /// `villages`), where two characters are extended past an answer's depth; never falling as a
  /// corpus grows; a query just past it is extended, one at it is not.
  @Test func extensionBoundFollowsTheCorpus() {
    let bound = ShortQueryAnswers.extensionTotal(placeCount:)
    let small = ShortQueryAnswers.smallCorpusExtensionTotal
    #expect(small == 8)
    #expect(bound(Fixtures.cities.count) == small)
    #expect(bound(4_095) == small)
    #expect(bound(4_096) == 64)
    #expect(bound(42_000) == 656)
    #expect(bound(642_626) == 10_041)
    let sizes = [0, 1_000, 4_095, 4_096, 10_000, 100_000, 1_000_000]
    #expect(zip(sizes, sizes.dropFirst()).allSatisfy { bound($0) <= bound($1) })
    for places in [3_211, 42_000, 642_626] {
      let total = bound(places)
      #expect(ShortQueryAnswers.isExtended(length: 3, total: total + 1, mode: .syllable, placeCount: places))
      #expect(!ShortQueryAnswers.isExtended(length: 3, total: total, mode: .seed, placeCount: places))
      let pair = min(total, ShortQueryAnswers.broadTotal)
      #expect(ShortQueryAnswers.isExtended(length: 2, total: pair + 1, mode: .syllable, placeCount: places))
      #expect(!ShortQueryAnswers.isExtended(length: 2, total: pair, mode: .seed, placeCount: places))
    }
    #expect(ShortQueryAnswers.isExtended(length: 2, total: small + 1, mode: .syllable, placeCount: 3_211))
    #expect(!ShortQueryAnswers.isExtended(length: 2, total: small + 1, mode: .syllable, placeCount: 42_000))
  }

  /// Where the inverted index says its lists hold exactly a query's matches by name
  /// (`PostingCandidates.isExact`: one or two letters or digits, three, a broad four or five, a
  /// Hanzi; in both modes), every candidate matches, so the answers count them unverified.
  @Test func exactListsHoldOnlyMatches() {
    let corpus = Fixtures.cities
    let backend = InvertedIndexBackend(corpus: corpus, options: BackendOptions().setting(.shortAnswers, to: false))
    let letters = "abcdefghijklmnopqrstuvwxyz0123456789".unicodeScalars.map(\.value)
    let queries =
      letters.map { [$0] } + letters.flatMap { a in letters.map { [a, $0] } }
      + ["zha", "xia", "bjs", "sha", "shan", "xian", "zhang", "huang", "jiang"].map { $0.unicodeScalars.map(\.value) }
      + (0..<60).map { Array(corpus.units(at: $0 * 53).prefix(1)) }
    var exact = 0
    backend.matcher.withPlaces { places in
      for tokens in queries {
        for mode in MatchMode.allCases {
          let prepared = backend.matcher.prepare(NormalizedQuery(tokens: tokens))
          guard let candidates = backend.postingCandidates(prepared, mode: mode), candidates.isExact else { continue }
          exact += 1
          candidates.forEachCandidate { place in
            #expect(places.match(prepared, mode: mode, at: place) != nil, "\(tokens) \(mode) \(place)")
          }
        }
      }
    }
    #expect(exact > 2 * (letters.count + letters.count * letters.count))
    let prepared = backend.matcher.prepare(NormalizedQuery(tokens: Array("shanxi".unicodeScalars.map(\.value))))
    #expect(backend.postingCandidates(prepared, mode: .syllable)?.isExact == false)
  }

  /// The key a place's match can have at least (`FirstUnit.lowestClasses`, read before the
  /// place is verified) is never above the key of its match, in either mode: for broad queries,
  /// for queries that are whole syllables or need a literal's piece, and for every sampled
  /// place's whole name, short name, joined pinyin and initials (matches of class 0), on
  /// `cities` and on a corpus whose names have digits (literal units).
  @Test(arguments: [false, true]) func firstUnitBoundsTheKey(literals: Bool) {
    let corpus = literals ? Fixtures.latinDigits : Fixtures.cities
    let matcher = PlaceMatcher(corpus: corpus)
    let ranking = Ranking(corpus: corpus)
    func query(_ tokens: some Sequence<UInt32>) -> NormalizedQuery { NormalizedQuery(tokens: Array(tokens)) }
    let sampled = stride(from: 0, to: corpus.count, by: literals ? 7 : 151)
    let queries =
      [
        "b", "bj", "sh", "shan", "xian", "zhang", "cq", "hrb", "yuan", "a", "er", "1", "zhua", "scun", "geng", "shi",
        "hao", "7hao", "16", "bjs", "hebei", "shequ",
      ].map { query($0.unicodeScalars.map(\.value)) }
      + sampled.flatMap { place -> [NormalizedQuery] in
        let (units, short) = (corpus.units(at: place), corpus.shortNameUnitCount(at: place))
        let initials = corpus.initials(at: place).map(UInt32.init)
        return [
          query(units.prefix(1)), query(units), query(units.prefix(short)),
          query(corpus.joinedPinyin(at: place).map(UInt32.init)), query(initials), query(initials.prefix(short)),
        ]
      }
    var checked = 0
    var tight = 0
    matcher.withPlaces { places in
      for query in queries where !query.isEmpty {
        let prepared = matcher.prepare(query)
        for mode in MatchMode.allCases {
          for place in 0..<corpus.count {
            guard let match = places.match(prepared, mode: mode, at: place) else { continue }
            let classes = places.firstUnit(at: place).lowestClasses(prepared, mode: mode)
            let bound = ranking.lowestKey(place: place, classesFrom: classes)
            #expect(bound <= ranking.key(match, place: place), "\(query.tokens) \(mode) \(place)")
            checked += 1
            if classes > 0 { tight += 1 }
          }
        }
      }
    }
    #expect(checked > 1_000)
    #expect(tight > checked / 4)
  }

  /// A key that more than one place in 32 holds is a bitset, the others sorted lists; both read
  /// back from a file as written, and a bitset that says more than its count is refused.
  @Test func postingListsAreSortedWithoutRepeats() throws {
    let lists = PostingLists(keyCount: 4, placeCount: 130) { place, out in
      out += [Int32(place % 3), Int32(place % 3), 3]
      if place == 7 || place == 129 { out.append(2) }
    }
    #expect(Array(lists[0]) == Array(stride(from: 0, to: 130, by: 3)))
    #expect(Array(lists[1]) == Array(stride(from: 1, to: 130, by: 3)))
    #expect(Array(lists[2]) == [2, 5, 7] + Array(stride(from: 8, to: 130, by: 3)) + [129])
    #expect(Array(lists[3]) == Array(0..<130))
    #expect(lists[7].isEmpty)
    #expect(lists.entryCount == 130 + 130 + 2)
    #expect(lists.bitsetCount == 4)
    let sparse = PostingLists(keyCount: 2, placeCount: 130) { place, out in
      if place % 40 == 0 { out.append(1) } else { out.append(0) }
    }
    #expect(sparse.bitsetCount == 1)
    #expect(Array(sparse[1]) == [0, 40, 80, 120])

    let magic = Array("PLTEST\0\0".utf8)
    for original in [lists, sparse] {
      var writer = ArchiveWriter(magic: magic, format: 1)
      original.archive(into: &writer)
      var reader = try ArchiveReader(data: writer.finished(), magic: magic, format: 1, kind: "a test file")
      let read = try PostingLists(reading: &reader, keyCount: original.slots.count, placeCount: 130, table: "the lists")
      for key in 0..<original.slots.count { #expect(Array(read[key]) == Array(original[key])) }
    }
    // The same tables with one bit set past the last place.
    var writer = ArchiveWriter(magic: magic, format: 1)
    writer.table(sparse.starts)
    writer.table(sparse.places)
    writer.table(sparse.slots)
    writer.table(sparse.slotCounts)
    writer.table(Array(sparse.words.dropLast()) + [sparse.words.last! | 1 << 63])
    var reader = try ArchiveReader(data: writer.finished(), magic: magic, format: 1, kind: "a test file")
    #expect(throws: ArchiveError.self) {
      try PostingLists(reading: &reader, keyCount: 2, placeCount: 130, table: "the lists")
    }
  }

  /// The sparse lists hold what the dense ones hold for the keys that occur, at any key value.
  @Test func sparsePostingListsMatchADictionaryOfLists() {
    var random = SplitMix64(seed: 7)
    let keysOfPlace = (0..<200).map { _ in (0..<6).map { _ in Int32(random.next() % 40) * 1_700_001 } }
    let lists = SparsePostingLists(placeCount: keysOfPlace.count) { place, out in out += keysOfPlace[place] }
    var expected: [Int32: [Int32]] = [:]
    for (place, keys) in keysOfPlace.enumerated() {
      for key in Set(keys) { expected[key, default: []].append(Int32(place)) }
    }
    for key in (0..<40).map({ Int32($0) * 1_700_001 }) {
      #expect(Array(lists[key]) == expected[key] ?? [], "key \(key)")
      #expect(lists[key + 1].isEmpty)
    }
    #expect(lists.entryCount == expected.values.map(\.count).reduce(0, +))
    #expect(SparsePostingLists(placeCount: 3) { _, _ in }[0].isEmpty)
    // The same lists from entries collected place by place, repeats and all.
    let entries = keysOfPlace.enumerated().flatMap { place, keys in
      keys.map { SparsePostingLists.entry(key: $0, place: place) }
    }
    let fromEntries = SparsePostingLists(entries: entries)
    for key in (0..<40).map({ Int32($0) * 1_700_001 }) { #expect(Array(fromEntries[key]) == Array(lists[key])) }
    #expect(fromEntries.entryCount == lists.entryCount)
  }

  @Test(arguments: [0, 1, 5, 20, 1000])
  func topKKeepsTheSmallestKeysInOrder(limit: Int) {
    var random = SplitMix64(seed: UInt64(limit))
    let keys = (0..<300).map { _ in random.next() >> 20 }
    var top = TopK(limit: limit)
    for (i, key) in keys.enumerated() { top.insert(key: key, index: i, match: Match(bits: 0)) }
    let result = top.result(NormalizedQuery(tokens: [0x61]), mode: .syllable, corpus: Fixtures.cities)
    #expect(result.total == 300)
    let expected = keys.enumerated().sorted { $0.element < $1.element }.prefix(limit).map(\.offset)
    #expect(result.hits.map(\.index) == expected)
    #expect(top.sortedEntries().map { Int($0.index) } == expected)
  }

  @Test func packedMatchesKeepTheirFieldsAndOrderAsTheirClassesThenRange() {
    let fields: [(Int, Int, Int, Int, Int)] = [
      (0, 2, 0, 0, 0), (0, 3, 0, 0, 0), (0, 1, 0, 1, 0), (0, 1, 1, 0, 0), (2, 63, 2, 1, 0), (1, 4, 2, 0, 1),
      (63, 63, 2, 1, 1),
    ]
    let matches = fields.map {
      Match(start: $0.0, end: $0.1, matchClass: $0.2, readingClass: $0.3, spellingClass: $0.4)
    }
    for (a, f) in zip(matches, fields) {
      let unpacked: [Int] = [a.start, a.end, a.matchClass, a.readingClass, a.spellingClass]
      let packed: [Int] = [f.0, f.1, f.2, f.3, f.4]
      #expect(unpacked == packed)
      for (b, g) in zip(matches, fields) {
        let byFields = (f.4, f.2, f.3, f.0, f.1) < (g.4, g.2, g.3, g.0, g.1)
        #expect((a < b) == byFields)
      }
    }
    var changed = matches[4]
    changed.matchClass = 1
    changed.end = 7
    #expect(changed == Match(start: 2, end: 7, matchClass: 1, readingClass: 1))
  }

  @Test func bestMatchScratchKeepsEachPlacesMinimumAcrossResets() {
    let scratch = BestMatchScratch(placeCount: 10)
    scratch.reset()
    scratch.offer(3, Match(bits: 9))
    scratch.offer(3, Match(bits: 4))
    scratch.offer(7, Match(bits: 5))
    var seen: [Int: UInt32] = [:]
    scratch.forEachBest { seen[$0] = $1.bits }
    #expect(seen == [3: 4, 7: 5])
    scratch.reset()
    scratch.offer(3, Match(bits: 8))
    seen = [:]
    scratch.forEachBest { seen[$0] = $1.bits }
    #expect(seen == [3: 8])
  }

  /// The trie's packed facts of each place are the corpus's own, the initials' flag read from
  /// the corpus's unit initials; computed in parts or in one pass, and on another core, alike.
  @Test func placeFactsAreTheCorpusFacts() {
    let corpus = Fixtures.cities
    let facts = PlaceFacts(corpus: corpus)
    var wrong: [String] = []
    for place in 0..<corpus.count {
      let f = facts[place]
      let short = corpus.shortNameUnitCount(at: place)
      let shortPinyin = short > 0 ? corpus.pinyinUnitEnds(at: place)[corpus.unitStart(at: place) + short - 1] : 0
      let expected = [
        corpus.unitStart(at: place), corpus.unitCount(at: place), short, corpus.joinedPinyinCount(at: place),
        Int(shortPinyin), corpus.unitInitials(at: place).allSatisfy { $0 != nil } ? 1 : 0,
      ]
      let found = [
        f.unitStart, f.unitCount, f.shortUnitCount, f.joinedPinyinCount, f.shortPinyinCount,
        f.everyUnitHasInitial ? 1 : 0,
      ]
      if found != expected { wrong.append("\(corpus.name(at: place)): \(found) against \(expected)") }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    let once = PlaceFacts(corpus: corpus, concurrently: false)
    let background = BackgroundResult { PlaceFacts(corpus: corpus, concurrently: false) }.value
    #expect((0..<corpus.count).allSatisfy { once[$0].word == facts[$0].word && background[$0].word == facts[$0].word })
  }

  /// The trie builder's table holds what a dictionary holds, through many doublings and keys
  /// that share their low or high bits (a node's edges, one label under many nodes).
  @Test func integerKeyTableMatchesADictionary() {
    var random = SplitMix64(seed: 7)
    var table = IntegerKeyTable(expected: 1)
    var reference: [UInt64: Int32] = [:]
    for i in 0..<20_000 {
      let key: UInt64 =
        switch i % 3 {
        case 0: random.next() % 1_000_000
        case 1: (random.next() % 5_000) << 24 | 17
        default: 42 << 24 | random.next() % 6_000
        }
      var made = false
      let value = table.value(for: key) {
        made = true
        return Int32(i)
      }
      #expect(made == (reference[key] == nil))
      if made { reference[key] = Int32(i) }
      #expect(value == reference[key])
    }
    #expect(table.count == reference.count)
    for (key, value) in reference { #expect(table.value(for: key) == value) }
    #expect(table.value(for: 1 << 50) == nil)
  }

  @Test func icuOutputIsReadBackPerUnit() {
    func units(_ s: String) -> ArraySlice<UInt32> {
      s.unicodeScalars.map { $0.value >= 0x41 && $0.value <= 0x5A ? $0.value + 0x20 : $0.value }[...]
    }
    #expect(PinyinTransliterator.readings(of: "zhang sha shi", units: units("长沙市")) == ["zhang", "sha", "shi"])
    #expect(PinyinTransliterator.readings(of: "12hao cun", units: units("12号村")) == ["1", "2", "hao", "cun"])
    #expect(PinyinTransliterator.readings(of: "A cun B2", units: units("A村B2")) == ["a", "cun", "b", "2"])
    #expect(PinyinTransliterator.readings(of: "a . b", units: units("a·b")) == ["a", "·", "b"])
    #expect(PinyinTransliterator.readings(of: "zhang 沙", units: units("长沙")) == nil)
    #expect(PinyinTransliterator.readings(of: "zhang sha shi extra", units: units("长沙市")) == nil)
    #expect(PinyinTransliterator.quoted("it's") == "'it''s'")
  }

  @Test func overrideRulesMakeICUReadTheCorpusPinyin() throws {
    let corpus = Fixtures.cities
    let fixed = try PinyinTransliterator(corpus: corpus, raw: false)
    let raw = try PinyinTransliterator(corpus: corpus, raw: true)
    #expect(try raw.transliterate("长沙市") == "zhang sha shi")
    #expect(try fixed.transliterate("长沙市") == "chang sha shi")
    // Rules are anchored to whole names: a longer text is read by plain ICU.
    #expect(try fixed.transliterate("长沙市区") == "zhang sha shi qu")
    #expect(fixed.rules.contains("^'长沙市'$ > 'chang sha shi';"))
  }

  @Test func sqliteErrorsNameTheStatementAndSQLitesMessage() throws {
    let database = try SQLiteDatabase()
    #expect {
      try database.execute("SELEC 1")
    } throws: { error in
      let description = String(describing: error)
      return description.contains("SELEC 1") && description.contains("syntax error")
    }
    try database.execute("CREATE VIRTUAL TABLE t USING fts5(a, tokenize = 'trigram')")
    let insert = try database.prepare("INSERT INTO t(rowid, a) VALUES (?, ?)")
    try insert.run([7, "beijingshi"])
    var rows: [Int64] = []
    try database.prepare("SELECT rowid FROM t WHERE t MATCH ?").forEachInteger(["\"ijing\""]) { rows.append($0) }
    #expect(rows == [7])
  }
}

/// The expected-failures file and the query sets of `citybench conform`.
@Suite(.timed) struct ConformanceSupportTests {
  func write(_ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("expected-\(UUID()).tsv").path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func expectedFailuresAreReadAndMatchedBySignature() throws {
    let path = try write("\(ExpectedFailures.header)\nicu-raw\t430100\t长沙市\tplain ICU reads zhang\n")
    let expected = try ExpectedFailures(contentsOf: path)
    let result = SearchResult(normalized: NormalizedQuery(tokens: [0x61]), mode: .syllable, total: 0, hits: [])
    let other = SearchResult(normalized: NormalizedQuery(tokens: [0x61]), mode: .syllable, total: 1, hits: [])
    let difference = try #require(ResultDifference(expected: result, actual: other))
    func divergence(_ backend: String, _ culprits: [PlaceID]) -> Divergence {
      Divergence(backend: backend, mode: .syllable, query: "a", typed: [], difference: difference, culprits: culprits)
    }
    #expect(expected.isExpected(divergence("icu-raw", [430100])))
    #expect(!expected.isExpected(divergence("icu-raw", [430100, 110000])))
    #expect(!expected.isExpected(divergence("trie", [430100])))
    #expect(!expected.isExpected(divergence("icu-raw", [])))
    #expect(expected.unexpectedPasses(backend: "icu-raw", seen: [], corpus: Fixtures.cities) == [430100])
    #expect(expected.unexpectedPasses(backend: "icu-raw", seen: [430100], corpus: Fixtures.cities).isEmpty)
  }

  @Test func malformedExpectedFailuresNameTheLine() throws {
    #expect(throws: CorpusError.self) { try ExpectedFailures(contentsOf: try write("backend\tid\n")) }
    let path = try write("\(ExpectedFailures.header)\nicu-raw\tnot-a-number\tx\ty\n")
    #expect {
      try ExpectedFailures(contentsOf: path)
    } throws: { String(describing: $0).contains("\(path):2") }
  }

  @Test func keystrokesTypeBackspaceAndRetype() {
    #expect(ConformanceQueries.keystrokes(typing: "abc") == ["a", "ab", "abc", "ab", "a", "ab", "abc"])
    #expect(ConformanceQueries.keystrokes(typing: "x") == ["x", "", "x"])
    #expect(ConformanceQueries.keystrokes(typing: "").isEmpty)
  }

  @Test func formsCoverTheInputStyles() throws {
    let corpus = Fixtures.cities
    let forms = Set(ConformanceQueries.forms(of: try #require(corpus.index(of: 430100)), in: corpus))
    for expected in ["changshashi", "chang'sha'shi", "css", "changss", "changshas", "cshas", "csshi", "长沙市", "长shashi"]
    {
      #expect(forms.contains(expected), "\(expected)")
    }
    // 长 is polyphonic: its alternate reading is typed too.
    #expect(forms.contains("zhangshashi"))
  }

  @Test func samplesAreSeededAndLargeEnough() {
    let corpus = Fixtures.cities
    let a = ConformanceQueries.sample(corpus, queries: 500, seed: 9)
    #expect(a == ConformanceQueries.sample(corpus, queries: 500, seed: 9))
    #expect(a != ConformanceQueries.sample(corpus, queries: 500, seed: 10))
    let prefixes = Set(a.flatMap { t in (1...t.count).map { String(t.prefix($0)) } })
    #expect(prefixes.count >= 500)
    #expect(a.contains { $0.unicodeScalars.contains { Hanzi.isHanzi($0.value) } })
  }
}

@Suite(.timed) struct BackendOptionsTests {
  static let declared = BackendCatalog.options

  @Test func parsesTheCommandLinesPairsAndPrintsThemBack() throws {
    #expect(try BackendOptions(parsing: "", declared: Self.declared) == BackendOptions())
    let options = try BackendOptions(
      parsing: "short-answers=false,icu-raw=true,concurrent-build=false", declared: Self.declared)
    let built = BackendOptions().setting(.icuRaw, to: true).setting(.shortAnswers, to: false)
      .setting(.concurrentBuild, to: false)
    #expect(options == built)
    #expect(options[.icuRaw] && !options[.shortAnswers] && !options[.concurrentBuild])
    #expect(options.description == "concurrent-build=false,icu-raw=true,short-answers=false")
    #expect(try BackendOptions(parsing: options.description, declared: Self.declared) == options)
    #expect(BackendOptions().description.isEmpty)
  }

  /// An option set to its default is the same as one left alone, however it was set.
  @Test func anOptionSetToItsDefaultIsNotSet() throws {
    #expect(BackendOptions().setting(.shortAnswers, to: true) == BackendOptions())
    #expect(try BackendOptions(parsing: "icu-raw=false", declared: Self.declared) == BackendOptions())
    #expect(!BackendOptions().setting(.icuRaw, to: false).isSet(BackendOption.icuRaw.declaration))
    #expect(BackendOptions().setting(.icuRaw, to: true).isSet(BackendOption.icuRaw.declaration))
  }

  /// Only the declared options parse: a backend module's option is unknown without it.
  @Test func parsesOnlyTheDeclaredOptions() {
    #expect(
      throws: BackendOptions.ParseError(message: "unknown backend option 'icu-raw' (the options are concurrent-build)")
    ) {
      _ = try BackendOptions(parsing: "icu-raw=true", declared: BackendOptionDeclaration.common)
    }
  }

  @Test(arguments: [
    (
      "colour=red",
      "unknown backend option 'colour' (the options are concurrent-build, fuzzy-answers, fuzzy-lists, icu-raw, short-answers)"
    ),
    ("icu-raw", "expected KEY=VALUE, not 'icu-raw'"),
    ("short-answers=no", "short-answers is true|false, not 'no'"),
  ])
  func refusesWhatItDoesNotKnow(_ text: String, _ message: String) {
    #expect(throws: BackendOptions.ParseError(message: message)) {
      _ = try BackendOptions(parsing: text, declared: Self.declared)
    }
  }

  @Test func shortAnswersOffStillAnswersTheSame() throws {
    let corpus = Fixtures.cities
    let with = TrieBackend(corpus: corpus)
    let without = TrieBackend(corpus: corpus, options: BackendOptions().setting(.shortAnswers, to: false))
    for query in ["b", "bj", "s", "zh", "北"] {
      #expect(with.search(query, limit: 20) == without.search(query, limit: 20), "\(query)")
    }
    #expect(with.statistics.countedBytes > without.statistics.countedBytes)
  }

  /// The short answers built on one thread (as the instruction replay builds them) are the
  /// ones built on every core, for every query they hold, in both modes.
  @Test func aBuildOnOneThreadAnswersTheSame() {
    let corpus = Fixtures.cities
    let serial = BackendOptions().setting(.concurrentBuild, to: false)
    let letters = "abcdefghijklmnopqrstuvwxyz0123456789".map(String.init)
    let queries = letters + letters.flatMap { a in letters.map { a + $0 } }
    let pairs: [(any SearchBackend, any SearchBackend)] = [
      (TrieBackend(corpus: corpus), TrieBackend(corpus: corpus, options: serial)),
      (InvertedIndexBackend(corpus: corpus), InvertedIndexBackend(corpus: corpus, options: serial)),
    ]
    for (concurrent, oneThread) in pairs {
      for mode in MatchMode.allCases {
        let differing = queries.filter {
          concurrent.search($0, mode: mode, limit: 20) != oneThread.search($0, mode: mode, limit: 20)
        }
        #expect(differing.isEmpty, "\(type(of: concurrent)) \(mode): \(differing.prefix(5))")
      }
    }
  }
}

/// A name the corpus reads two ways (by region) keeps each place's reading in the ICU
/// backends, whose transliterator sees only its input.
@Suite(.timed) struct ICUKeyedNamesTests {
  static let tsv = """
    id\tparent\tlevel\tname\tpinyin\tshort\thot
    340000\t0\t1\t安徽省\tan hui sheng\t\t0
    430000\t0\t1\t湖南省\thu nan sheng\t\t0
    340104\t340000\t4\t大圩镇\tda wei zhen\t\t0
    431129\t430000\t4\t大圩镇\tda xu zhen\t\t0
    431130\t430000\t4\t小圩镇\txiao xu zhen\t\t0
    """

  @Test func eachPlaceKeepsItsReading() throws {
    let corpus = try Fixtures.corpus(tsv: Self.tsv)
    let transliterator = try PinyinTransliterator(corpus: corpus, raw: false)
    #expect(transliterator.keyedNameCount == 1)
    #expect(transliterator.input(at: 4) == "小圩镇")
    #expect(try transliterator.transliterate(transliterator.input(at: 2)).contains("wei"))
    #expect(try transliterator.transliterate(transliterator.input(at: 3)).contains("xu"))
    let reference = LinearScanBackend(corpus: corpus)
    for backend in [try ICUCachedBackend(corpus: corpus) as any SearchBackend, try ICUBackend(corpus: corpus)] {
      for query in ["daxu", "dawei", "dx", "xu", "大圩"] {
        #expect(backend.search(query, limit: 20) == reference.search(query, limit: 20), "\(type(of: backend)) \(query)")
      }
      // The Hunan place by its canonical reading, the Anhui one after it by the alternate xu.
      #expect(backend.search("daxu", limit: 20).hits.map(\.id) == [431129, 340104])
      #expect(backend.search("dawei", limit: 20).hits.map(\.id) == [340104, 431129])
    }
  }
}
