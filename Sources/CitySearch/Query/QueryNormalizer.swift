import Foundation

/// The one normalization every backend applies to what the user typed (MatchSpec §2).
///
/// In order: Unicode NFKC (full-width → ASCII); lower case; Zhuyin read as pinyin (``Zhuyin``);
/// `ü`, `u:` and `v` all become `v`, and `u` after j, q, x and y; tone marks are removed; a tone number (a digit 1–5 right after a letter and before no other
/// digit) ends the syllable like a boundary mark; Traditional → Simplified; apostrophes (`'`, `’`, `＇`) and white space
/// become boundary marks (runs collapse, leading and trailing ones drop); anything else that is
/// not a Hanzi or an ASCII letter or digit is dropped.
///
/// ```swift
/// let normalizer = QueryNormalizer(tables: corpus.tables)
/// normalizer.normalize("  Xī’ĀN ").text  // "xi'an"
/// normalizer.normalize("bei3jing1").text // "bei'jing"
/// normalizer.normalize("廣州").text       // "广州"
/// ```
public struct QueryNormalizer: Sendable {
  /// Traditional characters and their simplified forms.
  public let simplified: [UInt32: UInt32]
  /// The fuzzy rules every query it normalizes is read with (``NormalizedQuery/fuzzy``).
  public let fuzzy: FuzzyRules

  /// A normalizer with the Traditional-to-Simplified map of `tables`, whose queries are read
  /// with the fuzzy rules `fuzzy` (none unless given).
  public init(tables: ReadingTables, fuzzy: FuzzyRules = []) {
    self.simplified = tables.simplified
    self.fuzzy = fuzzy
  }

  /// - Complexity: O(n) in the length of `query`.
  public func normalize(_ query: String) -> NormalizedQuery {
    // Plain ASCII (most keystrokes): NFKC is the identity and lower case is a byte map, so
    // Foundation's two passes (about 1.3 µs per query) are skipped.
    let ascii = query.utf8.withContiguousStorageIfAvailable { bytes -> [UInt32]? in
      guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
      return tokens(bytes.lazy.map { byte in UInt32(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) })
    }
    if let tokens = ascii ?? nil { return NormalizedQuery(tokens: tokens, fuzzy: fuzzy) }
    // ASCII and the common Hanzi (nearly every other keystroke): there too NFKC and lower case
    // change only ASCII's upper case, so Foundation's passes (about 40 % of a one-Hanzi
    // keystroke's instructions) are skipped.
    if let scalars = Self.asciiAndCommonHanzi(query) {
      return NormalizedQuery(tokens: tokens(scalars), fuzzy: fuzzy)
    }
    return normalizeUnicode(query)
  }

  /// The scalar values of `query`, ASCII upper case lowered, when every scalar is ASCII or a
  /// Hanzi of the CJK Unified Ideographs block or its extension A: none of these has an NFKC
  /// mapping or a case but ASCII's letters, so the values are those of
  /// ``normalizeUnicode(_:)``'s NFKC and lower case. `nil` for any other scalar (full-width
  /// forms, accented letters, Zhuyin, compatibility ideographs, which NFKC maps).
  @inline(__always)
  private static func asciiAndCommonHanzi(_ query: String) -> [UInt32]? {
    var scalars: [UInt32] = []
    scalars.reserveCapacity(query.utf8.count)
    for scalar in query.unicodeScalars {
      let value = scalar.value
      switch value {
      case 0x41...0x5A: scalars.append(value | 0x20)
      case 0..<0x80, 0x4E00...0x9FFF, 0x3400...0x4DBF: scalars.append(value)
      default: return nil
      }
    }
    return scalars
  }

  /// The general path: NFKC and lower case through Foundation, then the same rules.
  package func normalizeUnicode(_ query: String) -> NormalizedQuery {
    let folded = query.precomposedStringWithCompatibilityMapping.lowercased()
    var scalars = folded.unicodeScalars.map(\.value)
    if scalars.contains(where: Zhuyin.isZhuyin) { scalars = Zhuyin.pinyin(scalars) }
    return NormalizedQuery(tokens: tokens(scalars), fuzzy: fuzzy)
  }

  /// The rules after NFKC and lower case, over scalar values.
  @inline(__always)
  private func tokens<C: RandomAccessCollection>(_ scalars: C) -> [UInt32] where C.Element == UInt32 {
    var tokens: [UInt32] = []
    tokens.reserveCapacity(scalars.count)
    var pendingBoundary = false
    var previousWasU = false
    var position = scalars.startIndex
    while position != scalars.endIndex {
      var value = scalars[position]
      position = scalars.index(after: position)
      if value == 0x3A && previousWasU {  // "u:" → v (u after j, q, x and y, as below)
        if tokens.count < 2 || !Self.writesÜAsU(tokens[tokens.count - 2]) {
          tokens[tokens.count - 1] = UInt32(UInt8(ascii: "v"))
        }
        previousWasU = false
        continue
      }
      if value >= 0x80 {
        if !Hanzi.isHanzi(value), let scalar = Unicode.Scalar(value) { value = Self.foldLatin(scalar) }
        if let s = simplified[value] { value = s }
      }
      previousWasU = false
      // A tone number: a digit 1–5 right after a letter, not followed by another digit (`l20`
      // is a name's number).
      if Self.isToneNumber(value), let last = tokens.last, Self.isLetter(last), !pendingBoundary,
        position == scalars.endIndex || !Self.isDigit(scalars[position])
      {
        pendingBoundary = true
        continue
      }
      if Hanzi.isLatin(value) || Hanzi.isHanzi(value) {
        if pendingBoundary && !tokens.isEmpty { tokens.append(NormalizedQuery.boundary) }
        pendingBoundary = false
        // ü after j, q, x and y is written u in pinyin: `xvzhou` is xuzhou (徐州).
        if value == 0x76, let last = tokens.last, Self.writesÜAsU(last) { value = 0x75 }
        tokens.append(value)
        previousWasU = value == UInt32(UInt8(ascii: "u"))
      } else if Self.isBoundary(value) {
        pendingBoundary = true
      }
    }
    return tokens
  }

  /// j, q, x and y: after them pinyin writes ü as `u` (MatchSpec §2.3).
  @inline(__always)
  static func writesÜAsU(_ value: UInt32) -> Bool { value == 0x6A || value == 0x71 || value == 0x78 || value == 0x79 }

  /// A digit 1–5: after a letter, a tone number (`bei3`).
  @inline(__always)
  static func isToneNumber(_ value: UInt32) -> Bool { value >= 0x31 && value <= 0x35 }

  @inline(__always)
  static func isLetter(_ value: UInt32) -> Bool { value >= 0x61 && value <= 0x7A }

  @inline(__always)
  static func isDigit(_ value: UInt32) -> Bool { value >= 0x30 && value <= 0x39 }

  static func isBoundary(_ value: UInt32) -> Bool {
    switch value {
    case 0x27, 0x2019, 0xFF07, 0x20, 0x09, 0x0A, 0x0D, 0xA0, 0x3000: return true
    default: return Unicode.Scalar(value)?.properties.isWhitespace ?? false
    }
  }

  /// ü in any tone → v; a Latin letter with tone marks → its base letter; else unchanged.
  @inline(never)
  static func foldLatin(_ scalar: Unicode.Scalar) -> UInt32 {
    switch scalar.value {
    case 0xFC, 0x1D6, 0x1D8, 0x1DA, 0x1DC: return UInt32(UInt8(ascii: "v"))
    case 0x00C0...0x024F, 0x1E00...0x1EFF:
      let base = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars.first!.value
      return Hanzi.isLatin(base) ? base : scalar.value
    default: return scalar.value
    }
  }
}
