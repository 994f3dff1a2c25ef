/// The shared matcher: decides whether one place matches a query under a mode, and how.
///
/// This is the executable form of docs/MatchSpec.md. The reference backend calls it on every
/// place; indexed backends call it to verify their candidates, so that every backend agrees
/// on what a match is.
public struct PlaceMatcher: Sendable {
  public let corpus: Corpus
  private let spellings: [[UInt8]]
  private let kinds: [Syllabary.Kind]

  public init(corpus: Corpus) {
    self.corpus = corpus
    self.spellings = corpus.syllabary.spellings
    self.kinds = corpus.syllabary.kinds
  }

  /// The place's best match (MatchSpec §5), or `nil`.
  ///
  /// - Complexity: O(m · n · a) for a query of m tokens, a name of n units and a reading
  ///   sequences in `syllable` mode; O(m · n) in `seed` mode.
  public func match(_ query: NormalizedQuery, mode: MatchMode, at index: Int) -> Match? {
    guard !query.isEmpty, query.minimumUnits <= corpus.unitCount(at: index) else { return nil }
    switch mode {
    case .syllable: return syllableMatch(query, at: index)
    case .seed: return seedMatch(query, at: index)
    }
  }

  // MARK: - Syllable mode (MatchSpec §3)

  private func syllableMatch(_ query: NormalizedQuery, at index: Int) -> Match? {
    let units = corpus.units(at: index)
    let shortLength = corpus.shortNameUnitCount(at: index)
    var best = bestRun(query, units: units, readings: corpus.canonicalTokens(at: index), shortLength: shortLength)
      .map { Match(start: $0.start, end: $0.end, matchClass: $0.matchClass, readingClass: 0) }
    if best?.matchClass == 0 { return best }
    for k in 0..<corpus.alternateCount(at: index) {
      guard
        let run = bestRun(query, units: units, readings: corpus.alternateTokens(at: index, k), shortLength: shortLength)
      else { continue }
      let candidate = Match(start: run.start, end: run.end, matchClass: run.matchClass, readingClass: 1)
      if best == nil || candidate < best! { best = candidate }
    }
    return best
  }

  /// The lowest (class, start, end) run of `units` read as `readings` that the query matches.
  private func bestRun(
    _ query: NormalizedQuery, units: ArraySlice<UInt32>, readings: ArraySlice<UInt16>, shortLength: Int
  ) -> (start: Int, end: Int, matchClass: Int)? {
    let n = units.count
    let m = query.tokens.count
    let stride = n + 1
    return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: (m + 1) * stride) { memo in
      memo.initialize(repeating: .max)  // not computed yet: names have at most 63 units, so no set has bit 63
      var walker = RunWalker(
        tokens: query.tokens, units: Array(units), readings: Array(readings), spellings: spellings, kinds: kinds,
        memo: memo, stride: stride)
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

  // MARK: - Seed mode (MatchSpec §4)

  private func seedMatch(_ query: NormalizedQuery, at index: Int) -> Match? {
    let needle = query.tokens.filter { $0 != NormalizedQuery.boundary }
    let units = Array(corpus.units(at: index))
    let n = units.count
    let shortLength = corpus.shortNameUnitCount(at: index)
    var best: Match?
    func consider(_ candidate: Match) {
      if best == nil || candidate < best! { best = candidate }
    }
    func classOf(offset: Int, length: Int, whole: Int, short: Int) -> Int {
      offset == 0 && (length == whole || length == short) ? 0 : (offset == 0 ? 1 : 2)
    }

    // The name itself.
    for offset in Self.occurrences(of: needle, in: units) {
      consider(
        Match(
          start: offset, end: offset + needle.count,
          matchClass: classOf(offset: offset, length: needle.count, whole: n, short: shortLength), readingClass: 0))
    }
    guard !query.hasHanzi else { return best }
    let latin = needle.map { UInt8($0) }

    // The joined canonical pinyin.
    let pinyin = Array(corpus.joinedPinyin(at: index))
    let ends = corpus.pinyinUnitEnds(at: index).map(Int.init)
    let shortPinyin = shortLength > 0 ? ends[shortLength - 1] : 0
    for offset in Self.occurrences(of: latin, in: pinyin) {
      let last = offset + latin.count
      // Units whose syllable overlaps [offset, last).
      var first = 0
      while ends[first] <= offset { first += 1 }
      var end = first
      while end < n && (end == 0 ? 0 : ends[end - 1]) < last { end += 1 }
      consider(
        Match(
          start: first, end: end,
          matchClass: classOf(offset: offset, length: latin.count, whole: pinyin.count, short: shortPinyin),
          readingClass: 0))
    }

    // The initials, one letter per unit with a reading.
    var initials: [UInt8] = []
    var initialUnits: [Int] = []
    var shortInitials = 0
    for (u, token) in corpus.canonicalTokens(at: index).enumerated() where kinds[Int(token)] != .opaque {
      initials.append(spellings[Int(token)][0])
      initialUnits.append(u)
      if u < shortLength { shortInitials += 1 }
    }
    for offset in Self.occurrences(of: latin, in: initials) {
      consider(
        Match(
          start: initialUnits[offset], end: initialUnits[offset + latin.count - 1] + 1,
          matchClass: classOf(offset: offset, length: latin.count, whole: initials.count, short: shortInitials),
          readingClass: 0))
    }
    return best
  }

  static func occurrences<T: Equatable>(of needle: [T], in haystack: [T]) -> [Int] {
    guard !needle.isEmpty, needle.count <= haystack.count else { return [] }
    var result: [Int] = []
    for offset in 0...(haystack.count - needle.count)
    where haystack[offset] == needle[0] && haystack[offset..<offset + needle.count].elementsEqual(needle) {
      result.append(offset)
    }
    return result
  }
}

/// The memoized walk of MatchSpec §3 over one reading sequence: `ends(q, u)` is the set of
/// units `e` such that query tokens `q...` can be split into pieces matched to units `u..<e`,
/// as a bit set (bit `e - 1`). It does not depend on where the run started, so one memo serves
/// every start.
struct RunWalker {
  let tokens: [UInt32]
  let units: [UInt32]
  let readings: [UInt16]
  let spellings: [[UInt8]]
  let kinds: [Syllabary.Kind]
  let memo: UnsafeMutableBufferPointer<UInt64>
  let stride: Int

  mutating func ends(q: Int, u: Int) -> UInt64 {
    let m = tokens.count
    if q == m { return 1 << UInt64(u - 1) }
    if u == units.count { return 0 }
    let slot = q * stride + u
    if memo[slot] != .max { return memo[slot] }
    let result = compute(q: q, u: u, m: m)
    memo[slot] = result
    return result
  }

  private mutating func compute(q: Int, u: Int, m: Int) -> UInt64 {
    let t = tokens[q]
    // A boundary mark falls between two pieces: at least one unit is behind (leading marks
    // are dropped by normalization) and one ahead (trailing ones too).
    if t == NormalizedQuery.boundary { return ends(q: q + 1, u: u) }
    if !Hanzi.isLatin(t) { return units[u] == t ? ends(q: q + 1, u: u + 1) : 0 }
    let token = Int(readings[u])
    switch kinds[token] {
    case .opaque:
      return 0
    case .literal:
      return units[u] == t ? ends(q: q + 1, u: u + 1) : 0
    case .syllable:
      let s = spellings[token]
      let twoLetterInitial = s.count >= 2 && s[1] == UInt8(ascii: "h") && "zcs".utf8.contains(s[0])
      var result: UInt64 = 0
      var k = 0
      // Every admissible piece is a prefix of s: the whole syllable, its initial, or (last
      // piece only) any non-empty prefix.
      while k < s.count && q + k < m && UInt32(s[k]) == tokens[q + k] {
        k += 1
        let isWhole = k == s.count
        let isInitial = k == 1 || (k == 2 && twoLetterInitial)
        let isLast = q + k == m
        if isWhole || isInitial {
          result |= ends(q: q + k, u: u + 1)
        } else if isLast {
          result |= 1 << UInt64(u)
        }
      }
      return result
    }
  }
}
