/// A query after normalization (MatchSpec §2): a sequence of tokens, each a Hanzi (its scalar
/// value), an ASCII lower-case letter or digit, or a syllable-boundary mark.
public struct NormalizedQuery: Sendable, Hashable {
  /// The token value of a boundary mark (an apostrophe).
  public static let boundary: UInt32 = 0x27

  /// The tokens; boundary marks never lead, trail or repeat.
  public let tokens: [UInt32]
  /// The fewest name units any `syllable`-mode match must span: one per Hanzi, and one per six
  /// letters of each Latin run between boundary marks (no syllable is longer). Lets a matcher
  /// reject a long query at once. (The `seed` mode ignores boundary marks, MatchSpec §4.)
  public let minimumUnits: Int
  /// Whether the query has any Hanzi.
  public let hasHanzi: Bool
  /// The fuzzy rules its Latin pieces are read with (MatchSpec §3.5); none by default.
  public let fuzzy: FuzzyRules

  /// A query of these tokens (units and boundary marks), already normalized, read with the
  /// fuzzy rules `fuzzy`.
  public init(tokens: [UInt32], fuzzy: FuzzyRules = []) {
    self.tokens = tokens
    self.fuzzy = fuzzy
    var minimum = 0
    var run = 0
    var hasHanzi = false
    for t in tokens {
      if Hanzi.isLatin(t) {
        run += 1
        continue
      }
      minimum += (run + 5) / 6
      run = 0
      if t != Self.boundary {
        minimum += 1
        hasHanzi = true
      }
    }
    self.minimumUnits = minimum + (run + 5) / 6
    self.hasHanzi = hasHanzi
  }

  /// Whether nothing is left to match; such a query has zero results.
  public var isEmpty: Bool { tokens.isEmpty }

  /// The query as text, boundary marks written as `'` (`xi'an`).
  public var text: String {
    var s = String.UnicodeScalarView()
    for t in tokens { s.append(Unicode.Scalar(t)!) }
    return String(s)
  }

  /// Whether `other`'s tokens begin with this query's tokens and it is read with the same fuzzy
  /// rules. Under both modes, extending a query can only shrink its set of matches (MatchSpec
  /// §6), which sessions rely on.
  public func isPrefix(of other: NormalizedQuery) -> Bool { other.fuzzy == fuzzy && other.tokens.starts(with: tokens) }

  /// The same tokens read with the fuzzy rules `rules`.
  public func reading(fuzzy rules: FuzzyRules) -> NormalizedQuery { NormalizedQuery(tokens: tokens, fuzzy: rules) }
}
