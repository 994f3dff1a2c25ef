/// One place as the matcher's walk reads it: unsafe views of its units, readings, joined
/// pinyin and aliases, so that matching takes no references. Made from a corpus by
/// ``PlaceMatcher/Places`` and from a ``PlaceMatcher/Subject`` by the matcher; valid only as
/// long as the storage it views.
struct PlaceView {
  var units: UnsafeBufferPointer<UInt32>
  /// One token per unit.
  var canonical: UnsafeBufferPointer<UInt16>
  /// The alternate sequences, flattened, each as long as `units`.
  var alternates: UnsafeBufferPointer<UInt16>
  /// The joined canonical pinyin and, per unit, where its syllable ends in it (`seed` mode).
  var pinyin: UnsafeBufferPointer<UInt8>
  var pinyinUnitEnds: UnsafeBufferPointer<UInt8>
  var shortLength: Int
  /// The aliases' tokens, and where each alias ends as an index of the storage that
  /// `aliasUnits` starts at `aliasBase` of.
  var aliasUnits: UnsafeBufferPointer<UInt32>
  var aliasEnds: UnsafeBufferPointer<Int32>
  var aliasBase: Int

  var alternateCount: Int { units.isEmpty ? 0 : alternates.count / units.count }

  func alternate(_ k: Int) -> UnsafeBufferPointer<UInt16> {
    UnsafeBufferPointer(rebasing: alternates[k * units.count..<(k + 1) * units.count])
  }
}

/// The matcher's walks of MatchSpec §3, §4 and §8 over one ``PlaceView``, with the syllabary's
/// spellings as unsafe views too.
struct MatchWalk {
  /// Token spellings, flattened: token `t` is `spellingBytes[spellingStarts[t]..<spellingStarts[t + 1]]`.
  let spellingBytes: UnsafeBufferPointer<UInt8>
  let spellingStarts: UnsafeBufferPointer<Int32>
  let kinds: UnsafeBufferPointer<Syllabary.Kind>
  /// The tokens' fuzzy spellings (``FuzzySpellings``), viewed the same way.
  let fuzzy: FuzzyView

  /// The place's best match (MatchSpec §5.3), or `nil`.
  func match(_ prepared: PlaceMatcher.PreparedQuery, mode: MatchMode, place: PlaceView) -> Match? {
    let query = prepared.query
    guard !query.isEmpty else { return nil }
    switch mode {
    case .syllable:
      let long = prepared.minimumUnits(mode) <= place.units.count
      let name =
        long ? syllableMatch(query, place, mayBeWholePieces: prepared.mayBeWholePieces, variants: NoVariants()) : nil
      // Any match that needs no rule, by name or alias, ranks before every fuzzy one (§3.5).
      func fuzzyUnlessNamed() -> Match? {
        name == nil && long && !query.fuzzy.isEmpty ? fuzzyMatch(query, place) : name
      }
      if place.aliasEnds.isEmpty
        || name.map({ $0.spellingClass == 0 && $0.matchClass == 0 && $0.readingClass == 0 }) == true
      {
        return fuzzyUnlessNamed()
      }
      guard let alias = aliasMatch(prepared.needle, place) else { return fuzzyUnlessNamed() }
      return name.map { Swift.min($0, alias) } ?? alias
    case .seed:
      return prepared.minimumUnits(mode) <= place.units.count ? seedMatch(prepared, place) : nil
    }
  }

  // MARK: - Aliases (MatchSpec §8)

  /// The best alias match: the query without its boundary marks is an alias (class 0) or a
  /// prefix of one (class 1); it reports the whole name, with reading class 1.
  private func aliasMatch(_ needle: [UInt32], _ place: PlaceView) -> Match? {
    var start = 0
    var best: Match?
    for end in place.aliasEnds {
      let alias = place.aliasUnits[start..<Int(end) - place.aliasBase]
      start = Int(end) - place.aliasBase
      guard alias.starts(with: needle) else { continue }
      let whole = alias.count == needle.count
      let found = Match(
        start: 0, end: place.units.count, matchClass: whole ? 0 : 1, readingClass: 1, spellingClass: whole ? 0 : 1)
      if found.matchClass == 0 { return found }
      best = found
    }
    return best
  }

  // MARK: - Syllable mode (MatchSpec §3)

  /// The best match through the query's fuzzy rules (§3.5), with fuzzy class 1: asked only of a
  /// place with no match without them, so every match the walk finds needs a rule.
  @inline(never)
  private func fuzzyMatch(_ query: NormalizedQuery, _ place: PlaceView) -> Match? {
    let variants = RuleVariants(view: fuzzy, rules: query.fuzzy)
    guard var match = syllableMatch(query, place, mayBeWholePieces: true, variants: variants) else { return nil }
    match.fuzzyClass = 1
    return match
  }

  /// The best match: the query read as whole syllables (spelling class 0) if the place has such
  /// a match outside its administrative suffix in any reading sequence, else the lower of that
  /// and the match with initials and a last prefix (spelling class 1). Both come from one walk
  /// per reading sequence (`RunWalker` carries both end sets).
  ///
  /// With `variants` of fuzzy rules a piece may also match a syllable's fuzzy spellings of
  /// those rules (§3.5); the classes reported are the other classes (``fuzzyMatch(_:_:)`` sets
  /// the fuzzy class). Generic so that the walk without rules (``NoVariants``) compiles without
  /// a trace of them.
  private func syllableMatch(
    _ query: NormalizedQuery, _ place: PlaceView, mayBeWholePieces: Bool, variants: some SpellingVariants
  ) -> Match? {
    guard firstPieceCanStart(query.tokens[0], place, variants: variants) else { return nil }
    var whole: Match?
    var any: Match?
    /// Whether a match with initials could still beat the whole-syllable one: only one in the
    /// suffix (match class 3) ranks after every match outside it.
    func needsAny() -> Bool { whole.map { $0.matchClass == 3 } ?? true }
    /// Folds one reading sequence's runs in; true when nothing can beat the result any more.
    func consider(_ readings: UnsafeBufferPointer<UInt16>, readingClass: Int) -> Bool {
      let runs = bestRuns(
        query, units: place.units, readings: readings, shortLength: place.shortLength,
        wholeToo: mayBeWholePieces, anyToo: needsAny(), variants: variants)
      if let run = runs.whole {
        let candidate = Match(
          start: run.start, end: run.end, matchClass: run.matchClass, readingClass: readingClass, spellingClass: 0)
        if whole == nil || candidate < whole! { whole = candidate }
      }
      if let run = runs.any {
        let candidate = Match(
          start: run.start, end: run.end, matchClass: run.matchClass, readingClass: readingClass, spellingClass: 1)
        if any == nil || candidate < any! { any = candidate }
      }
      // The canonical sequence's class-0 run beats every alternate's run of its spelling class.
      return readingClass == 0 && (whole ?? any)?.matchClass == 0 && (whole != nil || !mayBeWholePieces)
    }
    func best() -> Match? {
      guard let whole else { return any }
      return any.map { Swift.min(whole, $0) } ?? whole
    }
    if consider(place.canonical, readingClass: 0) { return best() }
    for k in 0..<place.alternateCount {
      _ = consider(place.alternate(k), readingClass: 1)
    }
    return best()
  }

  /// A necessary condition, cheap to test: the query's first token (never a boundary) must
  /// match some unit, as the same Hanzi or as the first letter of a reading (canonical or
  /// alternate), of one of its fuzzy spellings in `variants`, or of a literal. Most places fail
  /// it, and skip the walk.
  private func firstPieceCanStart<V: SpellingVariants>(_ first: UInt32, _ place: PlaceView, variants: V) -> Bool {
    if !Hanzi.isLatin(first) { return place.units.contains(first) }
    let letter = UInt8(truncatingIfNeeded: first)
    func starts(_ token: UInt16) -> Bool {
      MatchRules.initial(firstByte: spellingBytes[Int(spellingStarts[Int(token)])], kind: kinds[Int(token)]) == letter
    }
    if !V.exist { return place.canonical.contains(where: starts) || place.alternates.contains(where: starts) }
    func startsFuzzily(_ token: UInt16) -> Bool {
      if starts(token) { return true }
      for v in variants.variants(of: Int(token)) where variants.enabled(v) {
        if variants.view.bytes[Int(variants.view.starts[v])] == letter { return true }
      }
      return false
    }
    return place.canonical.contains(where: startsFuzzily) || place.alternates.contains(where: startsFuzzily)
  }

  typealias Run = (start: Int, end: Int, matchClass: Int)

  /// The lowest (class, start, end) run of `units` read as `readings` that the query matches
  /// as whole pieces (when `wholeToo`), and with any admissible pieces (when `anyToo`), from
  /// one memoized walk.
  private func bestRuns(
    _ query: NormalizedQuery, units: UnsafeBufferPointer<UInt32>, readings: UnsafeBufferPointer<UInt16>,
    shortLength: Int, wholeToo: Bool, anyToo: Bool, variants: some SpellingVariants
  ) -> (whole: Run?, any: Run?) {
    let n = units.count
    let stride = n + 1
    return query.tokens.withUnsafeBufferPointer { tokens in
      withUnsafeTemporaryAllocation(of: RunEnds.self, capacity: (tokens.count + 1) * stride) { memo in
        memo.initialize(repeating: RunEnds.notComputed)
        var walker = RunWalker(
          tokens: tokens, units: units, readings: readings, spellingBytes: spellingBytes,
          spellingStarts: spellingStarts, kinds: kinds, variants: variants, memo: memo, stride: stride)
        /// The lowest (class, start, end) run (``MatchRules/matchClass(start:end:whole:short:)``):
        /// from the first unit, a run covering the short or the whole name (class 0) before the
        /// shortest one; else the earliest start.
        func lowest(startingBefore limit: Int = n, _ endSet: (RunEnds) -> UInt64) -> Run? {
          let fromFirst = endSet(walker.ends(q: 0, u: 0))
          if fromFirst != 0 {
            for end in [shortLength, n] where fromFirst & (1 << UInt64(end - 1)) != 0 {
              return (0, end, MatchRules.matchClass(start: 0, end: end, whole: n, short: shortLength))
            }
            let end = fromFirst.trailingZeroBitCount + 1
            return (0, end, MatchRules.matchClass(start: 0, end: end, whole: n, short: shortLength))
          }
          for start in 1..<max(min(limit, n), 1) {
            let ends = endSet(walker.ends(q: 0, u: start))
            if ends != 0 {
              let end = ends.trailingZeroBitCount + 1
              return (start, end, MatchRules.matchClass(start: start, end: end, whole: n, short: shortLength))
            }
          }
          return nil
        }
        let whole = wholeToo ? lowest { $0.whole } : nil
        guard anyToo else { return (whole, nil) }
        // Beside a whole-syllable run in the suffix, only a run that starts before it can win.
        guard let whole else { return (nil, lowest { $0.any }) }
        return (whole, whole.matchClass == 3 ? lowest(startingBefore: shortLength) { $0.any } : nil)
      }
    }
  }

  // MARK: - Seed mode (MatchSpec §4)

  private func seedMatch(_ prepared: PlaceMatcher.PreparedQuery, _ place: PlaceView) -> Match? {
    let units = place.units
    let n = units.count
    let shortLength = place.shortLength
    var best: Match?

    // §4.1 The name itself.
    let needle = prepared.needle
    Self.forEachOccurrence(of: needle, in: units) { offset in
      Self.consider(
        &best, offset: offset, length: needle.count, whole: n, short: shortLength, range: offset..<offset + needle.count
      )
    }
    guard let latin = prepared.latinNeedle else { return best }

    // §4.2 The joined canonical pinyin; `ends[u]` is where unit u's syllable ends.
    let pinyin = place.pinyin
    let ends = place.pinyinUnitEnds
    let shortPinyin = shortLength > 0 ? Int(ends[shortLength - 1]) : 0
    Self.forEachOccurrence(of: latin, in: pinyin) { offset in
      // The units whose syllable overlaps [offset, offset + count).
      var first = 0
      while Int(ends[first]) <= offset { first += 1 }
      var last = first
      while last + 1 < n && Int(ends[last]) < offset + latin.count { last += 1 }
      Self.consider(
        &best, offset: offset, length: latin.count, whole: pinyin.count, short: shortPinyin, range: first..<last + 1)
    }

    // §4.3 The initials, one letter per unit with a reading.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n) { initials in
      withUnsafeTemporaryAllocation(of: Int.self, capacity: n) { initialUnits in
        var count = 0
        var shortInitials = 0
        for (u, token) in place.canonical.enumerated() {
          let first = spellingBytes[Int(spellingStarts[Int(token)])]
          guard let initial = MatchRules.initial(firstByte: first, kind: kinds[Int(token)]) else { continue }
          initials[count] = initial
          initialUnits[count] = u
          count += 1
          if u < shortLength { shortInitials += 1 }
        }
        Self.forEachOccurrence(of: latin, in: UnsafeBufferPointer(rebasing: initials[0..<count])) { offset in
          Self.consider(
            &best, offset: offset, length: latin.count, whole: count, short: shortInitials,
            range: initialUnits[offset]..<initialUnits[offset + latin.count - 1] + 1)
        }
      }
    }
    return best
  }

  /// Keeps in `best` the lower of it and an occurrence at `offset` of `length` in a string of
  /// `whole` (its short name's part `short`) spanning the units `range`. A static function with
  /// `best` passed in: a local function capturing it would check every access at run time.
  @inline(__always)
  private static func consider(
    _ best: inout Match?, offset: Int, length: Int, whole: Int, short: Int, range: Range<Int>
  ) {
    let matchClass = MatchRules.matchClass(start: offset, end: offset + length, whole: whole, short: short)
    let candidate = Match(start: range.lowerBound, end: range.upperBound, matchClass: matchClass, readingClass: 0)
    if best.map({ candidate < $0 }) ?? true { best = candidate }
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

/// The two end sets of one memo slot of ``RunWalker``; `whole` is a subset of `any`.
struct RunEnds {
  var any: UInt64
  var whole: UInt64
  /// Names have at most 63 units, so no end set has bit 63.
  static let notComputed = RunEnds(any: .max, whole: .max)
}

/// The memoized walk of MatchSpec §3 over one reading sequence: `ends(q, u)` is the set of
/// units `e` such that query tokens `q...` can be split into pieces matched to units `u..<e`,
/// as a bit set (bit `e - 1`), once for any admissible pieces and once for whole pieces only
/// (spelling class 0, §5.2). It does not depend on where the run started, so one memo serves
/// every start.
struct RunWalker<Variants: SpellingVariants> {
  typealias Ends = RunEnds

  let tokens: UnsafeBufferPointer<UInt32>
  let units: UnsafeBufferPointer<UInt32>
  let readings: UnsafeBufferPointer<UInt16>
  let spellingBytes: UnsafeBufferPointer<UInt8>
  let spellingStarts: UnsafeBufferPointer<Int32>
  let kinds: UnsafeBufferPointer<Syllabary.Kind>
  /// The spellings a piece may match besides a syllable's own (§3.5): none, or a rule set's.
  let variants: Variants
  let memo: UnsafeMutableBufferPointer<Ends>
  let stride: Int

  mutating func ends(q: Int, u: Int) -> Ends {
    if q == tokens.count {
      let end: UInt64 = 1 << UInt64(u - 1)
      return Ends(any: end, whole: end)
    }
    if u == units.count { return Ends(any: 0, whole: 0) }
    let slot = q * stride + u
    if memo[slot].any != .max { return memo[slot] }
    let result = compute(q: q, u: u)
    memo[slot] = result
    return result
  }

  private mutating func compute(q: Int, u: Int) -> Ends {
    let none = Ends(any: 0, whole: 0)
    let t = tokens[q]
    // §3.4 A boundary mark falls between two pieces: at least one unit is behind (leading
    // marks are dropped by normalization) and one ahead (trailing ones too).
    if t == NormalizedQuery.boundary { return ends(q: q + 1, u: u) }
    // §3.1 A Hanzi piece matches the same character.
    if !Hanzi.isLatin(t) { return units[u] == t ? ends(q: q + 1, u: u + 1) : none }
    let token = Int(readings[u])
    switch kinds[token] {
    case .opaque:
      return none
    case .literal:  // §3.3
      return units[u] == t ? ends(q: q + 1, u: u + 1) : none
    case .syllable:  // §3.2
      let start = Int(spellingStarts[token])
      var result = pieces(q: q, u: u, spellingBytes, start: start, length: Int(spellingStarts[token + 1]) - start)
      if Variants.exist {  // §3.5 and the syllable's fuzzy spellings of the enabled rules
        for v in variants.variants(of: token) where variants.enabled(v) {
          let first = Int(variants.view.starts[v])
          let variant = pieces(
            q: q, u: u, variants.view.bytes, start: first, length: Int(variants.view.starts[v + 1]) - first)
          result.any |= variant.any
          result.whole |= variant.whole
        }
      }
      return result
    }
  }

  /// The end sets of the runs whose first piece matches unit `u` spelled
  /// `bytes[start..<start + length]` (§3.2).
  @inline(__always)
  private mutating func pieces(q: Int, u: Int, _ bytes: UnsafeBufferPointer<UInt8>, start: Int, length: Int) -> Ends {
    let m = tokens.count
    let initialLength = MatchRules.initialLength(bytes, start: start, length: length)
    var result = Ends(any: 0, whole: 0)
    var k = 0
    while k < length && q + k < m && UInt32(bytes[start + k]) == tokens[q + k] {
      k += 1
      let piece = MatchRules.piece(prefix: k, of: length, initialLength: initialLength, endsQuery: q + k == m)
      if piece == .whole {  // the only piece that keeps spelling class 0
        let next = ends(q: q + k, u: u + 1)
        result.any |= next.any
        result.whole |= next.whole
      } else if piece == .initial {
        result.any |= ends(q: q + k, u: u + 1).any
      } else if piece == .lastPrefix {
        result.any |= 1 << UInt64(u)
      }
    }
    return result
  }
}

/// ``FuzzySpellings`` as unsafe views, for the walks' inner loops.
struct FuzzyView {
  let firsts: UnsafeBufferPointer<Int32>
  let starts: UnsafeBufferPointer<Int32>
  let bytes: UnsafeBufferPointer<UInt8>
  let rules: UnsafeBufferPointer<FuzzyRules>

  @inline(__always)
  func variants(of token: Int) -> Range<Int> { Int(firsts[token])..<Int(firsts[token + 1]) }

}

/// The spellings besides a syllable's own that a walk lets a piece match: none
/// (``NoVariants``) or the fuzzy spellings of a rule set (``RuleVariants``). ``exist`` is a
/// type's constant, so the walk without rules compiles as if fuzzy spellings did not exist.
protocol SpellingVariants {
  /// Whether the type has any variants at all.
  static var exist: Bool { get }
  /// The tables, when it has.
  var view: FuzzyView { get }
  /// Whether variant `variant` may be matched.
  func enabled(_ variant: Int) -> Bool
}

extension SpellingVariants {
  /// The variants of token `token`.
  @inline(__always)
  func variants(of token: Int) -> Range<Int> { view.variants(of: token) }
}

/// No spelling but the syllable's own.
struct NoVariants: SpellingVariants {
  static var exist: Bool { false }
  var view: FuzzyView { preconditionFailure("no variants") }
  func enabled(_ variant: Int) -> Bool { false }
}

/// The fuzzy spellings of the rules `rules` (MatchSpec §3.5).
struct RuleVariants: SpellingVariants {
  static var exist: Bool { true }
  let view: FuzzyView
  let rules: FuzzyRules

  @inline(__always)
  func enabled(_ variant: Int) -> Bool { view.rules[variant].isSubset(of: rules) }
}
