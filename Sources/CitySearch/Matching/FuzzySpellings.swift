/// Every syllable token's fuzzy spellings (``MatchRules/fuzzySpellings(of:)``), flattened for
/// the walks that read them: the shared matcher's, the trie's and the letter-key generator's.
/// Built once for a syllabary; a search keeps the spellings whose rules it enabled.
///
/// ```swift
/// let fuzzy = FuzzySpellings(syllabary: corpus.syllabary)
/// for v in fuzzy.variants(of: token) where fuzzy.rules[v].isSubset(of: enabled) {
///   let spelling = fuzzy.bytes[Int(fuzzy.starts[v])..<Int(fuzzy.starts[v + 1])]
/// }
/// ```
public struct FuzzySpellings: Sendable {
  /// Per token, where its variants begin: token `t`'s are `firsts[t]..<firsts[t + 1]`.
  public let firsts: ContiguousArray<Int32>
  /// Per variant, where its spelling begins in ``bytes``: variant `v` is
  /// `bytes[starts[v]..<starts[v + 1]]`.
  public let starts: ContiguousArray<Int32>
  /// The variants' spellings, back to back.
  public let bytes: ContiguousArray<UInt8>
  /// Per variant, the rules it needs.
  public let rules: ContiguousArray<FuzzyRules>

  /// The fuzzy spellings of every syllable token of `syllabary` (literals and opaque tokens have
  /// none).
  public init(syllabary: Syllabary) {
    var firsts = ContiguousArray<Int32>([0])
    var starts = ContiguousArray<Int32>([0])
    var bytes = ContiguousArray<UInt8>()
    var rules = ContiguousArray<FuzzyRules>()
    for (spelling, kind) in zip(syllabary.spellings, syllabary.kinds) {
      if kind == .syllable {
        for variant in MatchRules.fuzzySpellings(of: spelling) {
          bytes += variant.spelling
          starts.append(Int32(bytes.count))
          rules.append(variant.rules)
        }
      }
      firsts.append(Int32(rules.count))
    }
    self.firsts = firsts
    self.starts = starts
    self.bytes = bytes
    self.rules = rules
  }

  /// No variants of any token: a placeholder for a walk that reads none.
  public static let none = FuzzySpellings()

  private init() {
    firsts = []
    starts = [0]
    bytes = []
    rules = []
  }

  /// The variants of token `token`, as indices into ``starts`` and ``rules``.
  @inlinable
  public func variants(of token: Int) -> Range<Int> { Int(firsts[token])..<Int(firsts[token + 1]) }

  /// The spelling of variant `variant` as a `String` (`zong` for 中 under zh-z).
  public func spelling(_ variant: Int) -> String {
    String(decoding: bytes[Int(starts[variant])..<Int(starts[variant + 1])], as: UTF8.self)
  }

  /// The bytes of the tables.
  public var byteCount: Int { firsts.count * 4 + starts.count * 4 + bytes.count + rules.count * 2 }
}
