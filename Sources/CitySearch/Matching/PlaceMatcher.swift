/// The shared matcher: decides whether one place matches a query under a mode, and how.
///
/// This is the executable form of docs/MatchSpec.md. The reference backend calls it on every
/// place; indexed backends call it to verify their candidates, so that every backend agrees
/// on what a match is. It reads the corpus's flat arrays in place and allocates nothing per
/// place (scratch space for a place's initials lives on the stack).
///
/// ```swift
/// let matcher = PlaceMatcher(corpus: corpus)
/// let query = matcher.prepare(QueryNormalizer(tables: corpus.tables).normalize("bj"))
/// matcher.match(query, mode: .syllable, at: beijing)  // Match(start: 0, end: 2, matchClass: 0, …)
/// ```
public struct PlaceMatcher: Sendable {
  public let corpus: Corpus
  /// Token spellings, flattened: token `t` is `spellingBytes[spellingStarts[t]..<spellingStarts[t + 1]]`.
  private let spellingBytes: [UInt8]
  private let spellingStarts: [Int32]
  private let kinds: [Syllabary.Kind]
  /// The spellings a whole piece can have, every syllable and literal token (spelling class 0),
  /// packed by ``packedSpelling(_:)``.
  private let wholePieces: Set<UInt64>

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
    self.spellingBytes = bytes
    self.spellingStarts = starts
    self.kinds = syllabary.kinds
    self.wholePieces = Set(
      zip(syllabary.spellings, syllabary.kinds).compactMap { $0.1 == .opaque ? nil : Self.packedSpelling($0.0) })
  }

  /// What the matcher reads of one place: its units, readings, joined pinyin, short name and
  /// aliases. ``match(_:mode:at:)-(PreparedQuery,_,_)`` takes it from the corpus; a backend that
  /// derives readings itself builds one with
  /// ``init(units:canonical:alternates:pinyin:pinyinUnitEnds:shortLength:aliases:)``.
  public struct Subject {
    public var units: ArraySlice<UInt32>
    /// One token per unit.
    public var canonical: ArraySlice<UInt16>
    /// The alternate sequences, flattened, each as long as `units`.
    public var alternates: ArraySlice<UInt16>
    /// The joined canonical pinyin (MatchSpec §4.2).
    public var pinyin: ArraySlice<UInt8>
    /// Per unit, where its syllable ends in `pinyin`.
    public var pinyinUnitEnds: ArraySlice<UInt8>
    public var shortLength: Int
    /// The aliases (``Corpus/aliases(at:)``): their tokens, and where each ends in that slice's
    /// indices.
    public var aliasUnits: ArraySlice<UInt32>
    public var aliasEnds: ArraySlice<Int32>

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

  /// The place at `index` as the matcher reads it.
  public func subject(at index: Int) -> Subject {
    Subject(
      units: corpus.units(at: index), canonical: corpus.canonicalTokens(at: index),
      alternates: corpus.alternateTokens(at: index), pinyin: corpus.joinedPinyin(at: index),
      pinyinUnitEnds: corpus.pinyinUnitEnds(at: index), shortLength: corpus.shortNameUnitCount(at: index),
      aliases: corpus.aliases(at: index))
  }

  /// A normalized query with what the matcher derives from it once per search rather than once
  /// per place.
  public struct PreparedQuery: Sendable {
    public let query: NormalizedQuery
    /// The tokens without boundary marks (the `seed` mode's needle).
    public let needle: [UInt32]
    /// The needle as ASCII bytes, when it has no Hanzi.
    let latinNeedle: [UInt8]?
    /// The query's letters and digits (``Hanzi/letterMask(_:)``); a place must have them all.
    let letterMask: UInt64
    /// The fewest units a `seed` match spans: boundary marks do not count there (MatchSpec §4),
    /// so a Latin needle needs one unit per six letters, a needle with Hanzi one per token.
    let seedMinimumUnits: Int
    /// Whether every Latin run of the query splits into whole syllables or literals of the
    /// syllabary: if not, no place has a match of spelling class 0 (MatchSpec §5.2), and the
    /// walk for one is skipped.
    let mayBeWholePieces: Bool

    /// The fewest units a match spans in `mode`.
    @inline(__always)
    func minimumUnits(_ mode: MatchMode) -> Int { mode == .syllable ? query.minimumUnits : seedMinimumUnits }
  }

  /// Derives once what every place's match needs.
  public func prepare(_ query: NormalizedQuery) -> PreparedQuery {
    let needle = query.tokens.filter { $0 != NormalizedQuery.boundary }
    return PreparedQuery(
      query: query, needle: needle, latinNeedle: query.hasHanzi ? nil : needle.map { UInt8(truncatingIfNeeded: $0) },
      letterMask: Hanzi.letterMask(needle), seedMinimumUnits: query.hasHanzi ? needle.count : (needle.count + 5) / 6,
      mayBeWholePieces: splitsIntoWholePieces(query))
  }

  /// Whether each run of letters and digits of `query` (between boundary marks and Hanzi) is a
  /// concatenation of whole-piece spellings. Allocates nothing for runs under 64 letters.
  ///
  /// - Complexity: O(m · 6) set lookups for m tokens.
  private func splitsIntoWholePieces(_ query: NormalizedQuery) -> Bool {
    let tokens = query.tokens
    var start = 0
    while start < tokens.count {
      guard Hanzi.isLatin(tokens[start]) else {
        start += 1
        continue
      }
      var end = start
      while end < tokens.count && Hanzi.isLatin(tokens[end]) { end += 1 }
      guard runSplits(tokens[start..<end]) else { return false }
      start = end
    }
    return true
  }

  /// Whether `run` (letters and digits) splits into whole-piece spellings: a reachability
  /// sweep over its positions, in a bit set when it is short enough.
  private func runSplits(_ run: ArraySlice<UInt32>) -> Bool {
    let n = run.count
    // No syllable is longer than six letters (as NormalizedQuery.minimumUnits assumes).
    func piece(_ i: Int, _ length: Int) -> Bool {
      var key: UInt64 = 0
      for t in run[(run.startIndex + i)..<(run.startIndex + i + length)] { key = key << 8 | UInt64(t & 0xFF) }
      return wholePieces.contains(key)
    }
    if n < 64 {
      var reachable: UInt64 = 1
      for i in 0..<n where reachable & (1 << UInt64(i)) != 0 {
        for length in 1...min(6, n - i) where piece(i, length) { reachable |= 1 << UInt64(i + length) }
      }
      return reachable & (1 << UInt64(n)) != 0
    }
    var reachable = [Bool](repeating: false, count: n + 1)
    reachable[0] = true
    for i in 0..<n where reachable[i] {
      for length in 1...min(6, n - i) where piece(i, length) { reachable[i + length] = true }
    }
    return reachable[n]
  }

  /// A spelling of at most eight bytes as one integer, first byte highest; `nil` if longer.
  static func packedSpelling(_ spelling: [UInt8]) -> UInt64? {
    guard spelling.count <= 8 else { return nil }
    return spelling.reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// The place's best match (MatchSpec §5.3), or `nil`. Prefer ``match(_:mode:at:)-(PreparedQuery,_,_)``
  /// when matching many places against one query.
  public func match(_ query: NormalizedQuery, mode: MatchMode, at index: Int) -> Match? {
    match(prepare(query), mode: mode, at: index)
  }

  /// The place's best match (MatchSpec §5.3), or `nil`.
  ///
  /// - Complexity: O(m · n · a) for a query of m tokens, a name of n units and a reading
  ///   sequences in `syllable` mode; O(m · n) in `seed` mode (m is at most about 6n: a query
  ///   needing more units than the name has is rejected at once).
  public func match(_ prepared: PreparedQuery, mode: MatchMode, at index: Int) -> Match? {
    // Two necessary conditions that most places fail: enough units, and every query letter (the
    // mask holds the aliases' letters; an alias match needs no units).
    guard
      mayMatch(prepared, mode: mode, unitCount: corpus.unitCount(at: index), letterMask: corpus.letterMask(at: index))
        || corpus.hasAliases(at: index)
    else { return nil }
    return match(prepared, mode: mode, subject: subject(at: index))
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
    let query = prepared.query
    guard !query.isEmpty else { return nil }
    switch mode {
    case .syllable:
      let name =
        prepared.minimumUnits(mode) <= subject.units.count
        ? syllableMatch(query, subject, mayBeWholePieces: prepared.mayBeWholePieces) : nil
      if subject.aliasEnds.isEmpty
        || name.map({ $0.spellingClass == 0 && $0.matchClass == 0 && $0.readingClass == 0 })
          == true
      {
        return name
      }
      guard let alias = aliasMatch(prepared.needle, subject) else { return name }
      return name.map { Swift.min($0, alias) } ?? alias
    case .seed:
      return prepared.minimumUnits(mode) <= subject.units.count ? seedMatch(prepared, subject) : nil
    }
  }

  // MARK: - Aliases (MatchSpec §8)

  /// The best alias match: the query without its boundary marks is an alias (class 0) or a
  /// prefix of one (class 1); it reports the whole name, with reading class 1.
  private func aliasMatch(_ needle: [UInt32], _ subject: Subject) -> Match? {
    var start = subject.aliasUnits.startIndex
    var best: Match?
    for end in subject.aliasEnds {
      let alias = subject.aliasUnits[start..<Int(end)]
      start = Int(end)
      guard alias.starts(with: needle) else { continue }
      let whole = alias.count == needle.count
      let found = Match(
        start: 0, end: subject.units.count, matchClass: whole ? 0 : 1, readingClass: 1, spellingClass: whole ? 0 : 1)
      if found.matchClass == 0 { return found }
      best = found
    }
    return best
  }

  // MARK: - Syllable mode (MatchSpec §3)

  /// The best match: the query read as whole syllables (spelling class 0) if the place has such
  /// a match, else with initials and a last prefix (spelling class 1).
  private func syllableMatch(_ query: NormalizedQuery, _ subject: Subject, mayBeWholePieces: Bool) -> Match? {
    guard firstPieceCanStart(query.tokens[0], subject) else { return nil }
    return (mayBeWholePieces ? bestMatch(query, subject, wholePieces: true) : nil)
      ?? bestMatch(query, subject, wholePieces: false).map {
        Match(start: $0.start, end: $0.end, matchClass: $0.matchClass, readingClass: $0.readingClass, spellingClass: 1)
      }
  }

  /// The lowest (match class, reading class, start, end) match over every reading sequence.
  private func bestMatch(_ query: NormalizedQuery, _ subject: Subject, wholePieces: Bool) -> Match? {
    let units = subject.units
    let shortLength = subject.shortLength
    var best = bestRun(
      query, units: units, readings: subject.canonical, shortLength: shortLength, wholePieces: wholePieces
    )
    .map { Match(start: $0.start, end: $0.end, matchClass: $0.matchClass, readingClass: 0) }
    if best?.matchClass == 0 { return best }
    for k in 0..<subject.alternateCount {
      guard
        let run = bestRun(
          query, units: units, readings: subject.alternate(k), shortLength: shortLength, wholePieces: wholePieces)
      else { continue }
      let candidate = Match(start: run.start, end: run.end, matchClass: run.matchClass, readingClass: 1)
      if best == nil || candidate < best! { best = candidate }
    }
    return best
  }

  /// A necessary condition, cheap to test: the query's first token (never a boundary) must
  /// match some unit, as the same Hanzi or as the first letter of a reading (canonical or
  /// alternate) or literal. Most places fail it, and skip the walk.
  private func firstPieceCanStart(_ first: UInt32, _ subject: Subject) -> Bool {
    if !Hanzi.isLatin(first) { return subject.units.contains(first) }
    let letter = UInt8(truncatingIfNeeded: first)
    func starts(_ token: UInt16) -> Bool {
      kinds[Int(token)] != .opaque && spellingBytes[Int(spellingStarts[Int(token)])] == letter
    }
    return subject.canonical.contains(where: starts) || subject.alternates.contains(where: starts)
  }

  /// The lowest (class, start, end) run of `units` read as `readings` that the query matches.
  private func bestRun(
    _ query: NormalizedQuery, units: ArraySlice<UInt32>, readings: ArraySlice<UInt16>, shortLength: Int,
    wholePieces: Bool
  ) -> (start: Int, end: Int, matchClass: Int)? {
    let n = units.count
    let stride = n + 1
    return query.tokens.withUnsafeBufferPointer { tokens in
      units.withUnsafeBufferPointer { units in
        readings.withUnsafeBufferPointer { readings in
          spellingBytes.withUnsafeBufferPointer { spellingBytes in
            spellingStarts.withUnsafeBufferPointer { spellingStarts in
              kinds.withUnsafeBufferPointer { kinds in
                withUnsafeTemporaryAllocation(of: UInt64.self, capacity: (tokens.count + 1) * stride) { memo in
                  // .max marks "not computed": names have at most 63 units, so no end set has bit 63.
                  memo.initialize(repeating: .max)
                  var walker = RunWalker(
                    tokens: tokens, units: units, readings: readings, spellingBytes: spellingBytes,
                    spellingStarts: spellingStarts, kinds: kinds, memo: memo, stride: stride,
                    wholePieces: wholePieces)
                  // Start 0: class 0 if the run covers the short name or the whole name, else class 1.
                  let fromFirst = walker.ends(q: 0, u: 0)
                  if fromFirst != 0 {
                    for end in [shortLength, n] where fromFirst & (1 << UInt64(end - 1)) != 0 {
                      return (0, end, 0)
                    }
                    return (0, fromFirst.trailingZeroBitCount + 1, 1)
                  }
                  for start in 1..<max(n, 1) {
                    let ends = walker.ends(q: 0, u: start)
                    if ends != 0 { return (start, ends.trailingZeroBitCount + 1, 2) }
                  }
                  return nil
                }
              }
            }
          }
        }
      }
    }
  }

  // MARK: - Seed mode (MatchSpec §4)

  private func seedMatch(_ prepared: PreparedQuery, _ subject: Subject) -> Match? {
    let units = subject.units
    let n = units.count
    let shortLength = subject.shortLength
    var best: Match?
    func consider(offset: Int, length: Int, whole: Int, short: Int, range: Range<Int>) {
      let matchClass = offset == 0 && (length == whole || length == short) ? 0 : (offset == 0 ? 1 : 2)
      let candidate = Match(start: range.lowerBound, end: range.upperBound, matchClass: matchClass, readingClass: 0)
      if best == nil || candidate < best! { best = candidate }
    }

    // §4.1 The name itself.
    let needle = prepared.needle
    Self.forEachOccurrence(of: needle, in: units) { offset in
      consider(
        offset: offset, length: needle.count, whole: n, short: shortLength, range: offset..<offset + needle.count)
    }
    guard let latin = prepared.latinNeedle else { return best }

    // §4.2 The joined canonical pinyin; `ends[u]` is where unit u's syllable ends.
    let pinyin = subject.pinyin
    let ends = subject.pinyinUnitEnds
    let firstEnd = ends.startIndex
    let shortPinyin = shortLength > 0 ? Int(ends[firstEnd + shortLength - 1]) : 0
    Self.forEachOccurrence(of: latin, in: pinyin) { offset in
      // The units whose syllable overlaps [offset, offset + count).
      var first = 0
      while Int(ends[firstEnd + first]) <= offset { first += 1 }
      var last = first
      while last + 1 < n && Int(ends[firstEnd + last]) < offset + latin.count { last += 1 }
      consider(offset: offset, length: latin.count, whole: pinyin.count, short: shortPinyin, range: first..<last + 1)
    }

    // §4.3 The initials, one letter per unit with a reading.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n) { initials in
      withUnsafeTemporaryAllocation(of: Int.self, capacity: n) { initialUnits in
        var count = 0
        var shortInitials = 0
        for (u, token) in subject.canonical.enumerated() where kinds[Int(token)] != .opaque {
          initials[count] = spellingBytes[Int(spellingStarts[Int(token)])]
          initialUnits[count] = u
          count += 1
          if u < shortLength { shortInitials += 1 }
        }
        Self.forEachOccurrence(of: latin, in: UnsafeBufferPointer(rebasing: initials[0..<count])) { offset in
          consider(
            offset: offset, length: latin.count, whole: count, short: shortInitials,
            range: initialUnits[offset]..<initialUnits[offset + latin.count - 1] + 1)
        }
      }
    }
    return best
  }

  /// Calls `body` with the offset (from the collection's start) of every occurrence of `needle`.
  static func forEachOccurrence<C: RandomAccessCollection>(
    of needle: [C.Element], in haystack: C, _ body: (Int) -> Void
  ) where C.Element: Equatable, C.Index == Int {
    guard !needle.isEmpty, needle.count <= haystack.count else { return }
    let base = haystack.startIndex
    for offset in 0...(haystack.count - needle.count) where haystack[base + offset] == needle[0] {
      var k = 1
      while k < needle.count && haystack[base + offset + k] == needle[k] { k += 1 }
      if k == needle.count { body(offset) }
    }
  }
}

/// The memoized walk of MatchSpec §3 over one reading sequence (with `wholePieces`, only the
/// splits into whole syllables, spelling class 0, §5.2): `ends(q, u)` is the set of
/// units `e` such that query tokens `q...` can be split into pieces matched to units `u..<e`,
/// as a bit set (bit `e - 1`). It does not depend on where the run started, so one memo serves
/// every start.
struct RunWalker {
  let tokens: UnsafeBufferPointer<UInt32>
  let units: UnsafeBufferPointer<UInt32>
  let readings: UnsafeBufferPointer<UInt16>
  let spellingBytes: UnsafeBufferPointer<UInt8>
  let spellingStarts: UnsafeBufferPointer<Int32>
  let kinds: UnsafeBufferPointer<Syllabary.Kind>
  let memo: UnsafeMutableBufferPointer<UInt64>
  let stride: Int
  /// Whether every Latin piece must be a whole syllable (spelling class 0).
  let wholePieces: Bool

  mutating func ends(q: Int, u: Int) -> UInt64 {
    if q == tokens.count { return 1 << UInt64(u - 1) }
    if u == units.count { return 0 }
    let slot = q * stride + u
    if memo[slot] != .max { return memo[slot] }
    let result = compute(q: q, u: u)
    memo[slot] = result
    return result
  }

  private mutating func compute(q: Int, u: Int) -> UInt64 {
    let m = tokens.count
    let t = tokens[q]
    // §3.4 A boundary mark falls between two pieces: at least one unit is behind (leading
    // marks are dropped by normalization) and one ahead (trailing ones too).
    if t == NormalizedQuery.boundary { return ends(q: q + 1, u: u) }
    // §3.1 A Hanzi piece matches the same character.
    if !Hanzi.isLatin(t) { return units[u] == t ? ends(q: q + 1, u: u + 1) : 0 }
    let token = Int(readings[u])
    switch kinds[token] {
    case .opaque:
      return 0
    case .literal:  // §3.3
      return units[u] == t ? ends(q: q + 1, u: u + 1) : 0
    case .syllable:  // §3.2
      let start = Int(spellingStarts[token])
      let length = Int(spellingStarts[token + 1]) - start
      let twoLetterInitial =
        length >= 2 && Syllabary.hasTwoLetterInitial(spellingBytes[start], spellingBytes[start + 1])
      var result: UInt64 = 0
      var k = 0
      // Every admissible piece is a prefix of the syllable: the whole syllable, its initial,
      // or (last piece only) any non-empty prefix.
      while k < length && q + k < m && UInt32(spellingBytes[start + k]) == tokens[q + k] {
        k += 1
        let isWhole = k == length
        let isInitial = !wholePieces && (k == 1 || (k == 2 && twoLetterInitial))
        if isWhole || isInitial {
          result |= ends(q: q + k, u: u + 1)
        } else if q + k == m && !wholePieces {
          result |= 1 << UInt64(u)
        }
      }
      return result
    }
  }
}
