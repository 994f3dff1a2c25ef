extension Keyboard {
  /// The keys a person types on this layout to spell `syllables` (pinyin, ü written `v`), or
  /// `nil` when one of them has no keys here: on a double-pinyin layout each syllable's pair
  /// (the first in key order where a layout has several, as Xiaohe has `an` and `aj` for *an*);
  /// on a Zhuyin layout each syllable's symbols' keys and a space, the first tone's key, which
  /// ends a syllable as a typist's tone key does.
  ///
  /// ``read(_:)`` reads what this returns back as the syllables (`type(["bei", "jing"])` on
  /// Xiaohe is `bwjk`, read as `bei'jing'`).
  ///
  /// - Complexity: O(n) in the length of `syllables` after the layout's first use.
  public func type(_ syllables: [String]) -> String? {
    var out = ""
    if isZhuyin {
      let keyOf = Dictionary(symbols.map { ($0.value, $0.key) }, uniquingKeysWith: min)
      for syllable in syllables {
        guard let spelled = Self.zhuyinSpellings[syllable] else { return nil }
        for symbol in spelled {
          guard let key = keyOf[symbol] else { return nil }
          out.append(key)
        }
        out.append(" ")
      }
      return out
    }
    let pairOf = Dictionary(pairs.map { ($0.value, $0.key) }, uniquingKeysWith: min)
    for syllable in syllables {
      guard let pair = pairOf[syllable] else { return nil }
      out += pair
    }
    return out
  }

  /// Each pinyin syllable's Zhuyin symbols, the inverse of query normalization's reading
  /// (MatchSpec §2.9), found by reading every initial, medial and final combination Zhuyin
  /// writes (ㄩ only alone or after ㄋ ㄌ ㄐ ㄑ ㄒ, ㄨ never after ㄐ ㄑ ㄒ); where two spell one
  /// syllable, the shorter.
  static let zhuyinSpellings: [String: [Character]] = {
    let initials: [UInt32?] = [nil] + (0x3105...0x3119).map { $0 }
    let medials: [UInt32?] = [nil, 0x3127, 0x3128, 0x3129]
    let finals: [UInt32?] = [nil] + (0x311A...0x3126).map { $0 }
    var spellings: [String: [Character]] = [:]
    for initial in initials {
      for medial in medials {
        for final in finals {
          let scalars = [initial, medial, final].compactMap { $0 }
          guard !scalars.isEmpty else { continue }
          if medial == 0x3129, let initial, ![0x310B, 0x310C, 0x3110, 0x3111, 0x3112].contains(initial) { continue }
          if medial == 0x3128, let initial, (0x3110...0x3112).contains(initial) { continue }
          let read = String(String.UnicodeScalarView(Zhuyin.pinyin(scalars + [0x02C9]).compactMap(UnicodeScalar.init)))
          let syllable = read.hasSuffix("'") ? String(read.dropLast()) : read
          guard !syllable.isEmpty, !syllable.contains("'"), syllable.allSatisfy({ $0 >= "a" && $0 <= "z" }) else {
            continue
          }
          let symbols = scalars.map { Character(UnicodeScalar($0)!) }
          if let known = spellings[syllable], known.count <= symbols.count { continue }
          spellings[syllable] = symbols
        }
      }
    }
    return spellings
  }()
}
