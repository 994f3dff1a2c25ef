import Foundation

/// A keyboard a query is typed on other than full pinyin (MatchSpec §2.10): a double-pinyin
/// (双拼) layout, two keys a syllable, or a Zhuyin layout, one Bopomofo symbol a key.
/// ``read(_:)`` turns what was typed on it into the text it spells (full pinyin, or Zhuyin that
/// query normalization reads as pinyin), which every backend then searches.
///
/// The layouts are data (`Corpus/double-pinyin.tsv` and `Corpus/zhuyin-keyboards.tsv`, read off
/// Rime schemas by `scripts/double-pinyin.py`); `EmbeddedCorpus.keyboards()` has them compiled in.
///
/// ```swift
/// let xiaohe = try EmbeddedCorpus.keyboard(named: "xiaohe")!
/// xiaohe.read("bwjk")  // "bei'jing'"
/// backend.search(xiaohe.read("bwjk"))  // 北京
/// try EmbeddedCorpus.keyboard(named: "daqian")!.read("1o3ru/")  // "ㄅㄟˇㄐㄧㄥ"
/// ```
public struct Keyboard: Sendable, Hashable {
  /// The keyboard's name (`xiaohe`, `microsoft`, `daqian`, …).
  public let name: String
  /// Each key pair's syllable (`bw` → `bei`); empty on a Zhuyin layout.
  public let pairs: [String: String]
  /// Each key's Bopomofo symbol or tone mark (`1` → `ㄅ`, `3` → `ˇ`); empty on a double-pinyin
  /// layout.
  public let symbols: [Character: Character]
  /// The initial a key types when it is the last one, with no second key yet (`v` → `zh` on
  /// Xiaohe); a key that is no initial's types itself.
  let initials: [Character: String]
  /// The keys of the layout: letters, and `;` where the layout uses it.
  let keys: Set<Character>

  /// A keyboard from its key pairs (`keys` → `syllable`).
  public init(name: String, pairs: [String: String]) {
    self.name = name
    self.pairs = pairs
    symbols = [:]
    keys = Set(pairs.keys.flatMap { $0 })
    // A consonant-initial syllable's first key types its initial; a key that would type two
    // (none does) types none.
    var initials: [Character: Set<String>] = [:]
    for (pair, syllable) in pairs {
      let spelling = Array(syllable.utf8)
      guard let first = pair.first, let letter = syllable.first, !"aeo".contains(letter) else { continue }
      let length = MatchRules.initialLength(spelling, start: 0, length: spelling.count)
      initials[first, default: []].insert(String(syllable.prefix(length)))
    }
    self.initials = initials.compactMapValues { $0.count == 1 ? $0.first : nil }
  }

  /// A Zhuyin keyboard from the symbol each key types (`key` → Bopomofo symbol or tone mark).
  public init(name: String, symbols: [Character: Character]) {
    self.name = name
    pairs = [:]
    self.symbols = symbols
    initials = [:]
    keys = Set(symbols.keys)
  }

  /// Whether the layout types Zhuyin symbols (one a key) rather than pinyin key pairs.
  public var isZhuyin: Bool { !symbols.isEmpty }

  /// What `text` typed on this keyboard spells. On a Zhuyin layout, each key becomes its symbol,
  /// a space after a symbol the first tone ˉ (the tone key that ends a syllable: `5 ` is ㄓˉ,
  /// *zhi*), and anything else passes unchanged (query normalization then reads the Zhuyin as
  /// pinyin, §2.9). On a double-pinyin layout, full pinyin: each pair of keys becomes its syllable and
  /// a boundary mark; a last lone key types its initial (or itself); a pair the layout does not
  /// have is read as its first key's initial, and the second key starts the next pair. Anything
  /// that is not a key of the layout (Hanzi, boundary marks, digits) passes unchanged and ends
  /// a pending key.
  ///
  /// - Complexity: O(n) in the length of `text`.
  public func read(_ text: String) -> String {
    if isZhuyin {
      // Space is the first tone's key: after a symbol it ends the syllable as ˉ does.
      var out = ""
      for character in text.lowercased() {
        if character == " ", let last = out.unicodeScalars.last, Zhuyin.isZhuyin(last.value) {
          out.append("ˉ")
        } else {
          out.append(symbols[character] ?? character)
        }
      }
      return out
    }
    var out = ""
    var pending: Character?
    func flush() {
      if let key = pending { out += (initials[key] ?? (key.isLetter ? String(key) : "")) + "'" }
      pending = nil
    }
    for character in text.lowercased() {
      guard keys.contains(character) else {
        flush()
        out.append(character)
        continue
      }
      guard let first = pending else {
        pending = character
        continue
      }
      if let syllable = pairs[String([first, character])] {
        out += syllable + "'"
        pending = nil
      } else {
        flush()
        pending = character
      }
    }
    flush()
    return out
  }

  /// The keyboards of a layouts file (`keyboard`, `keys`, `syllable` columns; `#` comments), in
  /// the order they first appear.
  ///
  /// - Throws: ``CorpusError`` naming the line of a malformed row.
  public static func layouts(_ data: Data, name source: String) throws -> [Keyboard] {
    guard let text = String(data: data, encoding: .utf8) else {
      throw CorpusError.invalidUTF8(RecordLocation(file: source, line: 1))
    }
    var order: [String] = []
    var pairs: [String: [String: String]] = [:]
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("keyboard\t") { continue }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == 3, fields[1].count == 2, fields[2].allSatisfy({ $0 >= "a" && $0 <= "z" }),
        !fields[2].isEmpty
      else {
        throw CorpusError.badValue(
          RecordLocation(file: source, line: number + 1), column: "row", value: String(line),
          reason: "expected a keyboard, two keys and a syllable")
      }
      let keyboard = String(fields[0])
      if pairs[keyboard] == nil { order.append(keyboard) }
      pairs[keyboard, default: [:]][String(fields[1])] = String(fields[2])
    }
    return order.map { Keyboard(name: $0, pairs: pairs[$0]!) }
  }

  /// The keyboards of a Zhuyin layouts file (`keyboard`, `key`, `symbol` columns, one character
  /// each but the first; `#` comments), in the order they first appear.
  ///
  /// - Throws: ``CorpusError`` naming the line of a malformed row.
  public static func zhuyinLayouts(_ data: Data, name source: String) throws -> [Keyboard] {
    guard let text = String(data: data, encoding: .utf8) else {
      throw CorpusError.invalidUTF8(RecordLocation(file: source, line: 1))
    }
    var order: [String] = []
    var symbols: [String: [Character: Character]] = [:]
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("keyboard\t") { continue }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == 3, let key = fields[1].first, fields[1].count == 1, let symbol = fields[2].first,
        fields[2].count == 1, symbol.unicodeScalars.allSatisfy({ Zhuyin.isZhuyin($0.value) || Zhuyin.isTone($0.value) })
      else {
        throw CorpusError.badValue(
          RecordLocation(file: source, line: number + 1), column: "row", value: String(line),
          reason: "expected a keyboard, a key and a Zhuyin symbol or tone mark")
      }
      let keyboard = String(fields[0])
      if symbols[keyboard] == nil { order.append(keyboard) }
      symbols[keyboard, default: [:]][key] = symbol
    }
    return order.map { Keyboard(name: $0, symbols: symbols[$0]!) }
  }
}
