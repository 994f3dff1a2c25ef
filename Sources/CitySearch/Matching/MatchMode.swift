/// The two match contracts of MatchSpec: `syllable` (the default) and `seed`.
public enum MatchMode: String, Sendable, CaseIterable {
  /// Query pieces matched to a contiguous run of the name's units (MatchSpec §3).
  case syllable
  /// Substring containment in the name, the joined pinyin or the initials (MatchSpec §4).
  case seed
}

/// How one place matched: the match range and the classes that rank it (MatchSpec §5).
///
/// Matches compare by (match class, reading class, start, end): among a place's matches the
/// lowest is reported.
public struct Match: Sendable, Hashable, Comparable {
  /// First unit of the match range.
  public var start: Int
  /// One past the last unit of the match range.
  public var end: Int
  /// 0 the whole name or the whole short name; 1 the run starts at the first unit; 2 later.
  public var matchClass: Int
  /// 0 canonical readings and Hanzi only; 1 an alternate reading was needed.
  public var readingClass: Int

  public init(start: Int, end: Int, matchClass: Int, readingClass: Int) {
    self.start = start
    self.end = end
    self.matchClass = matchClass
    self.readingClass = readingClass
  }

  public static func < (a: Match, b: Match) -> Bool {
    (a.matchClass, a.readingClass, a.start, a.end) < (b.matchClass, b.readingClass, b.start, b.end)
  }
}
