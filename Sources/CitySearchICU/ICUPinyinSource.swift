import CitySearch
import Foundation

/// Pinyin from ICU's `Han-Latin` transform, one Hanzi at a time, tone marks removed and `ü`
/// written `v`. The fallback for names no reviewed table knows; plain ICU is wrong on a few
/// percent of place names (长沙 → zhang sha), which is why it comes last.
public final class ICUPinyinSource: PinyinSource, @unchecked Sendable {
  private let transliterator: Transliterator
  private let lock = NSLock()
  private var cache: [Unicode.Scalar: String] = [:]

  /// A source over ICU's `Han-Latin`; throws ``ICUError`` when ICU cannot open it.
  public init() throws { transliterator = try Transliterator(id: "Han-Latin") }

  public func pinyin(for name: String) -> [String]? {
    lock.lock()
    defer { lock.unlock() }
    var result: [String] = []
    for scalar in name.unicodeScalars {
      let value = scalar.value >= 0x41 && scalar.value <= 0x5A ? scalar.value + 0x20 : scalar.value
      guard Hanzi.isHanzi(value) else {
        result.append(String(Unicode.Scalar(value)!))
        continue
      }
      if let known = cache[scalar] {
        result.append(known)
        continue
      }
      guard let latin = try? transliterator.transliterate(String(scalar)),
        let syllable = Self.toneless(latin), Syllabary.isSyllable(syllable[...])
      else { return nil }
      cache[scalar] = syllable
      result.append(syllable)
    }
    return result
  }

  /// `zhǎng` → `zhang`, `lǜ` → `lv`.
  public static func toneless(_ latin: String) -> String? {
    var out = ""
    for scalar in latin.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
      switch scalar.value {
      case 0x61...0x7A: out.unicodeScalars.append(scalar)
      case 0x308:
        if out.hasSuffix("u") {
          out.removeLast()
          out.append("v")
        }
      case 0x300...0x36F, 0x20: continue
      default: return nil
      }
    }
    return out.isEmpty ? nil : out
  }
}
