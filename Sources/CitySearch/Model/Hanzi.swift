/// Character classes shared by the corpus loader, the normalizer and the matchers.
public enum Hanzi {
  /// Whether `value` is a Han ideograph: the CJK Unified Ideographs blocks and their
  /// extensions A–H, the compatibility ideographs, and 〇 (U+3007).
  @inlinable
  public static func isHanzi(_ value: UInt32) -> Bool {
    switch value {
    case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x323AF, 0xF900...0xFAFF, 0x3007:
      return true
    default:
      return false
    }
  }

  /// Whether `value` is an ASCII lower-case letter or a digit (the Latin units of a key).
  @inlinable
  public static func isLatin(_ value: UInt32) -> Bool {
    (value >= 0x61 && value <= 0x7A) || (value >= 0x30 && value <= 0x39)
  }

  /// The bit of a Latin unit in a ``letterMask(_:)``: `a`–`z` are bits 0–25, `0`–`9` bits 26–35.
  @inlinable
  public static func letterBit(_ value: UInt32) -> UInt64 {
    value >= 0x61 ? 1 << UInt64(value - 0x61) : 1 << UInt64(value - 0x30 + 26)
  }

  /// The set of Latin letters and digits among `values` (anything else is ignored).
  @inlinable
  public static func letterMask<S: Sequence>(_ values: S) -> UInt64 where S.Element == UInt32 {
    var mask: UInt64 = 0
    for v in values where isLatin(v) { mask |= letterBit(v) }
    return mask
  }
}
