/// The two match contracts of MatchSpec: `syllable` (the default) and `seed`.
public enum MatchMode: String, Sendable, CaseIterable {
  /// Query pieces matched to a contiguous run of the name's units (MatchSpec §3).
  case syllable
  /// Substring containment in the name, the joined pinyin or the initials (MatchSpec §4).
  case seed
}

/// How one place matched: the match range and the classes that rank it (MatchSpec §5).
///
/// Matches compare by (spelling class, match class, reading class, start, end): among a place's
/// matches the lowest is reported.
public struct Match: Sendable, Hashable, Comparable {
  /// First unit of the match range.
  public var start: Int
  /// One past the last unit of the match range.
  public var end: Int
  /// 0 the whole name or the whole short name; 1 the run starts at the first unit; 2 later.
  public var matchClass: Int
  /// 0 canonical readings and Hanzi only; 1 an alternate reading was needed.
  public var readingClass: Int
  /// 0 when every piece is a whole syllable, a Hanzi or a literal, or the query is a whole
  /// alias; 1 when a piece is an initial or a last prefix (`s`+`hang` for 上杭, `bj`), or the
  /// query a prefix of an alias. Always 0 in `seed` mode.
  public var spellingClass: Int

  /// A match of the units `start..<end` with its classes.
  public init(start: Int, end: Int, matchClass: Int, readingClass: Int, spellingClass: Int = 0) {
    self.start = start
    self.end = end
    self.matchClass = matchClass
    self.readingClass = readingClass
    self.spellingClass = spellingClass
  }

  public static func < (a: Match, b: Match) -> Bool {
    (a.spellingClass, a.matchClass, a.readingClass, a.start, a.end)
      < (b.spellingClass, b.matchClass, b.readingClass, b.start, b.end)
  }
}
