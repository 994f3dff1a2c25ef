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

  /// The most alternate syllable sequences a name gets (MatchSpec §7).
  public static let maximumAlternates = 8

  public init(polyphones: [Unicode.Scalar: [String]], simplified: [UInt32: UInt32]) {
    self.polyphones = polyphones
    self.simplified = simplified
  }

  /// Tables with no entries: no alternate readings, no folding.
  public static let empty = ReadingTables(polyphones: [:], simplified: [:])

  /// The alternate syllable sequences of a name (MatchSpec §7): the canonical sequence with
  /// any non-empty subset of its whitelisted characters swapped to another of their readings.
  ///
  /// Subsets are taken in order of size, then lexicographically by position; within a subset,
  /// readings in table order. At most ``maximumAlternates`` sequences are returned.
  public func alternates(units: [Unicode.Scalar], canonical: [String]) -> [[String]] {
    var positions: [(index: Int, readings: [String])] = []
    for (index, unit) in units.enumerated() {
      guard let readings = polyphones[unit] else { continue }
      let others = readings.filter { $0 != canonical[index] }
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
