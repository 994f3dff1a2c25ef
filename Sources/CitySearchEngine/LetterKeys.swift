import CitySearch

/// Keys for strings of one to five letters or digits, and of six when the first five's key is
/// ``extensible(_:)``: each character is a digit 1…36 in base 37 (`a`…`z` then `0`…`9`), so
/// strings of different lengths never share a key.
public enum LetterKey {
  /// The number of keys: every string of up to three characters.
  public static let count = 37 * 37 * 37

  /// The smallest key of `length` characters (1…6), 37^(length − 1): every key of fewer
  /// characters lies below it (`aaaa`, 1 in each of four digits, is 37³ + 37² + 37 + 1, and
  /// `999`, 36 in each of three, is 37³ − 1).
  @inlinable @inline(__always)
  public static func first(ofLength length: Int) -> Int32 {
    switch length {
    case 1: 1
    case 2: 37
    case 3: 1_369
    case 4: 50_653
    case 5: 1_874_161
    case 6: 69_343_957
    default: preconditionFailure("a key has one to six characters, not \(length)")
    }
  }

  /// The key of the first `length` (1…5) characters of `key`'s string, which has as many or
  /// more: a division by 37 per character dropped.
  @inlinable @inline(__always)
  public static func prefix(_ key: Int32, length: Int) -> Int32 {
    var key = key
    while key >= first(ofLength: length + 1) { key /= 37 }
    return key
  }

  /// The digit of one letter or digit: `a`…`z` are 1…26, `0`…`9` are 27…36.
  @inlinable @inline(__always)
  public static func digit(_ c: UInt32) -> Int32 { c >= 0x61 ? Int32(c - 0x61 + 1) : Int32(c - 0x30 + 27) }

  /// The key of `key`'s string followed by `c`.
  @inlinable @inline(__always)
  public static func appending(_ key: Int32, _ c: UInt32) -> Int32 { key * 37 + digit(c) }

  /// Whether `key` can take one more character and stay below 2³¹: every key of up to four
  /// characters, and every key of five that begins with a letter (or `0`, `1` or `2`).
  @inlinable @inline(__always)
  public static func extensible(_ key: Int32) -> Bool { key <= (Int32.max - 36) / 37 }

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

  /// The key of a string of one to five Latin units (37⁵ keys fit 32 bits), or of six whose
  /// first five's key is ``extensible(_:)``.
  @inlinable
  public static func of<C: Collection>(_ letters: C) -> Int32 where C.Element == UInt32 {
    letters.reduce(0) { appending($0, $1) }
  }
}

/// Generates the `syllable`-mode keys of a place: every string of one, two or three letters
/// (or of other lengths up to six) that a query can begin with to match a run starting at some unit (MatchSpec §3). A query's
/// first piece begins at a unit; a piece is a whole syllable, its initial, or any prefix when it
/// is the last piece; a literal unit is its own letter. So the query's first `L` letters are
/// whole pieces consumed from consecutive units, then a prefix of the next unit's spelling.
///
/// With fuzzy rules it generates the keys of every spelling a piece may match under them too
/// (MatchSpec §3.5): each syllable's own spelling and its fuzzy spellings.
public struct SyllableKeyGenerator {
  /// The spellings a piece may match, flattened: token `t`'s are spellings
  /// `firstSpelling[t]..<firstSpelling[t + 1]`, its own first, then its fuzzy spellings; spelling
  /// `i` is `bytes[starts[i]..<starts[i + 1]]`.
  let bytes: [UInt8]
  let starts: [Int32]
  let firstSpelling: [Int32]
  let kinds: [Syllabary.Kind]

  /// A generator for the tokens of `syllabary`, with the fuzzy spellings of `fuzzy` (none unless
  /// given).
  public init(syllabary: Syllabary, fuzzy: FuzzyRules = []) {
    let variants = fuzzy.isEmpty ? nil : FuzzySpellings(syllabary: syllabary)
    var bytes: [UInt8] = []
    var starts: [Int32] = [0]
    var firstSpelling: [Int32] = [0]
    for token in syllabary.spellings.indices {
      bytes += syllabary.spellings[token]
      starts.append(Int32(bytes.count))
      if let variants {
        for v in variants.variants(of: token) where variants.rules[v].isSubset(of: fuzzy) {
          bytes += Array(variants.spelling(v).utf8)
          starts.append(Int32(bytes.count))
        }
      }
      firstSpelling.append(Int32(starts.count - 1))
    }
    (self.bytes, self.starts, self.firstSpelling, kinds) = (bytes, starts, firstSpelling, syllabary.kinds)
  }

  /// Appends to `out` the keys of the runs starting at every unit of `readings`, one for each
  /// string of a length in `lengths` (repeats possible).
  ///
  /// - Precondition: `lengths` lies within 1...6, the strings a key can hold; a string of six
  ///   whose first five's key is not ``LetterKey/extensible(_:)`` has no key and is left out.
  /// - Complexity: one walk from each unit, every length at once: O(n · b^L) for n units, L
  ///   the longest length and b the pieces a spelling offers (its initial, its whole, a prefix).
  public func keys(readings: Slice<IntegerTable<UInt16>>, lengths: ClosedRange<Int> = 1...3, into out: inout [Int32]) {
    precondition(lengths.lowerBound >= 1 && lengths.upperBound <= 6, "keys hold one to six letters")
    bytes.withUnsafeBufferPointer { bytes in
      starts.withUnsafeBufferPointer { starts in
        firstSpelling.withUnsafeBufferPointer { firstSpelling in
          kinds.withUnsafeBufferPointer { kinds in
            let walk = Walk(
              readings: readings, lengths: lengths, bytes: bytes, starts: starts, firstSpelling: firstSpelling,
              kinds: kinds)
            for u in readings.indices { walk.walk(from: u, have: 0, key: 0, into: &out) }
          }
        }
      }
    }
  }

  /// One place's walk over unsafe views of the spellings.
  private struct Walk {
    let readings: Slice<IntegerTable<UInt16>>
    let lengths: ClosedRange<Int>
    let bytes: UnsafeBufferPointer<UInt8>
    let starts: UnsafeBufferPointer<Int32>
    let firstSpelling: UnsafeBufferPointer<Int32>
    let kinds: UnsafeBufferPointer<Syllabary.Kind>

    /// `have` letters of whole pieces, keyed `key`, end before unit `u`: appends the key of each
    /// string in `lengths` that goes on from `u`, a prefix of its spelling as the last piece
    /// (MatchSpec §3.2), or its initial or whole syllable and then the units after it.
    func walk(from u: Int, have: Int, key: Int32, into out: inout [Int32]) {
      guard u < readings.endIndex, LetterKey.extensible(key) else { return }
      let token = Int(readings[u])
      switch kinds[token] {
      case .opaque:
        return
      case .literal:
        let next = LetterKey.appending(key, UInt32(bytes[Int(starts[Int(firstSpelling[token])])]))
        if lengths.contains(have + 1) { out.append(next) }
        if have + 1 < lengths.upperBound { walk(from: u + 1, have: have + 1, key: next, into: &out) }
      case .syllable:
        for i in Int(firstSpelling[token])..<Int(firstSpelling[token + 1]) {
          let start = Int(starts[i])
          let count = Int(starts[i + 1]) - start
          guard count > 0 else { continue }
          let initialLength = MatchRules.initialLength(bytes, start: start, length: count)
          var next = key
          for k in 1...min(count, lengths.upperBound - have) {
            guard LetterKey.extensible(next) else { break }
            next = LetterKey.appending(next, UInt32(bytes[start + k - 1]))
            if lengths.contains(have + k) { out.append(next) }
            // Pieces before the last: the initial and the whole syllable.
            if have + k < lengths.upperBound,
              MatchRules.piece(prefix: k, of: count, initialLength: initialLength, endsQuery: false) != nil
            {
              walk(from: u + 1, have: have + k, key: next, into: &out)
            }
          }
        }
      }
    }
  }
}
