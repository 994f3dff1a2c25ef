import Foundation

/// The fuzzy pinyin rules a search is read with (MatchSpec §3.5): pairs of initials or finals a
/// typist confuses, either of which may be typed for the other.
///
/// A Latin piece matches a syllable through an enabled rule when it matches, by the rules of
/// §3.2, a spelling of the syllable with its initial, its final or both changed by a rule
/// (``MatchRules/fuzzySpellings(of:)``). Such a match ranks after every match that needs no rule
/// (the fuzzy class, §5.2). `seed` mode ignores the rules.
///
/// ```swift
/// let rules = try FuzzyRules(parsing: "zh-z,n-l")   // or "all"
/// backend.search("lanzou", fuzzy: rules)              // 兰州 (lanzhou)
/// ```
public struct FuzzyRules: OptionSet, Sendable, Hashable, CustomStringConvertible {
  /// One bit per rule, in the order of ``named``.
  public let rawValue: UInt16

  /// The rules whose bits are `rawValue`.
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// `zh` and `z` as initials.
  public static let zhZ = FuzzyRules(rawValue: 1 << 0)
  /// `ch` and `c` as initials.
  public static let chC = FuzzyRules(rawValue: 1 << 1)
  /// `sh` and `s` as initials.
  public static let shS = FuzzyRules(rawValue: 1 << 2)
  /// The finals `an` and `ang`.
  public static let anAng = FuzzyRules(rawValue: 1 << 3)
  /// The finals `en` and `eng`.
  public static let enEng = FuzzyRules(rawValue: 1 << 4)
  /// The finals `in` and `ing`.
  public static let inIng = FuzzyRules(rawValue: 1 << 5)
  /// The finals `ian` and `iang`.
  public static let ianIang = FuzzyRules(rawValue: 1 << 6)
  /// The finals `uan` and `uang`.
  public static let uanUang = FuzzyRules(rawValue: 1 << 7)
  /// `n` and `l` as initials (southern speakers).
  public static let nL = FuzzyRules(rawValue: 1 << 8)
  /// `r` and `l` as initials.
  public static let rL = FuzzyRules(rawValue: 1 << 9)
  /// `f` and `h` as initials.
  public static let fH = FuzzyRules(rawValue: 1 << 10)
  /// `u` and `v` (ü) after `n` and `l` (`lu` for 吕 *lv*, `lv` for 路 *lu*).
  public static let uV = FuzzyRules(rawValue: 1 << 11)

  /// Every rule.
  public static let all = FuzzyRules(rawValue: 1 << 12 - 1)

  /// Each rule with its name on the command line and in the golden file, in bit order.
  public static let named: [(name: String, rule: FuzzyRules)] = [
    ("zh-z", .zhZ), ("ch-c", .chC), ("sh-s", .shS), ("an-ang", .anAng), ("en-eng", .enEng), ("in-ing", .inIng),
    ("ian-iang", .ianIang), ("uan-uang", .uanUang), ("n-l", .nL), ("r-l", .rL), ("f-h", .fH), ("u-v", .uV),
  ]

  /// Rules written as a comma-separated list of names (`zh-z,n-l`), `all`, or `none` (or `-`)
  /// for no rule; a pair may be written either way round (`z-zh`).
  ///
  /// - Throws: ``FuzzyRulesError/unknownRule(_:)`` naming the first name it does not know.
  public init(parsing text: String) throws(FuzzyRulesError) {
    var rules: FuzzyRules = text == "all" ? .all : []
    if text != "all" && text != "none" && text != "-" {
      for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        let name = part.trimmingCharacters(in: .whitespaces).lowercased()
        let reversed = name.split(separator: "-").reversed().joined(separator: "-")
        guard let rule = Self.named.first(where: { $0.name == name || $0.name == reversed })?.rule else {
          throw .unknownRule(String(part))
        }
        rules.insert(rule)
      }
    }
    self = rules
  }

  /// `all`, `none`, or the rules' names joined by commas (`zh-z,n-l`); ``init(parsing:)`` reads it back.
  public var description: String {
    if self == .all { return "all" }
    if isEmpty { return "none" }
    return Self.named.filter { contains($0.rule) }.map(\.name).joined(separator: ",")
  }

  /// The letters (``Hanzi/letterBit(_:)``) a query may hold that a place matched through these
  /// rules lacks: a matcher's test that every query letter occurs in the place ignores them.
  @inlinable
  public var looseLetters: UInt64 {
    guard !isEmpty else { return 0 }
    func bits(_ letters: StaticString) -> UInt64 {
      letters.withUTF8Buffer { $0.reduce(0) { $0 | Hanzi.letterBit(UInt32($1)) } }
    }
    var letters: UInt64 = 0
    if !intersection([.zhZ, .chC, .shS]).isEmpty { letters |= bits("h") }
    if !intersection([.anAng, .enEng, .inIng, .ianIang, .uanUang]).isEmpty { letters |= bits("g") }
    if contains(.nL) { letters |= bits("nl") }
    if contains(.rL) { letters |= bits("rl") }
    if contains(.fH) { letters |= bits("fh") }
    if contains(.uV) { letters |= bits("uv") }
    return letters
  }
}

/// Why a list of fuzzy rules cannot be read.
public enum FuzzyRulesError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A name that is no rule.
  case unknownRule(String)

  public var description: String {
    switch self {
    case .unknownRule(let name):
      let names = FuzzyRules.named.map(\.name).joined(separator: ", ")
      return "unknown fuzzy rule '\(name)' (rules: \(names); or all, none)"
    }
  }
}
