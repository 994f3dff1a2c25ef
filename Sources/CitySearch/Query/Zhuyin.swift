/// Zhuyin (Bopomofo) read as the pinyin it spells (MatchSpec §2.4): the step of query
/// normalization that lets a Zhuyin typist search the same index as a pinyin typist.
///
/// A syllable is an optional initial (ㄅ…ㄙ), an optional medial (ㄧ ㄨ ㄩ) and an optional
/// final (ㄚ…ㄦ), ended by a tone mark (ˉ ˊ ˇ ˋ ˙) or by a symbol that cannot continue it.
/// Each becomes its Hanyu Pinyin spelling followed by a boundary mark; an initial alone is
/// that initial (ㄅㄐ → `b'j'`), or with a tone mark the syllable it stands for (ㄓˋ → `zhi'`).
///
/// ```swift
/// Zhuyin.pinyin("ㄅㄟˇㄐㄧㄥ".unicodeScalars.map(\.value))  // "bei'jing'" as scalars
/// ```
public enum Zhuyin {
  /// Whether `value` is a Bopomofo letter (ㄅ…ㄩ); a tone mark counts only after one.
  @inlinable
  public static func isZhuyin(_ value: UInt32) -> Bool { (0x3105...0x3129).contains(value) }

  /// Whether `value` is a tone mark: ˉ ˊ ˇ ˋ ˙ (NFKC makes ˙ a space and a combining dot: the space ends the syllable anyway).
  @inlinable
  public static func isTone(_ value: UInt32) -> Bool {
    value == 0x02C9 || value == 0x02CA || value == 0x02C7 || value == 0x02CB || value == 0x02D9
  }

  /// `scalars` with every Zhuyin syllable replaced by its pinyin and a boundary mark (`'`);
  /// everything else as it was.
  ///
  /// - Complexity: O(n).
  public static func pinyin(_ scalars: [UInt32]) -> [UInt32] {
    var out: [UInt32] = []
    out.reserveCapacity(scalars.count * 3)
    var i = 0
    while i < scalars.count {
      let value = scalars[i]
      guard isZhuyin(value) else {
        out.append(value)
        i += 1
        continue
      }
      var initial: String?
      var medial: UInt32?
      var final: UInt32?
      if let spelled = initials[value] {
        initial = spelled
        i += 1
      }
      if i < scalars.count, (0x3127...0x3129).contains(scalars[i]) {
        medial = scalars[i]
        i += 1
      }
      if i < scalars.count, (0x311A...0x3126).contains(scalars[i]) {
        final = scalars[i]
        i += 1
      }
      var toned = false
      if i < scalars.count, isTone(scalars[i]) {
        toned = true
        i += 1
      }
      let spelled = syllable(initial: initial ?? "", medial: medial, final: final, toned: toned)
      out.append(contentsOf: spelled.unicodeScalars.map(\.value))
      out.append(0x27)
    }
    return out
  }

  static let initials: [UInt32: String] = [
    0x3105: "b", 0x3106: "p", 0x3107: "m", 0x3108: "f", 0x3109: "d", 0x310A: "t", 0x310B: "n", 0x310C: "l",
    0x310D: "g", 0x310E: "k", 0x310F: "h", 0x3110: "j", 0x3111: "q", 0x3112: "x", 0x3113: "zh", 0x3114: "ch",
    0x3115: "sh", 0x3116: "r", 0x3117: "z", 0x3118: "c", 0x3119: "s",
  ]

  /// ㄚ ㄛ ㄜ ㄝ ㄞ ㄟ ㄠ ㄡ ㄢ ㄣ ㄤ ㄥ ㄦ, spelled after a consonant with no medial.
  static let finals: [UInt32: String] = [
    0x311A: "a", 0x311B: "o", 0x311C: "e", 0x311D: "e", 0x311E: "ai", 0x311F: "ei", 0x3120: "ao", 0x3121: "ou",
    0x3122: "an", 0x3123: "en", 0x3124: "ang", 0x3125: "eng", 0x3126: "er",
  ]

  /// The pinyin of one syllable (Hanyu Pinyin's spelling rules: `y` and `w` for a zero
  /// initial, `iu` `ui` `un` `ong` `iong` for the contracted finals, ü as `u` after j q x and as
  /// `v` after n l).
  static func syllable(initial: String, medial: UInt32?, final: UInt32?, toned: Bool) -> String {
    let f = final.flatMap { finals[$0] } ?? ""
    func umlaut(as letter: Character, _ text: String) -> String { String(text.map { $0 == "v" ? letter : $0 }) }
    switch medial {
    case nil:
      if f.isEmpty {
        // An initial alone: as typed, or with a tone mark the syllable it stands for.
        let buzzing: Set<String> = ["zh", "ch", "sh", "r", "z", "c", "s"]
        return toned && buzzing.contains(initial) ? initial + "i" : initial
      }
      return initial + f
    case 0x3127?:  // ㄧ
      let body: String
      switch f {
      case "": body = "i"
      case "ou": body = "iu"
      case "en": body = "in"
      case "eng": body = "ing"
      default: body = "i" + f
      }
      guard initial.isEmpty else { return initial + body }
      switch body {
      case "i": return "yi"
      case "in": return "yin"
      case "ing": return "ying"
      case "iu": return "you"
      default: return "y" + body.dropFirst()
      }
    case 0x3128?:  // ㄨ
      let body: String
      switch f {
      case "": body = "u"
      case "ei": body = initial.isEmpty ? "uei" : "ui"
      case "en": body = initial.isEmpty ? "uen" : "un"
      case "eng": body = initial.isEmpty ? "ueng" : "ong"
      default: body = "u" + f
      }
      guard initial.isEmpty else { return initial + body }
      return body == "u" ? "wu" : "w" + body.dropFirst()
    default:  // ㄩ
      let body: String
      switch f {
      case "": body = "v"
      case "e": body = "ve"
      case "an": body = "van"
      case "en": body = "vn"
      case "eng": body = "iong"
      default: body = "v" + f
      }
      if initial.isEmpty {
        return body == "iong" ? "yong" : "y" + umlaut(as: "u", body)
      }
      if ["j", "q", "x"].contains(initial) { return initial + umlaut(as: "u", body) }
      return initial + body
    }
  }
}
