/// The character tables that every corpus shares: alternate readings of polyphonic characters
/// and the Traditional → Simplified folding used by query normalization.
///
/// They are loaded from `Corpus/polyphones.tsv` and `Corpus/traditional.tsv`; see
/// `docs/MatchSpec.md` §2 and §7.
public struct ReadingTables: Sendable {
  /// Readings of each whitelisted polyphonic character, in table order.
  public let polyphones: [Unicode.Scalar: [String]]
  /// Traditional character → simplified character.
  public let simplified: [UInt32: UInt32]
  /// Facts about known places, by id: prominence and aliases (MatchSpec §5.4, §8).
  public let facts: PlaceFacts

  /// The most alternate syllable sequences a name gets (MatchSpec §7).
  public static let maximumAlternates = 8

  /// Tables from the readings of polyphonic characters, the Traditional-to-Simplified map and the places' facts.
  public init(polyphones: [Unicode.Scalar: [String]], simplified: [UInt32: UInt32], facts: PlaceFacts = .empty) {
    self.polyphones = polyphones
    self.simplified = simplified
    self.facts = facts
  }

  /// Tables with no entries: no alternate readings, no folding, no place facts.
  public static let empty = ReadingTables(polyphones: [:], simplified: [:])

  /// `scalars` folded Traditional → Simplified one character at a time (MatchSpec §2.6), as a
  /// query is: how a corpus keys a name and an imported list's names are compared.
  public func simplifying(_ scalars: some Sequence<Unicode.Scalar>) -> [Unicode.Scalar] {
    scalars.map { simplified[$0.value].flatMap(Unicode.Scalar.init) ?? $0 }
  }

  /// `text` folded as ``simplifying(_:)-(Sequence<Unicode.Scalar>)`` folds its scalars.
  public func simplifying(_ text: String) -> String {
    String(String.UnicodeScalarView(simplifying(text.unicodeScalars)))
  }

  /// Whether a name may have alternate sequences at all: it has a whitelisted character, or a
  /// reading with ü (MatchSpec §7).
  public func mayHaveAlternates(units: [Unicode.Scalar], canonical: [String]) -> Bool {
    units.contains { polyphones[$0] != nil } || canonical.contains { Self.uSpelling(of: $0) != nil }
  }

  /// The spelling of a `lü`/`nü` syllable with `u` for `ü` (`lv` → `lu`, `nve` → `nue`), what
  /// most people type (MatchSpec §7); `nil` for any other syllable.
  public static func uSpelling(of reading: String) -> String? {
    let bytes = Array(reading.utf8)
    guard bytes.count >= 2, bytes[0] == UInt8(ascii: "l") || bytes[0] == UInt8(ascii: "n"),
      bytes[1] == UInt8(ascii: "v")
    else { return nil }
    return String(decoding: [bytes[0], UInt8(ascii: "u")] + bytes[2...], as: UTF8.self)
  }

  /// The alternate syllable sequences of a name (MatchSpec §7): the canonical sequence with
  /// any non-empty subset of its variable positions swapped to another of their readings. A
  /// position is variable when its character is whitelisted (its other readings, in table
  /// order) or its reading has ü after `l` or `n` (that reading spelled with `u`, last).
  ///
  /// Subsets are taken in order of size, then lexicographically by position; within a subset,
  /// readings in the order above. At most ``maximumAlternates`` sequences are returned.
  public func alternates(units: [Unicode.Scalar], canonical: [String]) -> [[String]] {
    var positions: [(index: Int, readings: [String])] = []
    for (index, unit) in units.enumerated() {
      var others = (polyphones[unit] ?? []).filter { $0 != canonical[index] }
      for reading in [canonical[index]] + others {
        if let u = Self.uSpelling(of: reading), !others.contains(u) { others.append(u) }
      }
      if !others.isEmpty { positions.append((index, others)) }
    }
    guard !positions.isEmpty else { return [] }
    var result: [[String]] = []
    for size in 1...positions.count {
      for subset in Self.combinations(of: positions.count, size: size) {
        var choice = [Int](repeating: 0, count: size)
        while true {
          var sequence = canonical
          for (slot, p) in subset.enumerated() {
            sequence[positions[p].index] = positions[p].readings[choice[slot]]
          }
          result.append(sequence)
          if result.count == Self.maximumAlternates { return result }
          // Next reading choice, last slot fastest.
          var slot = size - 1
          while slot >= 0 {
            choice[slot] += 1
            if choice[slot] < positions[subset[slot]].readings.count { break }
            choice[slot] = 0
            slot -= 1
          }
          if slot < 0 { break }
        }
      }
    }
    return result
  }

  private static func combinations(of n: Int, size: Int) -> [[Int]] {
    var result: [[Int]] = []
    var current: [Int] = []
    func walk(_ from: Int) {
      if current.count == size {
        result.append(current)
        return
      }
      guard from < n else { return }
      for i in from..<n {
        current.append(i)
        walk(i + 1)
        current.removeLast()
      }
    }
    walk(0)
    return result
  }
}
