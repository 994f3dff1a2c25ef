/// The rules of the match contract that every implementation applies, written once: the pieces
/// a query may split into (MatchSpec §3.2), the spellings fuzzy rules give a syllable (§3.5), a
/// unit's initial (§4.3) and the match class of a run (§5.1).
///
/// The shared matcher's walk, the trie's walk and the inverted index's key generator all call
/// these functions, so a change of a rule (fuzzy finals, another keyboard) is made here and
/// nowhere else. They are `@inlinable` and small: each caller's hot loop compiles them in.
///
/// ```swift
/// // "zh" of "zhang": an initial; "zha": a prefix, admissible only as the query's last piece.
/// MatchRules.piece(prefix: 2, of: 5, initialLength: 2, endsQuery: false)  // .initial
/// MatchRules.piece(prefix: 3, of: 5, initialLength: 2, endsQuery: true)   // .lastPrefix
/// MatchRules.piece(prefix: 3, of: 5, initialLength: 2, endsQuery: false)  // nil
/// ```
public enum MatchRules {
  /// What the first letters of a syllable's spelling are as one piece of a query (§3.2).
  public enum Piece: Sendable {
    /// The whole syllable: the only piece that keeps spelling class 0.
    case whole
    /// Its initial: the first letter, or the two letters of `zh`, `ch`, `sh`.
    case initial
    /// Any other non-empty prefix: admissible only as the query's last piece.
    case lastPrefix
  }

  /// The letters of the initial of a syllable spelled `bytes[start..<start + length]`: 2 for
  /// `zh`, `ch`, `sh`, else 1 (a one-letter initial piece is admissible for those too).
  @inlinable @inline(__always)
  public static func initialLength<Bytes: RandomAccessCollection<UInt8>>(
    _ bytes: Bytes, start: Int, length: Int
  ) -> Int where Bytes.Index == Int {
    guard length >= 2 && bytes[start + 1] == UInt8(ascii: "h") else { return 1 }
    let first = bytes[start]
    return first == UInt8(ascii: "z") || first == UInt8(ascii: "c") || first == UInt8(ascii: "s") ? 2 : 1
  }

  /// The piece that the first `prefix` letters (1 through `length`) of a syllable spelled with
  /// `length` letters and an initial of `initialLength` letters are, when the query's tokens
  /// begin with them; `nil` when that prefix is no admissible piece there (a prefix that is
  /// neither the whole syllable nor its initial, where the query goes on).
  ///
  /// Callers compare the letters themselves, in their own loop (the matcher's memoized walk,
  /// the trie's walk), and ask this function what each matched prefix is:
  ///
  /// ```swift
  /// var k = 0
  /// while k < length && q + k < m && UInt32(spelling[k]) == tokens[q + k] {
  ///   k += 1
  ///   guard let piece = MatchRules.piece(prefix: k, of: length, initialLength: initial, endsQuery: q + k == m)
  ///   else { continue }
  ///   …
  /// }
  /// ```
  @inlinable @inline(__always)
  public static func piece(prefix: Int, of length: Int, initialLength: Int, endsQuery: Bool) -> Piece? {
    if prefix == length { return .whole }
    if prefix == 1 || prefix == initialLength { return .initial }
    return endsQuery ? .lastPrefix : nil
  }

  /// The initial of a unit whose reading token is of `kind` and whose spelling begins with
  /// `firstByte` (§4.3): the first letter of a syllable or literal; none for an opaque unit
  /// (`firstByte` is then not read).
  @inlinable @inline(__always)
  public static func initial(firstByte: @autoclosure () -> UInt8, kind: Syllabary.Kind) -> UInt8? {
    kind == .opaque ? nil : firstByte()
  }

  /// The match class of a run from `start` to `end` (§5.1), in whichever measure the run is
  /// counted (units, letters of the joined pinyin, initials), given the whole name's and the
  /// short name's length in that measure: 0 for the whole name or the whole short name, 1 for
  /// another run from the start, 2 for a run that starts later within the short name, 3 for one
  /// that starts in the administrative suffix after it (`shi` in 上海市).
  @inlinable @inline(__always)
  public static func matchClass(
    start: Int, end: Int, whole: @autoclosure () -> Int, short: @autoclosure () -> Int
  ) -> Int {
    if start > 0 {
      let short = short()
      return start >= short && short < whole() ? 3 : 2
    }
    return end == whole() || end == short() ? 0 : 1
  }

  // MARK: - Fuzzy spellings (§3.5)

  /// The other spellings of the syllable `spelling` under fuzzy rules, each with the rules it
  /// needs: its initial changed by one initial rule, its final by one final rule, or both
  /// (*lan* → *nan* by n-l, *lang* by an-ang, *nang* by both). A spelling splits into an initial
  /// (`zh`, `ch`, `sh`, else a first consonant, `y` and `w` included) and the final after it,
  /// as written: so *yan* ↔ *yang* and *wan* ↔ *wang* follow an-ang.
  ///
  /// Built once per syllabary (``FuzzySpellings``); not on a search's path.
  public static func fuzzySpellings(of spelling: [UInt8]) -> [(spelling: [UInt8], rules: FuzzyRules)] {
    let text = String(decoding: spelling, as: UTF8.self)
    let initialLength =
      ["zh", "ch", "sh"].contains(where: text.hasPrefix)
      ? 2 : text.first.map { "bpmfdtnlgkhjqxrzcsyw".contains($0) } == true ? 1 : 0
    let initial = String(text.prefix(initialLength))
    let final = String(text.dropFirst(initialLength))
    var initials: [(String, FuzzyRules)] = [(initial, [])]
    for (a, b, rule) in initialPairs {
      if initial == a { initials.append((b, rule)) }
      if initial == b { initials.append((a, rule)) }
    }
    var finals: [(String, FuzzyRules)] = [(final, [])]
    for (a, b, rule) in finalPairs {
      if final == a { finals.append((b, rule)) }
      if final == b { finals.append((a, rule)) }
    }
    if initial == "n" || initial == "l", let first = final.first, first == "u" || first == "v" {
      finals.append(((first == "u" ? "v" : "u") + final.dropFirst(), .uV))
    }
    var result: [(spelling: [UInt8], rules: FuzzyRules)] = []
    for (i, initialRules) in initials {
      for (f, finalRules) in finals where !(initialRules.isEmpty && finalRules.isEmpty) {
        result.append((Array((i + f).utf8), initialRules.union(finalRules)))
      }
    }
    return result
  }

  /// The first letters of the syllables whose spellings or fuzzy spellings under `rules` may
  /// begin with `letter`, a bit per letter (`a` bit 0): `letter` itself, and its partner where
  /// an enabled initial rule pairs initials of different first letters (n-l, r-l, f-h).
  public static func fuzzyFirstLetters(typedAs letter: UInt8, rules: FuzzyRules) -> UInt32 {
    var letters: UInt32 = 1 << UInt32(letter &- 0x61)
    for (x, y, rule) in firstLetterPairs where rules.contains(rule) {
      if x == letter { letters |= 1 << UInt32(y &- 0x61) }
      if y == letter { letters |= 1 << UInt32(x &- 0x61) }
    }
    return letters
  }

  /// The first letters of the initials each initial rule pairs, where they differ (n-l, r-l,
  /// f-h): read off ``initialPairs`` once, so that a search's call is a loop over three bytes.
  static let firstLetterPairs: [(UInt8, UInt8, FuzzyRules)] = initialPairs.compactMap { a, b, rule in
    a.utf8.first! == b.utf8.first! ? nil : (a.utf8.first!, b.utf8.first!, rule)
  }

  /// The initials the fuzzy rules pair.
  static let initialPairs: [(String, String, FuzzyRules)] = [
    ("zh", "z", .zhZ), ("ch", "c", .chC), ("sh", "s", .shS), ("n", "l", .nL), ("r", "l", .rL), ("f", "h", .fH),
  ]

  /// The finals the fuzzy rules pair (u-v, which depends on the initial, apart).
  static let finalPairs: [(String, String, FuzzyRules)] = [
    ("an", "ang", .anAng), ("en", "eng", .enEng), ("in", "ing", .inIng), ("ian", "iang", .ianIang),
    ("uan", "uang", .uanUang),
  ]
}
