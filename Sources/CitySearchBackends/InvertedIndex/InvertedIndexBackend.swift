import CitySearch
import CitySearchEngine

/// Precomputed posting lists: candidates come from intersecting the lists that a query's
/// tokens select, each candidate is verified with the shared `PlaceMatcher`, every match is
/// counted and the best `limit` are kept by a bounded heap.
///
/// Three families of lists, all sorted arrays of place indices:
/// - `syllable` keys: every one- to three-letter string a `syllable`-mode query can begin with
///   to match the place (see `SyllableKeyGenerator`), over canonical and alternate readings;
/// - `seed` keys: the one- to three-letter substrings of the joined canonical pinyin and of
///   the initials (MatchSpec §4.2, §4.3);
/// - Hanzi: each character of the name, for queries that contain Hanzi in either mode;
/// - aliases: every prefix of every alias (MatchSpec §8), for `syllable`-mode queries.
///
/// See docs/backends/inverted-index.md.
public struct InvertedIndexBackend: ArchivableBackend, SearchBackend, MatchSource, ShortAnswersBackend {
  public static let name = "inverted-index"
  public static let summary = "Posting lists of letter keys and Hanzi, intersected, then verified by the shared matcher"
  /// Options `short-answers`, `fuzzy-answers`, `fuzzy-lists` and `concurrent-build`.
  public static let descriptor = BackendDescriptor(
    options: [
      BackendOption.shortAnswers.declaration, BackendOption.fuzzyAnswers.declaration,
      BackendOption.fuzzyLists.declaration,
    ],
    variants: [
      .init(
        suffix: "fuzzy-answers", options: BackendOptions().setting(.fuzzyAnswers, to: true),
        summary: "with the broad answers under every fuzzy rule precomputed too"),
      .init(
        suffix: "fuzzy-lists", options: BackendOptions().setting(.fuzzyLists, to: true),
        summary: "with posting lists for queries read with fuzzy rules"),
    ])

  /// The corpus the index was built from.
  public let corpus: Corpus
  /// The shared matcher, for verifying candidates and narrowing sessions.
  public let matcher: PlaceMatcher
  /// The rank keys of the corpus's places.
  public let ranking: Ranking
  /// The answers of the broadest queries, precomputed (`ShortQueryAnswers`; option
  /// `short-answers=false` skips them).
  public private(set) var shortAnswers: ShortQueryAnswers?
  /// The answers of the broadest queries read with every fuzzy rule (option `fuzzy-answers`).
  public private(set) var fuzzyAnswers: ShortQueryAnswers?
  private let syllableLists: PostingLists
  /// The `syllable` keys of four and five letters that begin with a broad three-letter key (one
  /// whose list holds more than ``broadList`` places): the candidates of a query of four letters
  /// or more that begins with one. A later keystroke then narrows the candidates instead of
  /// verifying the three-letter list again (`jiang` verifies *jiang*'s places, not *jia*'s,
  /// *jian*'s and *jiao*'s too).
  /// Kept for a corpus of at most ``longKeysUpTo`` places.
  private let longLists: SparsePostingLists?
  /// The `syllable` keys of six letters that begin with a five-letter key of ``longLists`` whose
  /// list holds more than ``broadLongList`` places: the candidates of a query of six letters or
  /// more that begins with one (`jiangj` verifies *jiangj*'s places, not the 15,000 of
  /// *jiang*). Kept with ``longLists``.
  private let longerLists: SparsePostingLists?
  /// The `syllable` keys of every spelling a piece may match under all fuzzy rules too
  /// (MatchSpec §3.5): the candidates of a query read with any fuzzy rules (option
  /// `fuzzy-lists`; without them such a query's candidates are the places with a unit that
  /// begins with a letter its first letter may stand for).
  private let fuzzyLists: PostingLists?
  /// The same keys of four and five letters (option `fuzzy-lists`): the candidates of a query
  /// read with fuzzy rules that begins with four letters or more. Under the rules a three-letter
  /// key holds every spelling of its letters' syllables (`jia` holds *jian* and *jiang* and
  /// *jiao*), so a longer query would verify many places the rules cannot match.
  private let fuzzyLongLists: SparsePostingLists?
  private let seedLists: PostingLists
  /// The distinct Hanzi of the corpus, ascending; `hanziLists[i]` belongs to `hanzi[i]`.
  private let hanzi: ContiguousArray<UInt32>
  private let hanziLists: PostingLists
  /// Every prefix of every alias (tokens without boundary marks) → the places, ascending.
  private let aliasLists: [[UInt32]: ContiguousArray<Int32>]

  public init(corpus: Corpus, options: BackendOptions = BackendOptions()) {
    // The families that do not read the syllable lists are built on the other core meanwhile.
    let others = options[.concurrentBuild] ? BackgroundResult { OtherLists(corpus) } : nil
    let generator = SyllableKeyGenerator(syllabary: corpus.syllabary)
    func syllableKeys(_ generator: SyllableKeyGenerator, lengths: ClosedRange<Int> = 1...3) -> (
      Int, inout [Int32]
    ) -> Void {
      { place, out in
        generator.keys(readings: corpus.canonicalTokens(at: place), lengths: lengths, into: &out)
        for k in 0..<corpus.alternateCount(at: place) {
          generator.keys(readings: corpus.alternateTokens(at: place, k), lengths: lengths, into: &out)
        }
      }
    }
    // One walk gives a place's keys of one to three letters and, for the long lists, of four to
    // six: those are set aside, and kept once the shorter keys' lists say which are broad.
    let buildsLongLists = corpus.count <= Self.longKeysUpTo
    let walkedKeys = syllableKeys(generator, lengths: 1...(buildsLongLists ? Self.longerKeyLength : 3))
    var longEntries: [UInt64] = []
    var longerEntries: [UInt64] = []
    let syllableLists = PostingLists(keyCount: LetterKey.count, placeCount: corpus.count) { place, out in
      let first = out.count
      walkedKeys(place, &out)
      var kept = first
      for i in first..<out.count {
        if out[i] < LetterKey.count {
          out[kept] = out[i]
          kept += 1
        } else {
          let entry = SparsePostingLists.entry(key: out[i], place: place)
          if out[i] < LetterKey.first(ofLength: 6) {
            longEntries.append(entry)
          } else {
            longerEntries.append(entry)
          }
        }
      }
      out.removeLast(out.count - kept)
      BuildSizing.reserve(&longEntries, after: place + 1, of: corpus.count)
      BuildSizing.reserve(&longerEntries, after: place + 1, of: corpus.count)
    }
    // A long key is kept when its first three letters' list is broad.
    let broadThree = (0..<LetterKey.count).map { syllableLists[$0].count > Self.broadList }
    longEntries.removeAll { entry in
      !broadThree[Int(LetterKey.prefix(Int32(truncatingIfNeeded: entry >> 32), length: 3))]
    }
    // Sorted where they lie: handed to `init(entries:)`, which sorts a copy, each array was
    // copied whole while this one still held it (13.6 M and 7.3 M entries on `villages`).
    SparsePostingLists.sortByKey(&longEntries)
    let longLists = buildsLongLists ? SparsePostingLists(sortedEntries: longEntries) : nil
    longEntries = []
    let longerLists = longLists.flatMap { longLists -> SparsePostingLists? in
      // The broad five-letter keys, as a bitset over their values.
      let broad = longLists.keys(withMoreThan: Self.broadLongList).filter {
        $0 >= LetterKey.first(ofLength: 5) && LetterKey.extensible($0)
      }
      guard let last = broad.last else { return nil }
      var broadFive = [UInt64](repeating: 0, count: Int(last) / 64 + 1)
      for key in broad { broadFive[Int(key) >> 6] |= 1 << UInt64(key & 63) }
      longerEntries.removeAll { entry in
        let five = Int(LetterKey.prefix(Int32(truncatingIfNeeded: entry >> 32), length: 5))
        return five >> 6 >= broadFive.count || broadFive[five >> 6] & 1 << UInt64(five & 63) == 0
      }
      SparsePostingLists.sortByKey(&longerEntries)
      return SparsePostingLists(sortedEntries: longerEntries)
    }
    longerEntries = []
    let fuzzyLists =
      options[.fuzzyLists]
      ? PostingLists(
        keyCount: LetterKey.count, placeCount: corpus.count,
        keys: syllableKeys(SyllableKeyGenerator(syllabary: corpus.syllabary, fuzzy: .all))) : nil
    let fuzzyLongLists =
      options[.fuzzyLists]
      ? SparsePostingLists(
        placeCount: corpus.count,
        keys: syllableKeys(SyllableKeyGenerator(syllabary: corpus.syllabary, fuzzy: .all), lengths: Self.longKeyLengths)
      )
      : nil
    let other = others?.value ?? OtherLists(corpus)
    self.init(
      corpus: corpus, syllableLists: syllableLists, longLists: longLists, longerLists: longerLists,
      fuzzyLists: fuzzyLists,
      fuzzyLongLists: fuzzyLongLists, seedLists: other.seedLists, hanzi: other.hanzi, hanziLists: other.hanziLists,
      aliasLists: other.aliasLists)
    if options[.shortAnswers] {
      shortAnswers = ShortQueryAnswers(source: self, concurrently: options[.concurrentBuild])
    }
    if options[.fuzzyAnswers] {
      fuzzyAnswers = ShortQueryAnswers(source: self, concurrently: options[.concurrentBuild], fuzzy: .all)
    }
  }

  /// The lists of `seed` keys, Hanzi and aliases: built apart from the `syllable` keys' lists,
  /// which they do not read.
  private struct OtherLists: Sendable {
    let seedLists: PostingLists
    let hanzi: ContiguousArray<UInt32>
    let hanziLists: PostingLists
    let aliasLists: [[UInt32]: ContiguousArray<Int32>]

    init(_ corpus: Corpus) {
      seedLists = PostingLists(keyCount: LetterKey.count, placeCount: corpus.count) { place, out in
        let pinyin = corpus.joinedPinyin(at: place)
        let initials = corpus.initials(at: place)
        for text in [Array(pinyin), initials] {
          for start in text.indices {
            var key: Int32 = 0
            for c in text[start..<min(start + 3, text.endIndex)] {
              key = LetterKey.appending(key, UInt32(c))
              out.append(key)
            }
          }
        }
      }
      var distinct = Set<UInt32>()
      for place in 0..<corpus.count {
        for unit in corpus.units(at: place) where Hanzi.isHanzi(unit) { distinct.insert(unit) }
      }
      let hanzi = ContiguousArray(distinct.sorted())
      self.hanzi = hanzi
      hanziLists = PostingLists(keyCount: hanzi.count, placeCount: corpus.count) { place, out in
        for unit in corpus.units(at: place) where Hanzi.isHanzi(unit) {
          out.append(Int32(InvertedIndexBackend.position(of: unit, in: hanzi)!))
        }
      }
      var aliasLists: [[UInt32]: ContiguousArray<Int32>] = [:]
      for place in 0..<corpus.count where corpus.hasAliases(at: place) {
        for k in 0..<corpus.aliasCount(at: place) {
          let alias = Array(corpus.aliasTokens(at: place, k))
          for length in 1...alias.count where aliasLists[Array(alias[..<length]), default: []].last != Int32(place) {
            aliasLists[Array(alias[..<length]), default: []].append(Int32(place))
          }
        }
      }
      self.aliasLists = aliasLists
    }
  }

  /// The index of lists already built (or read from an index file), without precomputed answers.
  private init(
    corpus: Corpus, syllableLists: PostingLists, longLists: SparsePostingLists?, longerLists: SparsePostingLists?,
    fuzzyLists: PostingLists?,
    fuzzyLongLists: SparsePostingLists?, seedLists: PostingLists, hanzi: ContiguousArray<UInt32>,
    hanziLists: PostingLists, aliasLists: [[UInt32]: ContiguousArray<Int32>]
  ) {
    self.corpus = corpus
    self.matcher = PlaceMatcher(corpus: corpus)
    self.ranking = Ranking(corpus: corpus)
    self.syllableLists = syllableLists
    self.longLists = longLists
    self.longerLists = longerLists
    self.fuzzyLists = fuzzyLists
    self.fuzzyLongLists = fuzzyLongLists
    self.seedLists = seedLists
    self.hanzi = hanzi
    self.hanziLists = hanziLists
    self.aliasLists = aliasLists
  }

  /// Writes the lists, the Hanzi table, the aliases' lists and the precomputed answers
  /// (`IndexFile` adds the corpus): ``init(reading:corpus:)`` reads them back.
  public func archive(into writer: inout ArchiveWriter) {
    syllableLists.archive(into: &writer)
    for sparse in [longLists, longerLists, fuzzyLongLists] { writer.optional(sparse) { $0.archive(into: &$1) } }
    writer.optional(fuzzyLists) { $0.archive(into: &$1) }
    seedLists.archive(into: &writer)
    writer.table(hanzi)
    hanziLists.archive(into: &writer)
    let aliases = aliasLists.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    writer.integer(UInt64(aliases.count))
    for (prefix, places) in aliases {
      writer.table(prefix)
      writer.table(places)
    }
    ShortQueryAnswers.archive(shortAnswers, fuzzy: fuzzyAnswers, into: &writer)
  }

  /// The index ``archive(into:)`` wrote for `corpus`, checked list by list (keys in range,
  /// places of the corpus, the Hanzi ascending and distinct): ready without building.
  ///
  /// - Throws: `ArchiveError` naming the first table that is cut or holds what cannot be.
  public init(reading reader: inout ArchiveReader, corpus: Corpus) throws(ArchiveError) {
    let places = corpus.count
    let syllableLists = try PostingLists(
      reading: &reader, keyCount: LetterKey.count, placeCount: places, table: "the syllable lists")
    var sparse: [SparsePostingLists?] = []
    for table in ["the long keys' lists", "the longer keys' lists", "the fuzzy long keys' lists"] {
      sparse.append(
        try reader.optional(table) { (reader) throws(ArchiveError) in
          try SparsePostingLists(reading: &reader, placeCount: places, table: table)
        })
    }
    let fuzzyLists = try reader.optional("the fuzzy lists") { (reader) throws(ArchiveError) in
      try PostingLists(reading: &reader, keyCount: LetterKey.count, placeCount: places, table: "the fuzzy lists")
    }
    let seedLists = try PostingLists(
      reading: &reader, keyCount: LetterKey.count, placeCount: places, table: "the seed lists")
    let hanzi: ContiguousArray<UInt32> = try reader.table("the Hanzi table")
    try reader.require(hanzi.isStrictlyIncreasing, "the Hanzi table")
    let hanziLists = try PostingLists(
      reading: &reader, keyCount: hanzi.count, placeCount: places, table: "the Hanzi lists")
    let aliasCount: UInt64 = try reader.integer("the aliases' lists")
    var aliasLists: [[UInt32]: ContiguousArray<Int32>] = [:]
    for _ in 0..<aliasCount {
      let prefix: ContiguousArray<UInt32> = try reader.table("the aliases' lists")
      let list: ContiguousArray<Int32> = try reader.table("the aliases' lists")
      try reader.require(list.allLie(in: 0..<places) && aliasLists[Array(prefix)] == nil, "the aliases' lists")
      aliasLists[Array(prefix)] = list
    }
    let answers = try ShortQueryAnswers.readPair(from: &reader, placeCount: places)
    self.init(
      corpus: corpus, syllableLists: syllableLists, longLists: sparse[0], longerLists: sparse[1],
      fuzzyLists: fuzzyLists, fuzzyLongLists: sparse[2], seedLists: seedLists, hanzi: hanzi, hanziLists: hanziLists,
      aliasLists: aliasLists)
    (shortAnswers, fuzzyAnswers) = answers
  }

  /// An index over `corpus` whose precomputed answers are `shortAnswers`, read from a file
  /// (`ShortQueryAnswers(fileData:corpus:)`) rather than computed.
  public init(corpus: Corpus, options: BackendOptions = BackendOptions(), shortAnswers: ShortQueryAnswers) {
    self.init(corpus: corpus, options: options.setting(.shortAnswers, to: false))
    self.shortAnswers = shortAnswers
  }

  private static func position<T: Comparable>(of value: T, in sorted: ContiguousArray<T>) -> Int? {
    let low = firstPosition(notBelow: value, in: sorted)
    return low < sorted.count && sorted[low] == value ? low : nil
  }

  /// The posting lists, the Hanzi table and the ranking table.
  public var statistics: IndexStatistics {
    IndexStatistics(
      countedBytes: syllableLists.byteCount + (longLists?.byteCount ?? 0) + (longerLists?.byteCount ?? 0)
        + (fuzzyLists?.byteCount ?? 0)
        + (fuzzyLongLists?.byteCount ?? 0)
        + seedLists.byteCount + hanziLists.byteCount
        + hanzi
        .count * 4
        + aliasLists.reduce(0) { $0 + 16 + $1.key.count * 4 + $1.value.count * 4 } + corpus.count * 8
        + (shortAnswers?.byteCount ?? 0) + (fuzzyAnswers?.byteCount ?? 0),
      notes: [
        "postings": String(
          syllableLists.entryCount + (longLists?.entryCount ?? 0) + (longerLists?.entryCount ?? 0)
            + (fuzzyLists?.entryCount ?? 0)
            + (fuzzyLongLists?.entryCount ?? 0)
            + seedLists.entryCount + hanziLists.entryCount),
        "distinct Hanzi": String(hanzi.count),
        "bitsets": String(
          syllableLists.bitsetCount + (fuzzyLists?.bitsetCount ?? 0) + seedLists.bitsetCount + hanziLists.bitsetCount),
        "longer answers": String(shortAnswers?.longerCount ?? 0),
      ])
  }

  /// The lists whose intersection holds every match of `query` (each a necessary condition),
  /// or `nil` when some list is empty or unknown: then nothing matches.
  private func lists(for query: PlaceMatcher.PreparedQuery, mode: MatchMode) -> [PostingList]? {
    let needle = query.needle
    var lists: [PostingList] = []
    // Every Hanzi of the query is a unit of the name, in both modes (each distinct one's list
    // once; a query of letters alone, most keystrokes, builds no set).
    if query.query.hasHanzi {
      for unit in Set(needle) where !Hanzi.isLatin(unit) {
        guard let position = Self.position(of: unit, in: hanzi) else { return nil }
        lists.append(hanziLists[position])
      }
    }
    let leadingLatin = needle.prefix { Hanzi.isLatin($0) }
    switch mode {
    case .syllable:
      if !leadingLatin.isEmpty {
        let key = Int(LetterKey.of(leadingLatin.prefix(3)))
        let rules = query.query.fuzzy
        if rules.isEmpty {
          lists.append(syllableList(leadingLatin))
        } else if let fuzzyLists, let fuzzyLongLists {
          lists.append(
            leadingLatin.count < Self.longKeyLengths.lowerBound
              ? fuzzyLists[key]
              : PostingList(fuzzyLongLists[LetterKey.of(leadingLatin.prefix(Self.longKeyLengths.upperBound))]))
        } else {
          lists.append(firstLetterCandidates(leadingLatin.first!, rules: rules))
        }
      }
    case .seed:
      if !query.query.hasHanzi {
        if needle.count <= 3 {
          lists.append(seedLists[Int(LetterKey.of(needle))])
        } else {
          // Every trigram of the needle occurs in whichever string holds the needle, and the
          // lists cover both strings. One empty list ends the search; of the others, the
          // shortest few distinct ones are kept in one pass (a periodic query `xianxian…` of
          // 13,000 letters has four distinct trigrams; 7,600 random letters end at an empty one).
          var shortest: [(key: Int, list: PostingList)] = []
          shortest.reserveCapacity(Self.mostLists + 1)
          for start in 0...(needle.count - 3) {
            let key = Int(LetterKey.of(needle[start..<start + 3]))
            let list = seedLists[key]
            if list.isEmpty { return nil }
            guard shortest.count < Self.mostLists || list.count < shortest[shortest.count - 1].list.count,
              !shortest.contains(where: { $0.key == key })
            else { continue }
            let at = shortest.firstIndex { $0.list.count > list.count } ?? shortest.count
            shortest.insert((key, list), at: at)
            if shortest.count > Self.mostLists { shortest.removeLast() }
          }
          lists += shortest.map(\.list)
        }
      }
    }
    if lists.contains(where: \.isEmpty) { return nil }
    // Any of the conditions gives a superset that the matcher then verifies: the shortest few
    // bound the intersection's cost however long the query is.
    if lists.count > Self.mostLists {
      lists.sort { $0.count < $1.count }
      lists.removeLast(lists.count - Self.mostLists)
    }
    return lists
  }

  /// The list of the longest key that `letters` (a query's leading letters and digits, read
  /// without fuzzy rules) begins with: of three letters, of up to five in ``longLists`` when its
  /// first three's list is broad, of six in ``longerLists`` when its first five's is.
  ///
  /// - Complexity: O(log K) for the K keys of the long lists.
  private func syllableList(_ letters: ArraySlice<UInt32>) -> PostingList {
    let key = Int(LetterKey.of(letters.prefix(3)))
    guard letters.count >= Self.longKeyLengths.lowerBound, syllableLists[key].count > Self.broadList,
      let longLists
    else { return syllableLists[key] }
    let five = longLists[LetterKey.of(letters.prefix(Self.longKeyLengths.upperBound))]
    if let six = longerKey(letters, fiveCount: five.count) { return PostingList(longerLists![six]) }
    return PostingList(five)
  }

  /// The key of `letters`' first six in ``longerLists`` when that holds the keys of their first
  /// five (more than ``broadLongList`` places): `nil` for fewer letters or another first five.
  /// `fiveCount` is the size of their first five's list, when the caller has it.
  private func longerKey(_ letters: ArraySlice<UInt32>, fiveCount: Int? = nil) -> Int32? {
    guard letters.count >= Self.longerKeyLength, let longLists, longerLists != nil else { return nil }
    let five = LetterKey.of(letters.prefix(Self.longKeyLengths.upperBound))
    guard LetterKey.extensible(five), (fiveCount ?? longLists[five].count) > Self.broadLongList else { return nil }
    return LetterKey.appending(five, letters[letters.startIndex + Self.longKeyLengths.upperBound])
  }

  /// The places with a unit that begins with `letter` or with a letter it may stand for under
  /// `rules` (``MatchRules/fuzzyFirstLetters(typedAs:rules:)``): the union of their one-letter
  /// lists, a superset of the matches of a query that begins with `letter` read with `rules`.
  ///
  /// - Complexity: O(n + P / 64) for the n places of at most three lists over P places: their
  ///   union as a bitset.
  private func firstLetterCandidates(_ letter: UInt32, rules: FuzzyRules) -> PostingList {
    guard letter >= 0x61 && letter <= 0x7A else { return syllableLists[Int(LetterKey.of(CollectionOfOne(letter)))] }
    var letters = MatchRules.fuzzyFirstLetters(typedAs: UInt8(letter), rules: rules)
    let union = IntegerTable<UInt64>(count: (corpus.count + 63) / 64) { words in
      while letters != 0 {
        let list = syllableLists[Int(LetterKey.of(CollectionOfOne(UInt32(0x61 + letters.trailingZeroBitCount))))]
        letters &= letters - 1
        for place in list { words[Int(place) >> 6] |= 1 << UInt64(place & 63) }
      }
    }
    return PostingList(bits: union)
  }

  /// The lengths of the keys of ``longLists`` and ``fuzzyLongLists``.
  static let longKeyLengths = 4...5

  /// The length of the keys of ``longerLists``.
  static let longerKeyLength = 6

  /// A five-letter key of ``longLists`` whose list holds more places than this has its six-letter
  /// keys in ``longerLists``: a fresh search then verifies at most about this many candidates
  /// (some 300 ns each on `villages` in the bench, where `jiangj`, verifying *jiang*'s 15,000
  /// places, took 4 ms).
  static let broadLongList = 1_024

  /// A three-letter key whose list holds more places than this has its four- and five-letter
  /// keys in ``longLists``: as many as an answer keeps. At 256 a query such as `shann` on
  /// `cities` verified `sha`'s list at each keystroke (338,000 instructions); at 32 the
  /// workloads' instructions fell 13 % on `cities` (p99 −41 %) and 4.5 % on `towns` (p99 −21 %) for
  /// 0.1 MB and 1.5 MB of lists (7.6 MB on `villages`); at 16 they fell no further
  /// (docs/backends/inverted-index.md).
  static let broadList = 32

  /// The largest corpus that gets ``longLists``. On `villages` (642,626 places) nearly every
  /// three-letter key is broad, and the long keys add 45 MB: with the dense lists as bitsets the
  /// index keeps 123 MB with them (144 MB without them and without bitsets), under the 150 MB an
  /// app may spend on it; a corpus half as large again would pass it (docs/backends/inverted-index.md).
  static let longKeysUpTo = 1_000_000

  /// The most posting lists one query intersects.
  static let mostLists = 8

  /// - Complexity: O(s · log L) to intersect lists (s the shortest), then one matcher call per
  ///   candidate; all places when the query selects no list (a query of boundary marks only is
  ///   empty, so this does not happen for a non-empty query).
  public func forEachMatch(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode, _ body: (Int, Match) -> Void) {
    let candidates = self.candidates(query, mode: mode, withExactness: false)
    matcher.withPlaces { places in candidates.forEachMatch(query, mode: mode, places: places, body) }
  }

  /// The intersection of the query's lists (`lists(for:mode:)`), and the places with an alias that begins
  /// with the query verified apart: the matcher reports a place's best match, by name or by
  /// alias, so each is verified once.
  public func postingCandidates(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode) -> PostingCandidates? {
    candidates(query, mode: mode, withExactness: true)
  }

  /// The candidates of `query`; told whether they are exact (``listsAreExact(_:mode:)``) only
  /// `withExactness`: the precomputed answers count such lists, a search verifies every
  /// candidate anyway.
  private func candidates(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode, withExactness: Bool)
    -> PostingCandidates
  {
    PostingCandidates(
      lists: lists(for: query, mode: mode), apart: aliasPlaces(query, mode: mode), placeCount: corpus.count,
      isExact: withExactness && listsAreExact(query, mode: mode))
  }

  /// Whether ``lists(for:mode:)`` gives `query` one list that holds exactly the places whose
  /// name matches it: a query of one character that is not a letter or digit (its list holds
  /// the names with that unit, MatchSpec §3.1 and §4.1); in `syllable` mode without fuzzy
  /// rules, letters and digits that are a whole key (a place's keys are the strings its runs
  /// begin with, §3, so a query that is one of them matches); in `seed` mode, at most three
  /// letters or digits (the key is the needle, and its list the names whose pinyin or initials
  /// hold it, §4.2 and §4.3). Never with a boundary mark.
  private func listsAreExact(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode) -> Bool {
    let tokens = query.query.tokens
    guard !tokens.isEmpty, tokens.count == query.needle.count else { return false }
    if tokens.count == 1 && !Hanzi.isLatin(tokens[0]) { return true }
    guard tokens.allSatisfy(Hanzi.isLatin) else { return false }
    switch mode {
    case .syllable:
      guard query.query.fuzzy.isEmpty else { return false }
      return tokens.count <= 3
        || tokens.count <= Self.longKeyLengths.upperBound && longLists != nil
          && syllableLists[Int(LetterKey.of(tokens.prefix(3)))].count > Self.broadList
        || tokens.count == Self.longerKeyLength && longerKey(tokens[...]) != nil
    case .seed:
      return tokens.count <= 3
    }
  }

  /// The places with an alias that begins with the query (`syllable` mode only), or `nil`.
  private func aliasPlaces(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode) -> ContiguousArray<Int32>? {
    mode == .syllable && !aliasLists.isEmpty ? aliasLists[query.needle] : nil
  }

  public func candidateEstimate(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode) -> Int {
    (lists(for: query, mode: mode)?.map(\.count).min() ?? 0) + (aliasPlaces(query, mode: mode)?.count ?? 0)
  }

  public func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int, scope: PlaceScope) -> SearchResult {
    rankedSearch(query, mode: mode, limit: limit, scope: scope)
  }

  /// A typing session: each keystroke narrows the previous one's matches (`Narrowing`).
  public func makeSession(mode: MatchMode, limit: Int, scope: PlaceScope, fuzzy: FuzzyRules) -> InvertedIndexSession {
    InvertedIndexSession(narrowing: Narrowing(source: self, mode: mode, limit: limit, scope: scope, fuzzy: fuzzy))
  }
}

/// The typing session of `inverted-index`: it narrows the previous keystroke's matches with the
/// shared matcher when they are fewer than the shortest posting list a fresh search would
/// verify, and keeps one list per keystroke for backspaces (`Narrowing`).
public struct InvertedIndexSession: SearchSession {
  var narrowing: Narrowing<InvertedIndexBackend>

  /// The answer to the box's current text.
  public mutating func update(_ text: String) -> SearchResult { narrowing.update(text) }
}
