/// The shared matcher: decides whether one place matches a query under a mode, and how.
///
/// This is the executable form of docs/MatchSpec.md. The reference backend calls it on every
/// place; indexed backends call it to verify their candidates, so that every backend agrees
/// on what a match is. It reads the corpus's flat arrays in place through unsafe views taken
/// once per search (``withPlaces(readings:_:)``), so a place costs no allocation and no reference
/// count (scratch space for the walk's memo and a place's initials lives on the stack).
///
/// ```swift
/// let matcher = PlaceMatcher(corpus: corpus)
/// let query = matcher.prepare(QueryNormalizer(tables: corpus.tables).normalize("bj"))
/// matcher.match(query, mode: .syllable, at: beijing)  // Match(start: 0, end: 2, matchClass: 0, …)
/// let all = matcher.withPlaces { places in   // many places, one query
///   (0..<corpus.count).compactMap { places.match(query, mode: .syllable, at: $0) }
/// }
/// ```
public struct PlaceMatcher: Sendable {
  /// The corpus whose places it matches.
  public let corpus: Corpus
  /// The syllables' fuzzy spellings (MatchSpec §3.5).
  public let fuzzySpellings: FuzzySpellings
  /// The token spellings and kinds and the fuzzy spellings, as every walk reads them.
  private let walkTables: WalkTables
  /// The spellings a whole piece can have, every syllable and literal token (spelling class 0),
  /// packed by ``packedSpelling(_:)``, ascending and distinct: a binary search over some 400 keys
  /// costs a third of hashing one, and the pieces that begin with some letters lie in one range.
  private let wholePieces: ContiguousArray<UInt64>
  /// The letters and digits whose one-letter spelling is a whole syllable's, not only a
  /// literal's; every one when some literal's spelling is longer (then any whole piece is taken
  /// as possibly a syllable).
  private let syllableLetters: UInt64

  /// A matcher for the places of `corpus`, with its syllabary.
  public init(corpus: Corpus) { self.init(corpus: corpus, syllabary: corpus.syllabary) }

  /// A matcher whose tokens are those of `syllabary`, which must extend the corpus's own (same
  /// ids for the corpus's tokens, possibly more after them). For backends that derive readings
  /// themselves (the ICU transliteration backends) and match them as a ``Subject``.
  public init(corpus: Corpus, syllabary: Syllabary) {
    self.corpus = corpus
    var bytes: [UInt8] = []
    var starts: [Int32] = [0]
    for spelling in syllabary.spellings {
      bytes += spelling
      starts.append(Int32(bytes.count))
    }
    let fuzzySpellings = FuzzySpellings(syllabary: syllabary)
    self.fuzzySpellings = fuzzySpellings
    self.walkTables = WalkTables(
      spellingBytes: bytes, spellingStarts: starts, kinds: syllabary.kinds, fuzzy: fuzzySpellings)
    self.wholePieces = ContiguousArray(
      Set(zip(syllabary.spellings, syllabary.kinds).compactMap { $0.1 == .opaque ? nil : Self.packedSpelling($0.0) })
        .sorted())
    let spellings = zip(syllabary.spellings, syllabary.kinds)
    self.syllableLetters =
      spellings.contains { $0.1 == .literal && $0.0.count > 1 }
      ? ~0 : Hanzi.letterMask(spellings.filter { $0.1 == .syllable && $0.0.count == 1 }.map { UInt32($0.0[0]) })
  }

  /// What the matcher reads of one place: its units, readings, joined pinyin, short name and
  /// aliases. ``Places`` reads the same from the corpus without building one; a backend that
  /// derives readings itself builds one with
  /// ``init(units:canonical:alternates:pinyin:pinyinUnitEnds:shortLength:aliases:)``.
  public struct Subject {
    /// The name's units (Unicode scalar values).
    public var units: ArraySlice<UInt32>
    /// One token per unit.
    public var canonical: ArraySlice<UInt16>
    /// The alternate sequences, flattened, each as long as `units`.
    public var alternates: ArraySlice<UInt16>
    /// The joined canonical pinyin (MatchSpec §4.2).
    public var pinyin: ArraySlice<UInt8>
    /// Per unit, where its syllable ends in `pinyin`.
    public var pinyinUnitEnds: ArraySlice<UInt8>
    /// How many units the short name has (a prefix of the name).
    public var shortLength: Int
    /// The aliases (``Corpus/aliases(at:)``): their tokens, and where each ends in that slice's
    /// indices.
    public var aliasUnits: ArraySlice<UInt32>
    /// Where each alias ends in ``aliasUnits``.
    public var aliasEnds: ArraySlice<Int32>

    /// A subject from readings a backend derived itself; `aliases` default to none.
    public init(
      units: ArraySlice<UInt32>, canonical: ArraySlice<UInt16>, alternates: ArraySlice<UInt16>,
      pinyin: ArraySlice<UInt8>, pinyinUnitEnds: ArraySlice<UInt8>, shortLength: Int,
      aliases: (units: ArraySlice<UInt32>, ends: ArraySlice<Int32>) = ([], [])
    ) {
      self.units = units
      self.canonical = canonical
      self.alternates = alternates
      self.pinyin = pinyin
      self.pinyinUnitEnds = pinyinUnitEnds
      self.shortLength = shortLength
      self.aliasUnits = aliases.units
      self.aliasEnds = aliases.ends
    }

    var alternateCount: Int { units.isEmpty ? 0 : alternates.count / units.count }

    func alternate(_ k: Int) -> ArraySlice<UInt16> {
      let start = alternates.startIndex + k * units.count
      return alternates[start..<start + units.count]
    }
  }

  /// A normalized query with what the matcher derives from it once per search rather than once
  /// per place.
  public struct PreparedQuery: Sendable {
    /// The query as normalized.
    public let query: NormalizedQuery
    /// The tokens without boundary marks (the `seed` mode's needle).
    public let needle: [UInt32]
    /// The needle as ASCII bytes, when it has no Hanzi.
    let latinNeedle: [UInt8]?
    /// The query's letters and digits (``Hanzi/letterMask(_:)``) a place must have: all of
    /// them, less those its fuzzy rules may stand in for (``FuzzyRules/looseLetters``).
    @usableFromInline let letterMask: UInt64
    /// The fewest units a `seed` match spans: boundary marks do not count there (MatchSpec §4),
    /// so a Latin needle needs one unit per six letters, a needle with Hanzi one per token.
    let seedMinimumUnits: Int
    /// Whether every Latin run of the query splits into whole syllables or literals of the
    /// syllabary: if not, no place has a match of spelling class 0 (MatchSpec §5.2), and the
    /// walk for one is skipped.
    @usableFromInline let mayBeWholePieces: Bool
    /// Whether every Latin run splits into whole syllables alone, without literals (with fuzzy
    /// rules, ``mayBeWholePieces``): if not, a place whose units and readings have no literal has
    /// no match of spelling class 0.
    @usableFromInline let mayBeWholeSyllables: Bool

    /// The lowest spelling class (MatchSpec §5.2) of a match by name in `syllable` mode: 1 when
    /// some run of the query's letters splits into no whole pieces, else 0.
    @inlinable
    public var lowestSpellingClass: Int { mayBeWholePieces ? 0 : 1 }

    /// The fewest units a match spans in `mode`.
    @inline(__always)
    func minimumUnits(_ mode: MatchMode) -> Int { mode == .syllable ? query.minimumUnits : seedMinimumUnits }

    /// Whether a place whose readings and aliases have the letters and digits `letters`
    /// (``PlaceMatcher/Places/letterMask(at:)``) may match, in either mode: a necessary
    /// condition, the first that ``PlaceMatcher/Places/match(_:mode:at:)`` tests, for a caller
    /// that keeps the masks of its candidates beside them.
    @inlinable @inline(__always)
    public func admits(letters: UInt64) -> Bool { letterMask & ~letters == 0 }
  }

  /// Derives once what every place's match needs.
  public func prepare(_ query: NormalizedQuery) -> PreparedQuery {
    let whole = splitsIntoWholePieces(query)
    // Most queries have no boundary mark: their needle shares the tokens' storage.
    let tokens = query.tokens
    let needle = tokens.contains(NormalizedQuery.boundary) ? tokens.filter { $0 != NormalizedQuery.boundary } : tokens
    return PreparedQuery(
      query: query, needle: needle, latinNeedle: query.hasHanzi ? nil : needle.map { UInt8(truncatingIfNeeded: $0) },
      letterMask: Hanzi.letterMask(needle) & ~query.fuzzy.looseLetters,
      seedMinimumUnits: query.hasHanzi ? needle.count : (needle.count + 5) / 6,
      mayBeWholePieces: whole.pieces, mayBeWholeSyllables: query.fuzzy.isEmpty ? whole.syllables : whole.pieces)
  }

  /// Whether each run of letters and digits of `query` (between boundary marks and Hanzi) is a
  /// concatenation of whole-piece spellings. Allocates nothing for runs under 64 letters.
  ///
  /// - Complexity: O(m · 6) set lookups for m tokens.
  private func splitsIntoWholePieces(_ query: NormalizedQuery) -> (pieces: Bool, syllables: Bool) {
    let tokens = query.tokens
    var start = 0
    var syllables = true
    while start < tokens.count {
      guard Hanzi.isLatin(tokens[start]) else {
        start += 1
        continue
      }
      var end = start
      while end < tokens.count && Hanzi.isLatin(tokens[end]) { end += 1 }
      let run = runSplits(tokens[start..<end])
      guard run.pieces else { return (false, false) }
      syllables = syllables && run.syllables
      start = end
    }
    return (true, syllables)
  }

  /// Whether `run` (letters and digits) splits into whole-piece spellings, and into whole
  /// syllables alone: a reachability sweep over its positions, in bit sets when it is short
  /// enough. A piece of two letters or more is a syllable's (``syllableLetters``).
  private func runSplits(_ run: ArraySlice<UInt32>) -> (pieces: Bool, syllables: Bool) {
    let n = run.count
    // Calls `body(length)` for each whole piece at `i`, of one letter to six (no syllable is
    // longer, as NormalizedQuery.minimumUnits assumes). The letters so far are a packed key
    // that grows with each: the pieces beginning with them lie at and after the first key not
    // below it, so each search starts where the last ended, and the sweep stops at the first
    // letters that begin no piece (`gx`, where a search of each length asked for six).
    func forEachPiece(at i: Int, _ body: (Int) -> Void) {
      wholePieces.withUnsafeBufferPointer { sorted in
        var key: UInt64 = 0
        var low = 0
        for length in 1...min(6, n - i) {
          let shift = UInt64(64 - 8 * length)
          key |= UInt64(run[run.startIndex + i + length - 1] & 0xFF) << shift
          var high = sorted.count
          while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < key { low = mid + 1 } else { high = mid }
          }
          guard low < sorted.count, sorted[low] >> shift == key >> shift else { return }
          if sorted[low] == key { body(length) }
        }
      }
    }
    /// Whether the piece at `i` of `length` letters, a whole piece, is a syllable's.
    func isSyllable(_ i: Int, _ length: Int) -> Bool {
      length > 1 || syllableLetters & Hanzi.letterBit(run[run.startIndex + i]) != 0
    }
    if n < 64 {
      var reachable: UInt64 = 1
      var bySyllables: UInt64 = 1
      for i in 0..<n where reachable & (1 << UInt64(i)) != 0 {
        let fromSyllables = bySyllables & (1 << UInt64(i)) != 0
        forEachPiece(at: i) { length in
          reachable |= 1 << UInt64(i + length)
          if fromSyllables && isSyllable(i, length) { bySyllables |= 1 << UInt64(i + length) }
        }
      }
      return (reachable & (1 << UInt64(n)) != 0, bySyllables & (1 << UInt64(n)) != 0)
    }
    var reachable = [Bool](repeating: false, count: n + 1)
    var bySyllables = reachable
    (reachable[0], bySyllables[0]) = (true, true)
    for i in 0..<n where reachable[i] {
      forEachPiece(at: i) { length in
        reachable[i + length] = true
        if bySyllables[i] && isSyllable(i, length) { bySyllables[i + length] = true }
      }
    }
    return (reachable[n], bySyllables[n])
  }

  /// A spelling of at most eight bytes as one integer, its first byte highest and the bytes
  /// after its last zero: integers order as their spellings do, and the spellings that begin
  /// with some letters follow the letters' own integer. `nil` if longer.
  static func packedSpelling(_ spelling: [UInt8]) -> UInt64? {
    guard spelling.count <= 8 else { return nil }
    return spelling.enumerated().reduce(0) { $0 | UInt64($1.element) << UInt64(56 - 8 * $1.offset) }
  }

  /// The place's best match (MatchSpec §5.3), or `nil`. Prefer ``withPlaces(readings:_:)`` when
  /// matching many places against one query.
  public func match(_ query: NormalizedQuery, mode: MatchMode, at index: Int) -> Match? {
    match(prepare(query), mode: mode, at: index)
  }

  /// The place's best match (MatchSpec §5.3), or `nil`. Prefer ``withPlaces(readings:_:)`` when
  /// matching many places against one query: it views the corpus once for all of them.
  public func match(_ prepared: PreparedQuery, mode: MatchMode, at index: Int) -> Match? {
    withPlaces { $0.match(prepared, mode: mode, at: index) }
  }

  /// Whether a place of `unitCount` units whose readings have the letters `letterMask`
  /// (``Hanzi/letterMask(_:)``) can match at all: a cheap test that rejects most places, for
  /// backends that keep such a mask next to their own readings.
  @inline(__always)
  public func mayMatch(_ prepared: PreparedQuery, mode: MatchMode, unitCount: Int, letterMask: UInt64) -> Bool {
    prepared.minimumUnits(mode) <= unitCount && prepared.letterMask & ~letterMask == 0
  }

  /// The best match of a place given as a ``Subject`` (MatchSpec §5.3), or `nil`.
  public func match(_ prepared: PreparedQuery, mode: MatchMode, subject: Subject) -> Match? {
    withWalk { walk in
      subject.units.withUnsafeBufferPointer { units in
        subject.canonical.withUnsafeBufferPointer { canonical in
          subject.alternates.withUnsafeBufferPointer { alternates in
            subject.pinyin.withUnsafeBufferPointer { pinyin in
              subject.pinyinUnitEnds.withUnsafeBufferPointer { pinyinUnitEnds in
                subject.aliasUnits.withUnsafeBufferPointer { aliasUnits in
                  subject.aliasEnds.withUnsafeBufferPointer { aliasEnds in
                    let place = PlaceView(
                      units: units, canonical: canonical, alternates: alternates, pinyin: pinyin,
                      pinyinUnitEnds: pinyinUnitEnds, shortLength: subject.shortLength, aliasUnits: aliasUnits,
                      aliasEnds: aliasEnds, aliasBase: subject.aliasUnits.startIndex)
                    return walk.match(prepared, mode: mode, place: place)
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  /// Calls `body` with the matcher's walk over unsafe views of its spelling tables.
  private func withWalk<R>(_ body: (MatchWalk) throws -> R) rethrows -> R {
    try withExtendedLifetime(walkTables) { try body(walkTables.walk) }
  }
}

// MARK: - Matching many places

extension PlaceMatcher {
  /// The corpus's places as the matcher reads them, viewed once for many matches.
  ///
  /// Valid only inside the ``PlaceMatcher/withPlaces(readings:_:)`` call that made it: do not let it
  /// escape the closure.
  public struct Places {
    let walk: MatchWalk
    let unitStarts: UnsafeBufferPointer<Int32>
    let units: UnsafeBufferPointer<UInt32>
    let tokens: UnsafeBufferPointer<UInt16>
    let alternateStarts: UnsafeBufferPointer<Int32>
    let alternateTokens: UnsafeBufferPointer<UInt16>
    let shortLengths: UnsafeBufferPointer<UInt8>
    @usableFromInline let letterMasks: UnsafeBufferPointer<UInt64>
    let pinyinStarts: UnsafeBufferPointer<Int32>
    let pinyinBytes: UnsafeBufferPointer<UInt8>
    let pinyinUnitEnds: UnsafeBufferPointer<UInt8>
    let aliasStarts: UnsafeBufferPointer<Int32>
    let aliasEnds: UnsafeBufferPointer<Int32>
    let aliasUnits: UnsafeBufferPointer<UInt32>

    /// The place's best match (MatchSpec §5.3), or `nil`.
    ///
    /// - Complexity: O(m · n · a) for a query of m tokens, a name of n units and a reading
    ///   sequences in `syllable` mode; O(m · n) in `seed` mode (m is at most about 6n: a query
    ///   needing more units than the name has is rejected at once).
    public func match(_ prepared: PreparedQuery, mode: MatchMode, at index: Int) -> Match? {
      let first = Int(unitStarts[index])
      let n = Int(unitStarts[index + 1]) - first
      let aliasFirst = Int(aliasStarts[index])
      let aliasLast = Int(aliasStarts[index + 1])
      // Two necessary conditions that most places fail: enough units, and every query letter
      // (the mask holds the aliases' letters; an alias match needs no units). Aliases are for
      // `syllable` mode only (MatchSpec §8).
      let hasAliases = mode == .syllable && aliasLast != aliasFirst
      guard
        prepared.minimumUnits(mode) <= n && prepared.letterMask & ~letterMasks[index] == 0 || hasAliases
      else { return nil }
      let alternateFirst = Int(alternateStarts[index])
      let aliasBase = aliasFirst == 0 ? 0 : Int(aliasEnds[aliasFirst - 1])
      let aliasEnd = aliasLast == 0 ? 0 : Int(aliasEnds[aliasLast - 1])
      let place = PlaceView(
        units: slice(units, first, n), canonical: slice(tokens, first, n),
        alternates: slice(alternateTokens, alternateFirst, Int(alternateStarts[index + 1]) - alternateFirst),
        pinyin: mode == .seed
          ? slice(pinyinBytes, Int(pinyinStarts[index]), Int(pinyinStarts[index + 1] - pinyinStarts[index]))
          : .init(start: nil, count: 0),
        pinyinUnitEnds: mode == .seed ? slice(pinyinUnitEnds, first, n) : .init(start: nil, count: 0),
        shortLength: Int(shortLengths[index]),
        aliasUnits: hasAliases ? slice(aliasUnits, aliasBase, aliasEnd - aliasBase) : .init(start: nil, count: 0),
        aliasEnds: hasAliases ? slice(aliasEnds, aliasFirst, aliasLast - aliasFirst) : .init(start: nil, count: 0),
        aliasBase: aliasBase)
      return walk.match(prepared, mode: mode, place: place)
    }

    /// What bounds the match class of the place's match by its name (``FirstUnit``), read from
    /// the corpus's tables.
    public func firstUnit(at index: Int) -> FirstUnit {
      let first = Int(unitStarts[index])
      let n = Int(unitStarts[index + 1]) - first
      guard n > 0 else {
        return FirstUnit(
          unit: 0, shortest: 0, seedShortest: 0, hasLiterals: true, syllableLetters: ~0, seedLetters: ~0, endLetters: ~0
        )
      }
      let unit = units[first]
      let walk = self.walk
      /// The letters a piece of unit `u` begins with, read as any of its readings (§3.2, §3.3).
      func letters(unit u: Int) -> UInt64 {
        func letters(_ reading: UInt16) -> UInt64 {
          switch walk.kinds[Int(reading)] {
          case .opaque: return 0
          case .literal: return Hanzi.letterMask(CollectionOfOne(units[first + u]))
          case .syllable:
            return Hanzi.letterMask(CollectionOfOne(UInt32(walk.spellingBytes[Int(walk.spellingStarts[Int(reading)])])))
          }
        }
        var mask = letters(tokens[first + u])
        for a in stride(from: Int(alternateStarts[index]) + u, to: Int(alternateStarts[index + 1]), by: n) {
          mask |= letters(alternateTokens[a])
        }
        return mask
      }
      let syllableLetters = letters(unit: 0)
      let reading = Int(tokens[first])
      let initial = MatchRules.initial(
        firstByte: walk.spellingBytes[Int(walk.spellingStarts[reading])], kind: walk.kinds[reading])
      // A first unit without an initial leaves the initials to begin at a later unit.
      var seedLetters = initial.map { Hanzi.letterMask(CollectionOfOne(UInt32($0))) } ?? ~0
      let pinyin = Int(pinyinStarts[index])
      if pinyin < Int(pinyinStarts[index + 1]) {
        seedLetters |= Hanzi.letterMask(CollectionOfOne(UInt32(pinyinBytes[pinyin])))
      }
      // A match of class 0 ends where the name or its short name ends (MatchSpec §5.1): in units,
      // or in `seed` mode in letters of the joined pinyin or of the initials (§4.2, §4.3).
      let short = Int(shortLengths[index])
      let shortest = short == 0 ? n : min(n, short)
      var initials = 0
      var shortInitials = 0
      for u in 0..<n {
        let token = Int(tokens[first + u])
        guard
          MatchRules.initial(firstByte: walk.spellingBytes[Int(walk.spellingStarts[token])], kind: walk.kinds[token])
            != nil
        else { continue }
        initials += 1
        if u < short { shortInitials += 1 }
      }
      let shortPinyin = short > 0 ? Int(pinyinUnitEnds[first + short - 1]) : 0
      var seedShortest = shortest
      for length in [initials, shortInitials, Int(pinyinStarts[index + 1] - pinyinStarts[index]), shortPinyin]
      where length > 0 {
        seedShortest = min(seedShortest, length)
      }
      // Its last piece begins a reading of the last unit it covers: of the short name or the name.
      /// The letters of the unit before `end`; every letter when it has no initial (a `seed`
      /// match of class 0 may end before it).
      func endLetters(_ end: Int) -> UInt64 {
        walk.kinds[Int(tokens[first + end - 1])] == .opaque ? ~0 : letters(unit: end - 1)
      }
      let endLetters = endLetters(n) | (shortest < n ? endLetters(shortest) : 0)
      let hasLiterals =
        (first..<first + n).contains { walk.kinds[Int(tokens[$0])] == .literal }
        || (Int(alternateStarts[index])..<Int(alternateStarts[index + 1])).contains {
          walk.kinds[Int(alternateTokens[$0])] == .literal
        }
      return FirstUnit(
        unit: unit, shortest: UInt8(clamping: shortest), seedShortest: UInt8(clamping: seedShortest),
        hasLiterals: hasLiterals, syllableLetters: syllableLetters, seedLetters: seedLetters, endLetters: endLetters)
    }

    /// The letters and digits of the place's readings and aliases (``Hanzi/letterMask(_:)``).
    @inlinable @inline(__always)
    public func letterMask(at index: Int) -> UInt64 { letterMasks[index] }

    @inline(__always)
    private func slice<T>(_ buffer: UnsafeBufferPointer<T>, _ start: Int, _ count: Int) -> UnsafeBufferPointer<T> {
      UnsafeBufferPointer(start: buffer.baseAddress.map { $0 + start }, count: count)
    }
  }

  /// Calls `body` with the corpus's places viewed once, for matching many of them against one
  /// query without taking a reference per place: read through `readings` when given (a
  /// backend's own readings of the same places, with tokens of the matcher's syllabary), else
  /// through the corpus's.
  ///
  /// ```swift
  /// let prepared = matcher.prepare(query)
  /// let matches = matcher.withPlaces { places in
  ///   candidates.compactMap { places.match(prepared, mode: .syllable, at: $0) }
  /// }
  /// ```
  public func withPlaces<R>(readings: ReadingStore? = nil, _ body: (Places) throws -> R) rethrows -> R {
    let c = corpus
    let r = readings ?? c.readings
    precondition(r.count == c.count, "a reading store of another corpus")
    // The tables are viewed where they lie: `c` and `r` hold them, and are kept alive for the
    // call. One closure rather than one per table: nested, each was a call that a generic
    // caller's unspecialized code paid some 150 instructions for (2,000 a verifying keystroke).
    return try withWalk { walk in
      try withExtendedLifetime((c, r)) {
        try body(
          Places(
            walk: walk, unitStarts: c.unitStarts.unsafeElements, units: c.units.unsafeElements,
            tokens: r.tokens.unsafeElements, alternateStarts: r.alternateStarts.unsafeElements,
            alternateTokens: r.alternateTokens.unsafeElements, shortLengths: c.shortLengths.unsafeElements,
            letterMasks: r.letterMasks.unsafeElements, pinyinStarts: r.pinyinStarts.unsafeElements,
            pinyinBytes: r.pinyinBytes.unsafeElements, pinyinUnitEnds: r.pinyinUnitEnds.unsafeElements,
            aliasStarts: c.aliasStarts.unsafeElements, aliasEnds: c.aliasEnds.unsafeElements,
            aliasUnits: c.aliasUnits.unsafeElements))
      }
    }
  }
}

extension PlaceMatcher {
  /// What decides whether a place's match by its name can begin at its first unit, packed so
  /// that many places are read in turn (``Places/firstUnit(at:)``): a lower bound of the
  /// classes of a place not yet verified (``lowestClasses(_:mode:)``), for a caller that takes
  /// candidates in the order of the lowest rank key they could have
  /// (``Ranking/lowestKey(place:classesFrom:)``).
  public struct FirstUnit: Sendable {
    /// The first unit.
    @usableFromInline let unit: UInt32
    /// The fewer of the name's units and its short name's (the name's when it has none): a match
    /// by units (in `syllable` mode, or of a query with Hanzi in `seed` mode) spans at most one
    /// unit per token, so one of class 0 needs at least this many.
    @usableFromInline let shortest: UInt8
    /// The fewest letters or units a `seed` match of class 0 of a query without Hanzi covers:
    /// the least of ``shortest`` and the lengths of the joined pinyin and of the initials, of
    /// the name and of the short name (MatchSpec §4.2, §4.3).
    @usableFromInline let seedShortest: UInt8
    /// Whether a unit of the name is read as a literal (a Latin letter or digit): only then may a
    /// query that splits into whole pieces only with a literal's have spelling class 0.
    @usableFromInline let hasLiterals: Bool
    /// The letters (``Hanzi/letterBit(_:)``) that a `syllable` piece of the first unit begins
    /// with: each reading's first letter, a literal's own.
    @usableFromInline let syllableLetters: UInt64
    /// The letters that the joined pinyin and the initials begin with (`seed`); every letter
    /// when the first unit has no initial.
    @usableFromInline let seedLetters: UInt64
    /// The letters that a reading of the last unit of the short name or of the name begins with
    /// (every letter when that unit's canonical reading has no initial): a match of class 0 by
    /// letters alone, read without fuzzy rules, has one of them.
    @usableFromInline let endLetters: UInt64

    /// The first class combination (``Match/classes``, ``Match/firstCombination(spellingClassAtLeast:matchClassAtLeast:)``)
    /// that the place's match of `prepared` in `mode` by its name can have: a lower bound of
    /// its rank key before it is verified. Its match class (MatchSpec §5.1) is at least 2 when
    /// no such match can begin at its first unit, at least 1 when one can but cannot cover its
    /// short name or its whole name (the query has fewer tokens than such a match covers units or
    /// letters, or none of the letters that a reading of the last unit covered begins with); in
    /// `syllable` mode its spelling class is 1 when the query splits into no whole pieces, or into
    /// none without a literal's and the name has no literal. Aliases are not considered.
    ///
    /// A match from the first unit needs the query's first token to be that unit (a Hanzi or
    /// another character), or its first letter to begin a reading of that unit (`syllable`),
    /// the joined pinyin or the initials (`seed`).
    @inlinable
    public func lowestClasses(_ prepared: PreparedQuery, mode: MatchMode) -> Int {
      guard let token = prepared.needle.first else { return 0 }
      let fromFirst =
        Hanzi.isLatin(token)
        ? (mode == .syllable ? syllableLetters : seedLetters) & Hanzi.letterBit(token) != 0 : unit == token
      let byLetters = !prepared.query.hasHanzi
      let least = mode == .seed && byLetters ? seedShortest : shortest
      let wholeImpossible =
        prepared.needle.count < Int(least)
        || byLetters && prepared.query.fuzzy.isEmpty && prepared.letterMask & endLetters == 0
      let matchClass = !fromFirst ? 2 : wholeImpossible ? 1 : 0
      let wholePieces = hasLiterals ? prepared.mayBeWholePieces : prepared.mayBeWholeSyllables
      return Match.firstCombination(
        spellingClassAtLeast: mode == .syllable && !wholePieces ? 1 : 0, matchClassAtLeast: matchClass)
    }
  }
}
