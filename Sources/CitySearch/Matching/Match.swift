/// How one place matched: the match range and the classes that rank it (MatchSpec §5).
///
/// Matches compare by (fuzzy class, suffix, spelling class, match class, reading class, start,
/// end): among a place's matches the lowest is reported. A match is one 19-bit integer whose
/// integer order is that order, so every backend, the reference included, keeps, compares and
/// ranks the same value: fuzzy class (1 bit: a fuzzy rule was needed, §3.5), suffix (1: match
/// class 3, a run in the administrative suffix), spelling class (1), match class (2: 0, 1, or 2
/// for classes 2 and 3), reading class (1), start (6), end (7). Names have at most 63 units.
@frozen
public struct Match: Sendable, Hashable, Comparable {
  /// The packed fields, highest first; compare as the match order.
  public var bits: UInt32

  /// The match whose packed fields are `bits`.
  @inlinable
  public init(bits: UInt32) { self.bits = bits }

  /// A match of the units `start..<end` with its classes.
  @inlinable
  public init(start: Int, end: Int, matchClass: Int, readingClass: Int, spellingClass: Int = 0, fuzzyClass: Int = 0) {
    let match = UInt32(truncatingIfNeeded: matchClass) & 3
    let suffix = match & match >> 1
    bits =
      UInt32(truncatingIfNeeded: fuzzyClass) << 18 | suffix << 17 | UInt32(truncatingIfNeeded: spellingClass) << 16
      | (match ^ suffix) << 14
      | UInt32(truncatingIfNeeded: readingClass) << 13 | UInt32(truncatingIfNeeded: start) << 7
      | UInt32(truncatingIfNeeded: end)
  }

  /// Worse than every real match: the "none yet" value of a running minimum.
  public static let none = Match(bits: .max)

  /// First unit of the match range.
  @inlinable
  public var start: Int {
    get { Int(bits >> 7 & 0x3F) }
    set { bits = bits & ~(0x3F << 7) | UInt32(truncatingIfNeeded: newValue) << 7 }
  }

  /// One past the last unit of the match range.
  @inlinable
  public var end: Int {
    get { Int(bits & 0x7F) }
    set { bits = bits & ~0x7F | UInt32(truncatingIfNeeded: newValue) }
  }

  /// 0 the whole name or the whole short name; 1 the run starts at the first unit; 2 later,
  /// within the short name; 3 in the administrative suffix, after the short name (§5.2).
  @inlinable
  public var matchClass: Int {
    get { Int(bits >> 14 & 3 | bits >> 17 & 1) }
    set {
      let match = UInt32(truncatingIfNeeded: newValue) & 3
      let suffix = match & match >> 1
      bits = bits & ~(1 << 17 | 3 << 14) | suffix << 17 | (match ^ suffix) << 14
    }
  }

  /// 0 canonical readings and Hanzi only; 1 an alternate reading was needed.
  @inlinable
  public var readingClass: Int {
    get { Int(bits >> 13 & 1) }
    set { bits = bits & ~(1 << 13) | UInt32(truncatingIfNeeded: newValue) << 13 }
  }

  /// 0 when every piece is a whole syllable, a Hanzi or a literal, or the query is a whole
  /// alias; 1 when a piece is an initial or a last prefix (`s`+`hang` for 上杭, `bj`), or the
  /// query a prefix of an alias. Always 0 in `seed` mode.
  @inlinable
  public var spellingClass: Int {
    get { Int(bits >> 16 & 1) }
    set { bits = bits & ~(1 << 16) | UInt32(truncatingIfNeeded: newValue) << 16 }
  }

  /// 0 when the match needs no fuzzy rule; 1 when a piece matched a syllable only through one
  /// (§3.5): such a match ranks after every match that needs none.
  @inlinable
  public var fuzzyClass: Int {
    get { Int(bits >> 18 & 1) }
    set { bits = bits & ~(1 << 18) | UInt32(truncatingIfNeeded: newValue) << 18 }
  }

  /// The match's class combination, the packed bits above its range (fuzzy class ≪ 5 | suffix
  /// ≪ 4 | spelling class ≪ 3 | match class field ≪ 1 | reading class): what its rank penalty
  /// depends on (``RankingWeights/penalties``), one of ``classCombinations``.
  @inlinable
  public var classes: Int { Int(bits >> 13 & 63) }

  /// How many class combinations the packed bits can hold.
  public static let classCombinations = 64

  /// The first class combination (``classes``) of a match whose spelling class is at least
  /// `spellingClass` and whose match class is at least `matchClass` (0, 1 or 2): every such
  /// match's combination is this one or a later one.
  @inlinable
  public static func firstCombination(spellingClassAtLeast spellingClass: Int, matchClassAtLeast matchClass: Int) -> Int
  {
    spellingClass << 3 | matchClass << 1
  }

  /// Whether `a` is the better match.
  @inlinable
  public static func < (a: Match, b: Match) -> Bool { a.bits < b.bits }
}

extension Match: CustomStringConvertible {
  /// `Match(start: 0, end: 2, matchClass: 0, readingClass: 0, spellingClass: 1)`, with
  /// `fuzzyClass: 1` after them for a fuzzy match.
  public var description: String {
    "Match(start: \(start), end: \(end), matchClass: \(matchClass), readingClass: \(readingClass), spellingClass: \(spellingClass)"
      + (fuzzyClass == 0 ? ")" : ", fuzzyClass: 1)")
  }
}
