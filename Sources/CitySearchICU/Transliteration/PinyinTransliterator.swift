import CitySearch
import Foundation

/// The transliterator an ICU backend compiles for a corpus: `Han-Latin; Latin-ASCII`, preceded
/// (unless raw) by one rule per name whose plain ICU reading differs from the corpus's canonical
/// pinyin, such as `^'长沙市'$ > 'chang sha shi';`. Plain ICU reads 长 as zhang and 厦 as sha;
/// the rules are what it takes to make ICU agree with the reviewed corpus.
///
/// A transliterator sees only its input, so a name the corpus reads in more than one way
/// (大圩镇 is *da wei* on the Huai and *da xu* in Hunan, by Corpus/README.md's regional rules)
/// cannot be one rule. Such names are given to ICU behind a private-use key of the place's id,
/// `U+E000 id U+E001 name`, and each of those places has its own rule (see ``input(at:)``).
///
/// ICU transliterators are not thread-safe; calls are serialized by a lock.
public final class PinyinTransliterator: @unchecked Sendable {
  /// The transform applied after the overrides.
  public static let baseTransform = "Han-Latin; Latin-ASCII"

  /// How many names needed an override rule (0 when raw).
  public let overrideCount: Int
  /// The rule text compiled (empty when raw).
  public let rules: String
  private let transliterator: Transliterator
  private let lock = NSLock()
  /// The names the corpus reads in more than one way; their places are keyed by id.
  private let keyedNames: Set<String>
  private let corpus: Corpus

  /// Compiles the transliterator for `corpus`; with `raw`, plain ICU without overrides.
  ///
  /// - Complexity: one plain transliteration per place, then ICU's rule compilation.
  public init(corpus: Corpus, raw: Bool) throws {
    self.corpus = corpus
    let plain = try Transliterator(id: Self.baseTransform)
    guard !raw else {
      transliterator = plain
      overrideCount = 0
      rules = ""
      keyedNames = []
      return
    }
    var readingOf: [String: [String]] = [:]
    var keyed = Set<String>()
    for index in 0..<corpus.count {
      let name = corpus.name(at: index)
      let canonical = corpus.pinyin(at: index)
      if let first = readingOf[name] {
        if first != canonical { keyed.insert(name) }
      } else {
        readingOf[name] = canonical
      }
    }
    keyedNames = keyed
    var overrides: [(name: String, reading: String)] = []
    var seen = Set<String>()
    for index in 0..<corpus.count {
      let name = corpus.name(at: index)
      let canonical = corpus.pinyin(at: index)
      if keyed.contains(name) {
        overrides.append((Self.key(name, id: corpus.id(at: index)), canonical.joined(separator: " ")))
        continue
      }
      guard !seen.contains(name) else { continue }
      seen.insert(name)
      let output = try plain.transliterate(name)
      if Self.readings(of: output, units: corpus.units(at: index)) == canonical { continue }
      overrides.append((name, canonical.joined(separator: " ")))
    }
    // Longer names first: ICU refuses a rule that an earlier one would hide (U_RULE_MASK_ERROR),
    // which it decides without regard to the end anchor.
    overrides.sort { ($0.name.unicodeScalars.count, $1.name) > ($1.name.unicodeScalars.count, $0.name) }
    var rules = ""
    for (name, reading) in overrides { rules += "^\(Self.quoted(name))$ > \(Self.quoted(reading));\n" }
    let count = overrides.count
    rules += ":: Han-Latin;\n:: Latin-ASCII;\n"
    transliterator = try Transliterator(id: "CitySearch-Pinyin", rules: rules)
    overrideCount = count
    self.rules = rules
  }

  /// What the place at `index` is transliterated from: its name, or for a name the corpus
  /// reads in more than one way, the name behind its id's key.
  public func input(at index: Int) -> String {
    let name = corpus.name(at: index)
    return keyedNames.contains(name) ? Self.key(name, id: corpus.id(at: index)) : name
  }

  /// How many names the corpus reads in more than one way (each of their places has a rule).
  public var keyedNameCount: Int { keyedNames.count }

  static func key(_ name: String, id: PlaceID) -> String { "\u{E000}\(id)\u{E001}\(name)" }

  /// Transliterates one text: a name, or an ``input(at:)``.
  public func transliterate(_ name: String) throws -> String {
    lock.lock()
    defer { lock.unlock() }
    return try transliterator.transliterate(name)
  }

  /// Reads a transliteration back as one reading per unit of the name (MatchSpec §1): the
  /// syllable of a Hanzi, the unit itself for a Latin letter, digit or any other character.
  /// `nil` when the output does not line up with the units (ICU left a Hanzi untransliterated,
  /// for instance).
  public static func readings(of output: String, units: some Collection<UInt32>) -> [String]? {
    let scalars = Array(
      output.unicodeScalars.lazy.map { $0.value >= 0x41 && $0.value <= 0x5A ? $0.value + 0x20 : $0.value })
    var position = 0
    var result: [String] = []
    result.reserveCapacity(units.count)
    func isLetter(_ v: UInt32) -> Bool { v >= 0x61 && v <= 0x7A }
    for unit in units {
      while position < scalars.count && scalars[position] == 0x20 { position += 1 }
      if Hanzi.isHanzi(unit) {
        let start = position
        while position < scalars.count && isLetter(scalars[position]) { position += 1 }
        let syllable = String(String.UnicodeScalarView(scalars[start..<position].map { Unicode.Scalar($0)! }))
        guard Syllabary.isSyllable(syllable[...]) else { return nil }
        result.append(syllable)
      } else if Hanzi.isLatin(unit) {
        guard position < scalars.count && scalars[position] == unit else { return nil }
        position += 1
        result.append(String(Unicode.Scalar(unit)!))
      } else {
        // A character with no reading: skip whatever ICU made of it.
        while position < scalars.count && scalars[position] != 0x20 && !Hanzi.isLatin(scalars[position]) {
          position += 1
        }
        result.append(String(Unicode.Scalar(unit)!))
      }
    }
    while position < scalars.count && scalars[position] == 0x20 { position += 1 }
    return position == scalars.count ? result : nil
  }

  /// `text` as an ICU rule literal.
  static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
}
