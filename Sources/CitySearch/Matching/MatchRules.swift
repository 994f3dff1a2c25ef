/// The rules of the match contract that every implementation applies, written once: the pieces
/// a query may split into (MatchSpec §3.2), a unit's initial (§4.3) and the match class of a
/// run (§5.1).
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
}
