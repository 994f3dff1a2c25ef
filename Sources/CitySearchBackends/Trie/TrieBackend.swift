import CitySearch
import CitySearchEngine

/// Walks a suffix trie of the names' reading sequences (`PinyinSuffixTrie`) with the query:
/// in `syllable` mode the walk branches over the pieces a query can be split into (MatchSpec §3),
/// in `seed` mode it follows the name's units, the joined pinyin and the initials (§4). A query
/// without Hanzi walks a trie whose edges are readings, one per syllable however many Hanzi read
/// so; a query with Hanzi, one whose edges are (Hanzi, reading) pairs. Every
/// suffix below the node where the query ends is a match whose range is known from the walk, so
/// matches are collected without re-running the matcher, reduced to each place's best, counted
/// and ranked with the shared ranking.
///
/// See docs/backends/trie.md.
public struct TrieBackend: SearchBackend, MatchSource, ShortAnswersBackend, ArchivableBackend {
  public static let name = "trie"
  public static let summary = "Suffix trie of reading sequences; matches collected from the walk"
  /// Options `short-answers`, `fuzzy-answers` and `concurrent-build`.
  public static let descriptor = BackendDescriptor(
    options: [BackendOption.shortAnswers.declaration, BackendOption.fuzzyAnswers.declaration],
    variants: [
      .init(
        suffix: "fuzzy-answers", options: BackendOptions().setting(.fuzzyAnswers, to: true),
        summary: "with the broad answers under every fuzzy rule precomputed too")
    ])

  /// The corpus the trie was built from.
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
  /// The trie whose edges are (unit, reading) pairs, walked by a query with Hanzi.
  let trie: PinyinSuffixTrie
  /// The trie whose edges are readings (``PinyinSuffixTrie/Labels/readings``), walked by a
  /// query without Hanzi: `c` branches over the 35 syllables that begin with it rather than over
  /// every Hanzi read so.
  let readingTrie: PinyinSuffixTrie
  /// The aliases, in a trie of their own (MatchSpec §8).
  let aliases: AliasTrie
  /// Token spellings, flattened: token t is `spellingBytes[spellingStarts[t]..<spellingStarts[t + 1]]`,
  /// of kind `Syllabary.Kind(rawValue: kinds[t])`.
  private let spellingBytes: IntegerTable<UInt8>
  private let spellingStarts: IntegerTable<Int32>
  private let kinds: IntegerTable<UInt8>
  /// What a walk reads of a place for each posting, one word per place.
  private let placeFacts: PlaceFacts
  /// The labels of each Hanzi, for Hanzi in queries.
  private let hanziLabels: [UInt32: [Int32]]
  private let scratch: BestMatchScratchPool

  public init(corpus: Corpus, options: BackendOptions = BackendOptions()) {
    // The two tries at once, each on a core of its own.
    let tries = ConcurrentResults.map(count: 2, concurrently: options[.concurrentBuild]) { i in
      PinyinSuffixTrie(corpus: corpus, labels: i == 0 ? .unitsAndReadings : .readings)
    }
    self.init(
      corpus: corpus, trie: tries[0], readingTrie: tries[1], aliases: AliasTrie(corpus: corpus),
      placeFacts: PlaceFacts(corpus: corpus, concurrently: options[.concurrentBuild]))
    if options[.shortAnswers] {
      shortAnswers = ShortQueryAnswers(source: self, concurrently: options[.concurrentBuild])
    }
    if options[.fuzzyAnswers] {
      fuzzyAnswers = ShortQueryAnswers(source: self, concurrently: options[.concurrentBuild], fuzzy: .all)
    }
  }

  /// The backend over tries already built (or read from an index file), without precomputed
  /// answers: the tables the walk reads are derived from them and the corpus.
  private init(
    corpus: Corpus, trie: PinyinSuffixTrie, readingTrie: PinyinSuffixTrie, aliases: AliasTrie, placeFacts: PlaceFacts
  ) {
    self.corpus = corpus
    self.matcher = PlaceMatcher(corpus: corpus)
    self.ranking = Ranking(corpus: corpus)
    self.trie = trie
    self.readingTrie = readingTrie
    self.aliases = aliases
    var bytes = ContiguousArray<UInt8>()
    var starts = ContiguousArray<Int32>([0])
    for spelling in corpus.syllabary.spellings {
      bytes += spelling
      starts.append(Int32(bytes.count))
    }
    spellingBytes = IntegerTable(bytes)
    spellingStarts = IntegerTable(starts)
    kinds = IntegerTable(corpus.syllabary.kinds.lazy.map(\.rawValue))
    self.placeFacts = placeFacts
    var hanziLabels: [UInt32: [Int32]] = [:]
    for (label, unit) in trie.labelUnits.enumerated() where Hanzi.isHanzi(unit) {
      hanziLabels[unit, default: []].append(Int32(label))
    }
    self.hanziLabels = hanziLabels
    scratch = BestMatchScratchPool(placeCount: corpus.count)
  }

  /// A trie over `corpus` whose precomputed answers are `shortAnswers`, read from a file
  /// (`ShortQueryAnswers(fileData:corpus:)`) rather than computed: the build then costs the
  /// trie alone (`villages`: about 1.5 s instead of 16).
  public init(corpus: Corpus, options: BackendOptions = BackendOptions(), shortAnswers: ShortQueryAnswers) {
    self.init(corpus: corpus, options: options.setting(.shortAnswers, to: false))
    self.shortAnswers = shortAnswers
  }

  /// Writes the tries and the precomputed answers (`IndexFile` adds the corpus):
  /// ``init(reading:corpus:)`` reads them back.
  public func archive(into writer: inout ArchiveWriter) {
    trie.archive(into: &writer)
    readingTrie.archive(into: &writer)
    aliases.archive(into: &writer)
    ShortQueryAnswers.archive(shortAnswers, fuzzy: fuzzyAnswers, into: &writer)
  }

  /// The backend ``archive(into:)`` wrote for `corpus`, checked table by table: ready without
  /// building anything but the walk's small tables (`villages`: milliseconds, not seconds).
  ///
  /// - Throws: `ArchiveError` naming the first table that is cut or holds what cannot be.
  public init(reading reader: inout ArchiveReader, corpus: Corpus) throws(ArchiveError) {
    // Derived from the corpus on the other core while this one checks the file's tables.
    let placeFacts = BackgroundResult { PlaceFacts(corpus: corpus, concurrently: false) }
    let trie = try PinyinSuffixTrie(reading: &reader, corpus: corpus)
    let readingTrie = try PinyinSuffixTrie(reading: &reader, corpus: corpus)
    let aliases = try AliasTrie(reading: &reader, corpus: corpus)
    let answers = try ShortQueryAnswers.readPair(from: &reader, placeCount: corpus.count)
    self.init(corpus: corpus, trie: trie, readingTrie: readingTrie, aliases: aliases, placeFacts: placeFacts.value)
    (shortAnswers, fuzzyAnswers) = answers
  }

  /// The tries, the tables the walk reads and the ranking table.
  public var statistics: IndexStatistics {
    IndexStatistics(
      countedBytes: trie.byteCount + readingTrie.byteCount + aliases.byteCount + spellingBytes.count + spellingStarts
        .count * 4 + corpus.count
        * 8
        + hanziLabels.reduce(0) { $0 + 16 + $1.value.count * 4 } + placeFacts.byteCount + (shortAnswers?.byteCount ?? 0)
        + (fuzzyAnswers?.byteCount ?? 0),
      notes: [
        "nodes": String(trie.nodeCount), "postings": String(trie.postings.count),
        "reading nodes": String(readingTrie.nodeCount),
        "labels": String(trie.labelUnits.count),
        "longer answers": String(shortAnswers?.longerCount ?? 0),
      ])
  }

  /// - Complexity: O(w + s) for the w trie edges the walk tries and the s suffixes below the
  ///   nodes where it ends, plus O(p) to report the p matching places.
  public func forEachMatch(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode, _ body: (Int, Match) -> Void) {
    // A query without Hanzi compares no Hanzi: the Hanzi read alike are one edge to it.
    let trie = query.query.hasHanzi ? self.trie : readingTrie
    scratch.withScratch { scratch in
      query.query.tokens.withUnsafeBufferPointer { tokens in
        switch mode {
        case .syllable:
          if query.query.fuzzy.isEmpty {
            Walk<OwnSpellings>(
              backend: self, trie: trie, tokens: tokens, needle: query.needle, scratch: scratch, fuzzy: []
            )
            .syllable(node: 0, q: 0, depth: 0, abbreviated: false, fuzzy: false)
          } else {
            Walk<FuzzySpellingsToo>(
              backend: self, trie: trie, tokens: tokens, needle: query.needle, scratch: scratch,
              fuzzy: query.query.fuzzy
            ).syllable(node: 0, q: 0, depth: 0, abbreviated: false, fuzzy: false)
          }
          aliases.forEachAlias(startingWith: query.needle) { place, whole in
            scratch.offer(
              place,
              Match(
                start: 0, end: corpus.unitCount(at: place), matchClass: whole ? 0 : 1, readingClass: 1,
                spellingClass: whole ? 0 : 1))
          }
        case .seed:
          Walk<OwnSpellings>(
            backend: self, trie: trie, tokens: tokens, needle: query.needle, scratch: scratch, fuzzy: []
          )
          .seed(latin: query.query.hasHanzi == false)
        }
      }
      scratch.forEachBest(body)
    }
  }

  /// The trie cannot tell its cost before walking; sessions narrow lists up to this size and
  /// walk afresh past it. A walk only visits the new query's own matches, so re-verifying a
  /// longer previous list costs more: at 100 instead of 20,000, the instructions of the
  /// committed workloads (`citybench instructions --corpus TIER --backends trie`) fell by 10%
  /// on `cities`, 27% on `towns` and 30% on `villages`, and their p99 by 24%, 47% and 16%.
  /// Since a query of letters walks the trie of readings, a `syllable` walk costs less than
  /// re-verifying even a short list (`dong` after `don` on `cities`: 40,501 instructions walked,
  /// 126,546 narrowed), so a `syllable` session always walks; a `seed` walk, which starts at
  /// every offset of every syllable, still narrows lists up to 100.
  public func candidateEstimate(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode) -> Int {
    mode == .seed ? 100 : 0
  }

  public func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int, scope: PlaceScope) -> SearchResult {
    rankedSearch(query, mode: mode, limit: limit, scope: scope)
  }

  /// A typing session: each keystroke narrows the previous one's matches (`Narrowing`).
  public func makeSession(mode: MatchMode, limit: Int, scope: PlaceScope, fuzzy: FuzzyRules) -> TrieSession {
    TrieSession(narrowing: Narrowing(source: self, mode: mode, limit: limit, scope: scope, fuzzy: fuzzy))
  }

  /// One walk of the trie with one query.
  ///
  /// A class holding the backend's tables it reads (the trie itself a class), rather than a
  /// struct holding the backend: a debug build copies a stored struct, retaining each of its
  /// arrays, on every read of a field and into every closure, which made a walk hundreds of
  /// times slower there than in release (the trie's precomputed short answers took 18 s to
  /// build on `cities` in a debug build).
  private final class Walk<S: WalkSpellings> {
    let trie: PinyinSuffixTrie
    let corpus: Corpus
    let spellingBytes: IntegerTable<UInt8>
    let spellingStarts: IntegerTable<Int32>
    let kinds: IntegerTable<UInt8>
    let placeFacts: PlaceFacts
    let hanziLabels: [UInt32: [Int32]]
    let tokens: UnsafeBufferPointer<UInt32>
    let needle: [UInt32]
    let scratch: BestMatchScratch
    /// The fuzzy rules of a `syllable`-mode query (MatchSpec §3.5) and the syllables' fuzzy
    /// spellings.
    let rules: FuzzyRules
    let fuzzy: FuzzySpellings

    /// A walk of `trie`, one of `backend`'s two.
    init(
      backend: TrieBackend, trie: PinyinSuffixTrie, tokens: UnsafeBufferPointer<UInt32>, needle: [UInt32],
      scratch: BestMatchScratch, fuzzy rules: FuzzyRules
    ) {
      self.rules = rules
      fuzzy = S.fuzzy ? backend.matcher.fuzzySpellings : FuzzySpellings.none
      self.trie = trie
      corpus = backend.corpus
      spellingBytes = backend.spellingBytes
      spellingStarts = backend.spellingStarts
      kinds = backend.kinds
      placeFacts = backend.placeFacts
      hanziLabels = backend.hanziLabels
      self.tokens = tokens
      self.needle = needle
      self.scratch = scratch
    }

    /// Where label `label`'s spelling lies in ``spellingBytes``, and its kind; read without
    /// bounds checks, as a label (from the trie's own tables) always has a token.
    @inline(__always)
    private func spelling(ofLabel label: Int32) -> (start: Int, count: Int, kind: Syllabary.Kind) {
      let token = Int(trie.labelTokens[unchecked: Int(label)])
      let start = Int(spellingStarts[unchecked: token])
      return (
        start, Int(spellingStarts[unchecked: token + 1]) - start,
        Syllabary.Kind(rawValue: kinds[unchecked: token]).unsafelyUnwrapped
      )
    }

    /// Calls `body(edge)` for node v's edges that can consume `t`: labels with unit `t` for a
    /// Hanzi, labels whose spelling starts with `t` for a letter or digit (or with a letter whose
    /// syllables' fuzzy spellings may start with `t`, when the walk has fuzzy rules).
    @inline(__always)
    private func forEachEdge(of v: Int32, accepting t: UInt32, _ body: (Int) -> Void) {
      if Hanzi.isLatin(t) {
        if S.fuzzy && !rules.isEmpty && t >= 0x61 && t <= 0x7A {
          // The first letters of the labels whose spellings or fuzzy spellings may begin with `t`.
          var letters = MatchRules.fuzzyFirstLetters(typedAs: UInt8(t), rules: rules)
          while letters != 0 {
            let letter = UInt32(0x61 + letters.trailingZeroBitCount)
            letters &= letters - 1
            for e in trie.edges(of: v, startingWith: letter) { body(e) }
          }
          return
        }
        for e in trie.edges(of: v, startingWith: t) { body(e) }
      } else if let labels = hanziLabels[t] {
        for label in labels {
          for e in trie.edges(of: v, labels: label..<label + 1) { body(e) }
        }
      }
    }

    // MARK: Syllable mode (MatchSpec §3)

    /// Whether the walk may go on from node `v` with the query's tokens `q...`: false when the
    /// next is a letter or digit that none of v's edges begins with (an initial branches over
    /// every syllable it begins, and at most of the nodes it reaches the query's next letter
    /// leads nowhere: `lshui` on `cities` stops so at 70 % of them), told by the node's first
    /// letters without calling ``syllable(node:q:depth:abbreviated:fuzzy:)``. A fuzzy walk may
    /// take edges by other letters, and always goes on.
    @inline(__always)
    private func mayGoOn(from v: Int32, q: Int) -> Bool {
      guard !S.fuzzy, q < tokens.count else { return true }
      let t = tokens[q]
      return !Hanzi.isLatin(t) || trie.mayHaveEdge(of: v, startingWith: t)
    }

    /// Query tokens `q...` remain; `v` is reached after `depth` units of the run; `abbreviated`
    /// when a piece so far was not a whole syllable (spelling class 1); `fuzzy` when a piece so
    /// far matched only a fuzzy spelling (fuzzy class 1).
    func syllable(node v: Int32, q: Int, depth: Int, abbreviated: Bool, fuzzy: Bool) {
      let m = tokens.count
      if q == m {
        emitRuns(v, depth: depth, abbreviated: abbreviated, fuzzy: fuzzy)
        return
      }
      let t = tokens[q]
      if t == NormalizedQuery.boundary {
        syllable(node: v, q: q + 1, depth: depth, abbreviated: abbreviated, fuzzy: fuzzy)
        return
      }
      forEachEdge(of: v, accepting: t) { e in
        let child = trie.target(of: e)
        let label = trie.edgeLabels[unchecked: e]
        if !Hanzi.isLatin(t) {
          syllable(node: child, q: q + 1, depth: depth + 1, abbreviated: abbreviated, fuzzy: fuzzy)
          return
        }
        let (start, length, kind) = spelling(ofLabel: label)
        switch kind {
        case .opaque: return
        case .literal:
          if trie.labelUnits[unchecked: Int(label)] == t {
            syllable(node: child, q: q + 1, depth: depth + 1, abbreviated: abbreviated, fuzzy: fuzzy)
          }
        case .syllable:
          var walked = pieces(
            spellingBytes.unsafeElements, start: start, length: length, child: child, q: q, depth: depth, abbreviated,
            fuzzy,
            skipping: 0)
          guard S.fuzzy else { return }
          // §3.5 The label's fuzzy spellings of the enabled rules, as further edges; a piece one
          // of them shares with a spelling tried before (`lan` and `lang` both begin with the
          // initial `l`) leads to the same runs, no better, and is not walked again.
          for variant in self.fuzzy.variants(of: Int(trie.labelTokens[Int(label)]))
          where self.fuzzy.rules[variant].isSubset(of: rules) {
            let first = Int(self.fuzzy.starts[variant])
            guard UInt32(self.fuzzy.bytes[first]) == t else { continue }
            walked |= self.fuzzy.bytes.withUnsafeBufferPointer { bytes in
              pieces(
                bytes, start: first, length: Int(self.fuzzy.starts[variant + 1]) - first, child: child, q: q,
                depth: depth, abbreviated, true, skipping: walked)
            }
          }
        }
      }
    }

    /// The walk on from `child` for each piece (§3.2) the query's tokens `q...` begin with
    /// that a syllable spelled `bytes[start..<start + length]` admits, but those in `skipping`;
    /// returns the pieces it walked, a bit per (letters, whether the walk goes on as a whole
    /// syllable, an abbreviation or a last prefix). A fuzzy walk passes what the label's other
    /// spellings walked, since a piece of the same letters and kind leads to the same runs.
    @inline(__always)
    private func pieces(
      _ bytes: UnsafeBufferPointer<UInt8>, start: Int, length: Int, child: Int32, q: Int, depth: Int,
      _ abbreviated: Bool, _ fuzzy: Bool, skipping: UInt32
    ) -> UInt32 {
      let m = tokens.count
      let initialLength = MatchRules.initialLength(bytes, start: start, length: length)
      var walked: UInt32 = 0
      var k = 0
      while k < length && q + k < m && UInt32(bytes[start + k]) == tokens[q + k] {
        k += 1
        let piece = MatchRules.piece(prefix: k, of: length, initialLength: initialLength, endsQuery: q + k == m)
        if S.fuzzy, let piece {
          let bit: UInt32 = 1 << UInt32(3 * k + (piece == .lastPrefix ? 2 : k < length ? 1 : 0))
          if skipping & bit != 0 { continue }
          walked |= bit
        }
        switch piece {
        case .whole, .initial:
          guard mayGoOn(from: child, q: q + k) else { continue }
          syllable(node: child, q: q + k, depth: depth + 1, abbreviated: abbreviated || k < length, fuzzy: fuzzy)
        case .lastPrefix:
          emitRuns(child, depth: depth + 1, abbreviated: true, fuzzy: fuzzy)
        case nil:
          continue
        }
      }
      return walked
    }

    /// Every suffix through v is a run from its start unit of `depth` units.
    private func emitRuns(_ v: Int32, depth: Int, abbreviated: Bool, fuzzy: Bool) {
      // The classes the walk decided, as the packed bits they set (`Match`).
      let walked = Match(
        start: 0, end: 0, matchClass: 0, readingClass: 0, spellingClass: abbreviated ? 1 : 0, fuzzyClass: fuzzy ? 1 : 0
      ).bits
      for i in Int(trie.subtreeStarts[unchecked: Int(v)])..<Int(trie.subtreeEnds[unchecked: Int(v)]) {
        let posting = trie.postings[unchecked: i]
        let place = Int(posting >> 7)
        let start = Int(posting & 63)
        let end = start + depth
        let facts = placeFacts[place]
        let matchClass = MatchRules.matchClass(
          start: start, end: end, whole: facts.unitCount, short: facts.shortUnitCount)
        scratch.offer(
          place,
          Match(
            bits: Match(start: start, end: end, matchClass: matchClass, readingClass: Int(posting >> 6 & 1)).bits
              | walked))
      }
    }

    // MARK: Seed mode (MatchSpec §4)

    func seed(latin: Bool) {
      name(node: 0, q: 0)
      guard latin else { return }
      // §4.2 An occurrence in the pinyin starts inside some unit's spelling, at any offset: at
      // one where the spelling holds the needle's first letter (the root's edges by letter).
      let m = needle.count
      let first = Int(LetterKey.digit(needle[0]))
      for i in Int(trie.rootLetterStarts[first])..<Int(trie.rootLetterStarts[first + 1]) {
        let e = Int(trie.rootLetterEdges[i])
        let offset = Int(trie.rootLetterOffsets[i])
        let (start, length, _) = spelling(ofLabel: trie.edgeLabels[e])
        let child = trie.target(of: e)
        let available = length - offset
        var k = 0
        while k < min(available, m) && UInt32(spellingBytes[start + offset + k]) == needle[k] { k += 1 }
        if k == m {
          emitSeed(child, depth: 1, source: .pinyin(offset: offset))
        } else if k == available {
          pinyin(node: child, q: k, depth: 1, offset: offset)
        }
      }
      // §4.3 The initials.
      for e in trie.edges(of: 0, startingWith: needle[0]) {
        initials(node: trie.target(of: e), q: 1, depth: 1)
      }
    }

    /// §4.1 The needle as consecutive units of the name.
    private func name(node v: Int32, q: Int) {
      if q == needle.count {
        emitSeed(v, depth: q, source: .name)
        return
      }
      forEachEdge(of: v, accepting: needle[q]) { e in
        if trie.labelUnits[Int(trie.edgeLabels[e])] == needle[q] { name(node: trie.target(of: e), q: q + 1) }
      }
    }

    /// Needle letters `q...` remain; the occurrence began `offset` letters into the first unit.
    ///
    /// Only the edges whose spelling begins with the next letter can go on, and the opaque ones,
    /// which have no letters (two binary searches, not a pass over every edge of `v`).
    private func pinyin(node v: Int32, q: Int, depth: Int, offset: Int) {
      let m = needle.count
      for e in trie.opaqueEdges(of: v) {  // no letters: the occurrence runs on through it
        pinyin(node: trie.target(of: e), q: q, depth: depth + 1, offset: offset)
      }
      for e in trie.edges(of: v, startingWith: needle[q]) {
        let child = trie.target(of: e)
        let (start, length, _) = spelling(ofLabel: trie.edgeLabels[e])
        let count = min(length, m - q)
        var k = 0
        while k < count && UInt32(spellingBytes[start + k]) == needle[q + k] { k += 1 }
        guard k == count else { continue }
        if q + count == m {
          emitSeed(child, depth: depth + 1, source: .pinyin(offset: offset))
        } else {
          pinyin(node: child, q: q + count, depth: depth + 1, offset: offset)
        }
      }
    }

    /// Needle letters `q...` remain to be matched by the initials of the next units.
    ///
    /// A label's initial is its spelling's first letter, and an opaque label has none
    /// (`MatchRules.initial(firstByte:kind:)`): so the edges that go on are those whose spelling
    /// begins with the next letter, and the opaque ones, found by two binary searches.
    private func initials(node v: Int32, q: Int, depth: Int) {
      if q == needle.count {
        emitSeed(v, depth: depth, source: .initials)
        return
      }
      for e in trie.opaqueEdges(of: v) {  // no initial: the initials run on through it
        initials(node: trie.target(of: e), q: q, depth: depth + 1)
      }
      for e in trie.edges(of: v, startingWith: needle[q]) {
        let (start, _, kind) = spelling(ofLabel: trie.edgeLabels[e])
        if let initial = MatchRules.initial(firstByte: spellingBytes[start], kind: kind), UInt32(initial) == needle[q] {
          initials(node: trie.target(of: e), q: q + 1, depth: depth + 1)
        }
      }
    }

    enum SeedSource {
      case name
      case pinyin(offset: Int)
      case initials
    }

    /// Every canonical suffix through v holds an occurrence spanning `depth` units from its start.
    private func emitSeed(_ v: Int32, depth: Int, source: SeedSource) {
      let corpus = self.corpus
      let m = needle.count
      for i in Int(trie.subtreeStarts[Int(v)])..<Int(trie.subtreeEnds[Int(v)]) {
        let posting = trie.postings[i]
        guard posting & (1 << 6) == 0 else { continue }  // seed mode reads the canonical pinyin only
        let place = Int(posting >> 7)
        let start = Int(posting & 63)
        let facts = placeFacts[place]
        let short = facts.shortUnitCount
        let offset: Int
        let whole: Int
        let shortLength: Int
        switch source {
        case .name:
          (offset, whole, shortLength) = (start, facts.unitCount, short)
        case .pinyin(let within):
          offset = (start == 0 ? 0 : corpus.pinyinUnitEnd(atPosition: facts.unitStart + start - 1)) + within
          (whole, shortLength) = (facts.joinedPinyinCount, facts.shortPinyinCount)
        case .initials where facts.everyUnitHasInitial:
          (offset, whole, shortLength) = (start, facts.unitCount, short)
        case .initials:
          var before = 0
          var total = 0
          var inShort = 0
          for u in 0..<facts.unitCount where placeFacts.hasInitial[Int(corpus.canonicalToken(at: place, unit: u))] {
            if u < start { before += 1 }
            if u < short { inShort += 1 }
            total += 1
          }
          (offset, whole, shortLength) = (before, total, inShort)
        }
        let matchClass = MatchRules.matchClass(start: offset, end: offset + m, whole: whole, short: shortLength)
        scratch.offer(place, Match(start: start, end: start + depth, matchClass: matchClass, readingClass: 0))
      }
    }
  }
}

/// Which spellings a trie walk tries at a syllable label: its own only (``OwnSpellings``), or
/// its fuzzy spellings too (``FuzzySpellingsToo``, MatchSpec §3.5). A type's constant, so that
/// the walk without rules compiles without a trace of them.
protocol WalkSpellings {
  static var fuzzy: Bool { get }
}

/// A label's own spelling only.
enum OwnSpellings: WalkSpellings {
  static var fuzzy: Bool { false }
}

/// A label's own spelling and its fuzzy spellings of the walk's rules.
enum FuzzySpellingsToo: WalkSpellings {
  static var fuzzy: Bool { true }
}

/// The typing session of `trie`: it narrows the previous keystroke's matches with the shared
/// matcher when they are fewer than a fresh walk would verify, and keeps one list per
/// keystroke for backspaces (`Narrowing`).
public struct TrieSession: SearchSession {
  var narrowing: Narrowing<TrieBackend>

  /// The answer to the box's current text.
  public mutating func update(_ text: String) -> SearchResult { narrowing.update(text) }
}
