import CitySearch

/// Keys for strings of one to five letters or digits: each character is a digit 1…36 in base
/// 37 (`a`…`z` then `0`…`9`), so strings of different lengths never share a key.
public enum LetterKey {
  /// The number of keys: every string of up to three characters.
  public static let count = 37 * 37 * 37

  /// The digit of one letter or digit: `a`…`z` are 1…26, `0`…`9` are 27…36.
  @inlinable @inline(__always)
  public static func digit(_ c: UInt32) -> Int32 { c >= 0x61 ? Int32(c - 0x61 + 1) : Int32(c - 0x30 + 27) }

  /// The key of `key`'s string followed by `c`.
  @inlinable @inline(__always)
  public static func appending(_ key: Int32, _ c: UInt32) -> Int32 { key * 37 + digit(c) }

  /// The string a key stands for (`bjs`).
  public static func string(_ key: Int32) -> String {
    var scalars: [Unicode.Scalar] = []
    var rest = key
    while rest > 0 {
      let d = UInt32(rest % 37)
      scalars.append(Unicode.Scalar(d <= 26 ? 0x60 + d : 0x30 + d - 27)!)
      rest /= 37
    }
    return String(String.UnicodeScalarView(scalars.reversed()))
  }

  /// The key of a string of one to five Latin units (37⁵ keys fit 32 bits).
  @inlinable
  public static func of<C: Collection>(_ letters: C) -> Int32 where C.Element == UInt32 {
    letters.reduce(0) { appending($0, $1) }
  }
}

/// Generates the `syllable`-mode keys of a place: every string of one, two or three letters
/// (or of other lengths up to five) that a query can begin with to match a run starting at some unit (MatchSpec §3). A query's
/// first piece begins at a unit; a piece is a whole syllable, its initial, or any prefix when it
/// is the last piece; a literal unit is its own letter. So the query's first `L` letters are
/// whole pieces consumed from consecutive units, then a prefix of the next unit's spelling.
///
/// With fuzzy rules it generates the keys of every spelling a piece may match under them too
/// (MatchSpec §3.5): each syllable's own spelling and its fuzzy spellings.
public struct SyllableKeyGenerator {
  /// Per token, the spellings a piece may match: its own first, then its fuzzy spellings.
  let spellings: [[[UInt8]]]
  let kinds: [Syllabary.Kind]

  /// A generator for the tokens of `syllabary`, with the fuzzy spellings of `fuzzy` (none unless
  /// given).
  public init(syllabary: Syllabary, fuzzy: FuzzyRules = []) {
    let variants = fuzzy.isEmpty ? nil : FuzzySpellings(syllabary: syllabary)
    spellings = syllabary.spellings.indices.map { token in
      var spellings = [syllabary.spellings[token]]
      if let variants {
        for v in variants.variants(of: token) where variants.rules[v].isSubset(of: fuzzy) {
          spellings.append(Array(variants.spelling(v).utf8))
        }
      }
      return spellings
    }
    kinds = syllabary.kinds
  }

  /// Appends to `out` the keys of the runs starting at every unit of `readings`, one for each
  /// string of a length in `lengths` (repeats possible).
  ///
  /// - Precondition: `lengths` lies within 1...5, the strings a key can hold.
  public func keys(readings: Slice<IntegerTable<UInt16>>, lengths: ClosedRange<Int> = 1...3, into out: inout [Int32]) {
    precondition(lengths.lowerBound >= 1 && lengths.upperBound <= 5, "keys hold one to five letters")
    for u in readings.indices {
      for length in lengths { walk(readings, from: u, need: length, key: 0, into: &out) }
    }
  }

  private func walk(
    _ readings: Slice<IntegerTable<UInt16>>, from u: Int, need: Int, key: Int32, into out: inout [Int32]
  ) {
    guard u < readings.endIndex else { return }
    let token = Int(readings[u])
    switch kinds[token] {
    case .opaque:
      return
    case .literal:
      let next = LetterKey.appending(key, UInt32(spellings[token][0][0]))
      if need == 1 { out.append(next) } else { walk(readings, from: u + 1, need: need - 1, key: next, into: &out) }
    case .syllable:
      for spelling in spellings[token] {
        // The last piece: any prefix (MatchSpec §3.2).
        if need <= spelling.count {
          out.append(spelling[0..<need].reduce(key) { LetterKey.appending($0, UInt32($1)) })
        }
        // Pieces before it, shorter than what is still needed: the initial and the whole syllable.
        let initialLength = MatchRules.initialLength(spelling, start: 0, length: spelling.count)
        for k in 1..<min(need, spelling.count + 1)
        where MatchRules.piece(prefix: k, of: spelling.count, initialLength: initialLength, endsQuery: false) != nil {
          let next = spelling[0..<k].reduce(key) { LetterKey.appending($0, UInt32($1)) }
          walk(readings, from: u + 1, need: need - k, key: next, into: &out)
        }
      }
    }
  }
}
