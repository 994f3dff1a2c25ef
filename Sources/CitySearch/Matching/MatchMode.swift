/// The two match contracts of MatchSpec: `syllable` (the default) and `seed`.
public enum MatchMode: String, Sendable, CaseIterable {
  /// Query pieces matched to a contiguous run of the name's units (MatchSpec §3).
  case syllable
  /// Substring containment in the name, the joined pinyin or the initials (MatchSpec §4).
  case seed
}
