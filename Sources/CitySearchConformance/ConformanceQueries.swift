import CitySearch
import Foundation

/// The queries of the differential check, as typing targets: each target is typed one character
/// at a time, and every prefix is also a stateless query.
public enum ConformanceQueries {
  /// The spellings a person types for one place (MatchSpec §2, §3, §4, §7, §8): canonical
  /// pinyin, with boundary marks, with tone numbers, initials, full syllables then initials,
  /// initials then a full syllable, each alternate reading (the `u` spellings of ü among them),
  /// the name itself, and each alias as written and without its spaces.
  public static func forms(of place: Int, in corpus: Corpus) -> [String] {
    let readings = corpus.pinyin(at: place)
    let units = corpus.units(at: place).map { String(Unicode.Scalar($0)!) }
    let initials = readings.map { String($0.prefix(1)) }
    var forms = [readings.joined(), readings.joined(separator: "'"), initials.joined()]
    for k in 1..<max(readings.count, 1) {
      forms.append((readings[..<k] + initials[k...]).joined())
      forms.append((initials[..<k] + [readings[k]] + initials[(k + 1)...]).joined())
    }
    for k in 0..<corpus.alternateCount(at: place) {
      let alternate = corpus.alternateTokens(at: place, k).map { corpus.syllabary.spelling($0) }
      forms.append(alternate.joined())
      forms.append(alternate.joined(separator: "'"))
    }
    forms.append(units.joined())
    // Hanzi then pinyin: the input method committed the first characters.
    if units.count >= 2 { forms.append(units[0] + readings[1...].joined()) }
    // Tone numbers after each syllable (which tone does not matter; they vary with the unit).
    forms.append(readings.enumerated().map { $0.element + String($0.offset % 5 + 1) }.joined())
    for alias in corpus.tables.facts.entry(id: corpus.id(at: place), name: corpus.name(at: place))?.aliases ?? [] {
      forms.append(alias)
      if alias.contains(" ") { forms.append(alias.replacingOccurrences(of: " ", with: "")) }
    }
    return forms
  }

  /// Every substring of the name that is not a prefix (the prefixes are typed as forms).
  public static func nameSubstrings(of place: Int, in corpus: Corpus) -> [String] {
    let units = corpus.units(at: place).map { String(Unicode.Scalar($0)!) }
    var result: [String] = []
    for start in 1..<max(units.count, 1) {
      for end in (start + 1)...units.count { result.append(units[start..<end].joined()) }
    }
    return result
  }

  /// The exhaustive set for a corpus: every form of every place (or of every `every`-th place)
  /// typed out, and every name substring as a single query. Repeated texts are kept once.
  public static func exhaustive(_ corpus: Corpus, every: Int = 1) -> (targets: [String], singles: [String]) {
    var targets: [String] = []
    var seen = Set<String>()
    var singles: [String] = []
    for place in stride(from: 0, to: corpus.count, by: max(every, 1)) {
      for form in forms(of: place, in: corpus) where seen.insert(form).inserted { targets.append(form) }
      for s in nameSubstrings(of: place, in: corpus) where seen.insert(s).inserted { singles.append(s) }
    }
    return (targets, singles)
  }

  /// A seeded sample: forms of random places cut at a random length, random letter strings,
  /// and Hanzi/pinyin mixtures, until the targets have at least `queries` distinct prefixes.
  public static func sample(_ corpus: Corpus, queries: Int, seed: UInt64) -> [String] {
    var random = SplitMix64(seed: seed)
    var targets: [String] = []
    var prefixes = Set<String>()
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    while prefixes.count < queries {
      let target: String
      switch random.next() % 10 {
      case 0, 1:
        let length = 1 + Int(random.next() % 6)
        target = String((0..<length).map { _ in letters[Int(random.next() % 26)] })
      case 2:
        // Hanzi and pinyin mixed: one random unit of a random place amid pinyin of another.
        let a = Int(random.next() % UInt64(corpus.count))
        let b = Int(random.next() % UInt64(corpus.count))
        let unit = corpus.units(at: a).randomElement(using: &random).map { String(Unicode.Scalar($0)!) } ?? ""
        target = corpus.pinyin(at: b).prefix(1).joined() + unit
      default:
        let place = Int(random.next() % UInt64(corpus.count))
        let all = forms(of: place, in: corpus) + nameSubstrings(of: place, in: corpus)
        let form = all[Int(random.next() % UInt64(all.count))]
        target = String(form.prefix(1 + Int(random.next() % UInt64(form.count))))
      }
      guard !target.isEmpty else { continue }
      targets.append(target)
      for k in 1...target.count { prefixes.insert(String(target.prefix(k))) }
    }
    return targets
  }

  /// The keystrokes of typing `target`: each prefix, then `backspaces` deletions, then the
  /// deleted characters typed again.
  public static func keystrokes(typing target: String, backspaces: Int = 2) -> [String] {
    let characters = Array(target)
    guard !characters.isEmpty else { return [] }
    var texts = (1...characters.count).map { String(characters.prefix($0)) }
    let cut = max(characters.count - backspaces, 0)
    texts += (cut..<characters.count).reversed().map { String(characters.prefix($0)) }
    texts += (cut..<characters.count).map { String(characters.prefix($0 + 1)) }
    return texts
  }
}

/// A small seeded generator (SplitMix64), so samples are the same on every machine.
public struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64
  /// A generator whose sequence is fixed by `seed`.
  public init(seed: UInt64) { state = seed }
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
