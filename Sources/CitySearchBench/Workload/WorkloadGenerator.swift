import CitySearch
import CitySearchConformance

/// Generates a tier's workload from a seed, so that the committed file can be re-made exactly
/// (`citybench workload --corpus T --seed N`).
///
/// Targets are every province and prefecture of the corpus plus a seeded sample of the other
/// places. Each target gets one session in every ``InputStyle``. A person stops typing once
/// the place shows among the first ``Configuration/visibleRows`` answers of the reference
/// (or when the whole name is typed). About one session in ten has a typo followed by a
/// backspace.
public struct WorkloadGenerator {
  /// What a generated workload holds.
  public struct Configuration: Sendable {
    /// Target places in all: the provinces and prefectures, then sampled places up to this
    /// number. Each gets one session per style.
    public var places: Int
    /// The seed of the sampled places and the typos.
    public var seed: UInt64
    /// The number of answers a person sees without scrolling.
    public var visibleRows = 3
    /// Sessions with a typo, per thousand.
    public var typosPerThousand = 100
    /// The keyboard the sessions are typed on (MatchSpec §2.10), or `nil` for the usual styles.
    /// On a keyboard each target gets one session, its pinyin typed on the layout (style: the
    /// layout's name), and each keystroke's text is what the layout reads (`bw` on Xiaohe is
    /// `bei'`), the text every implementation is asked.
    public var keyboard: Keyboard?
    /// The fuzzy pinyin pairs the typists confuse (MatchSpec §3.5), or none for the usual
    /// styles. With some, each target whose spelling they change gets one session instead,
    /// its pinyin as such a typist spells it (``WorkloadGenerator/confused(_:rules:)``, style
    /// `fuzzy`), stopping once the reference searched with these rules shows the place.
    public var confusion: FuzzyRules = []

    /// A configuration for `places` targets from `seed`, with the default rows and typo rate.
    public init(places: Int, seed: UInt64) {
      self.places = places
      self.seed = seed
    }

    /// The default number of target places for a tier: about 15,000 keystrokes on `cities`,
    /// fewer sessions on the larger tiers.
    public static func defaultPlaces(for tier: CorpusTier) -> Int {
      switch tier {
      case .cities: 1_300
      case .towns: 600
      case .villages: 450
      }
    }
  }

  /// The places the targets come from.
  public let corpus: Corpus
  /// What to generate.
  public let configuration: Configuration
  private let reference: LinearScanBackend

  /// A generator of `configuration`'s workload over `corpus`.
  public init(corpus: Corpus, configuration: Configuration) {
    self.corpus = corpus
    self.configuration = configuration
    self.reference = LinearScanBackend(corpus: corpus)
  }

  /// The places sessions aim at: every level ≤ 2 place, then a seeded sample of the rest, in
  /// corpus order.
  func targets(random: inout SplitMix64) -> [Int] {
    let top = (0..<corpus.count).filter { corpus.level(at: $0) <= .prefecture }
    var rest = (0..<corpus.count).filter { corpus.level(at: $0) > .prefecture }
    let wanted = min(max(configuration.places - top.count, 0), rest.count)
    // A partial Fisher–Yates shuffle picks `wanted` distinct places.
    for i in 0..<wanted {
      let j = i + Int(random.next() % UInt64(rest.count - i))
      rest.swapAt(i, j)
    }
    return (top + rest.prefix(wanted)).sorted()
  }

  /// The workload. `properties` are written to the file header after the generator's own.
  ///
  /// - Complexity: one reference search per keystroke generated.
  public func generate(properties: [(key: String, value: String)] = []) -> Workload {
    var random = SplitMix64(seed: configuration.seed)
    let places = targets(random: &random)
    var sessions: [Workload.Session] = []
    for place in places {
      if let keyboard = configuration.keyboard {
        if let session = session(number: sessions.count + 1, place: place, on: keyboard, random: &random) {
          sessions.append(session)
        }
        continue
      }
      if !configuration.confusion.isEmpty {
        if let session = session(
          number: sessions.count + 1, place: place, confusing: configuration.confusion, random: &random)
        {
          sessions.append(session)
        }
        continue
      }
      for style in InputStyle.allCases {
        sessions.append(session(number: sessions.count + 1, place: place, style: style, random: &random))
      }
    }
    var own: [(key: String, value: String)] = [
      ("places", String(corpus.count)), ("seed", String(configuration.seed)),
      ("targets", String(places.count)), ("visible-rows", String(configuration.visibleRows)),
    ]
    if let keyboard = configuration.keyboard { own.append(("keyboard", keyboard.name)) }
    if !configuration.confusion.isEmpty { own.append(("confusion", configuration.confusion.description)) }
    return Workload(properties: properties + own, sessions: sessions)
  }

  /// One person typing towards `place` in `style`.
  func session(number: Int, place: Int, style: InputStyle, random: inout SplitMix64) -> Workload.Session {
    let text = typedText(place: place, style: style, random: &random)
    var keystrokes = typedUntilVisible(Array(text), place: place)
    let typo = random.next() % 1000 < UInt64(configuration.typosPerThousand)
    if typo {
      keystrokes = withTypo(keystrokes, style: style, random: &random)
    }
    return Workload.Session(
      label: "s" + String(number).leftPadded(5, with: "0"), place: String(corpus.id(at: place)),
      style: style.rawValue, hasTypo: typo, keystrokes: keystrokes)
  }

  /// One person typing `place`'s pinyin on `keyboard`, or `nil` when a syllable of it has no
  /// keys there. The keystrokes are the layout's readings of the keys typed so far; a typo is
  /// a wrong key typed and deleted.
  func session(number: Int, place: Int, on keyboard: Keyboard, random: inout SplitMix64) -> Workload.Session? {
    guard let keys = keyboard.type(corpus.pinyin(at: place)) else { return nil }
    var typed = typedUntilVisible(Array(keys), place: place, read: keyboard.read)
    let typo = random.next() % 1000 < UInt64(configuration.typosPerThousand)
    if typo { typed = withTypo(typed, style: .pinyin, random: &random) }
    return Workload.Session(
      label: "s" + String(number).leftPadded(5, with: "0"), place: String(corpus.id(at: place)),
      style: keyboard.name, hasTypo: typo, keystrokes: typed.map(keyboard.read))
  }

  /// One person typing `place`'s pinyin as someone who confuses what `rules` pair spells it,
  /// or `nil` when the rules change no syllable of it.
  func session(number: Int, place: Int, confusing rules: FuzzyRules, random: inout SplitMix64) -> Workload.Session? {
    let syllables = corpus.pinyin(at: place)
    let spelled = Self.confused(syllables, rules: rules)
    guard spelled != syllables else { return nil }
    var typed = typedUntilVisible(Array(spelled.joined()), place: place, fuzzy: rules)
    let typo = random.next() % 1000 < UInt64(configuration.typosPerThousand)
    if typo { typed = withTypo(typed, style: .pinyin, random: &random) }
    return Workload.Session(
      label: "s" + String(number).leftPadded(5, with: "0"), place: String(corpus.id(at: place)),
      style: "fuzzy", hasTypo: typo, keystrokes: typed)
  }

  /// `syllables` as a person who confuses what `rules` pair spells them: each syllable's first
  /// fuzzy spelling (`MatchRules.fuzzySpellings(of:)`: the initial changed before the final)
  /// that needs only enabled rules, or the syllable itself (`zhou` → `zou` under zh-z).
  public static func confused(_ syllables: [String], rules: FuzzyRules) -> [String] {
    syllables.map { syllable in
      MatchRules.fuzzySpellings(of: Array(syllable.utf8)).first { rules.isSuperset(of: $0.rules) }
        .map { String(decoding: $0.spelling, as: UTF8.self) } ?? syllable
    }
  }

  /// The whole text a person would type for `place` in `style`.
  func typedText(place: Int, style: InputStyle, random: inout SplitMix64) -> String {
    Self.typedText(place: place, style: style, in: corpus, random: &random)
  }

  /// The whole text a person would type for `place` of `corpus` in `style`: its pinyin, its
  /// initials, one syllable (chosen by `random`) in full and the others as initials, or its
  /// name.
  static func typedText(place: Int, style: InputStyle, in corpus: Corpus, random: inout SplitMix64) -> String {
    let syllables = corpus.pinyin(at: place)
    switch style {
    case .pinyin:
      return syllables.joined()
    case .initials:
      return String(decoding: corpus.initials(at: place), as: UTF8.self)
    case .mixed:
      let full = Int(random.next() % UInt64(max(syllables.count, 1)))
      let initials = corpus.unitInitials(at: place)
      return syllables.indices.map { $0 == full ? syllables[$0] : initials[$0].map { String(UnicodeScalar($0)) } ?? "" }
        .joined()
    case .hanzi:
      return corpus.name(at: place)
    }
  }

  /// The prefixes of `characters`, up to the first one whose reference answer (to the prefix as
  /// `read` reads it) shows `place` among the visible rows.
  func typedUntilVisible(
    _ characters: [Character], place: Int, read: (String) -> String = { $0 }, fuzzy: FuzzyRules = []
  ) -> [String] {
    var keystrokes: [String] = []
    var text = ""
    for character in characters {
      text.append(character)
      keystrokes.append(text)
      let result = reference.search(read(text), mode: .syllable, limit: configuration.visibleRows, fuzzy: fuzzy)
      if result.hits.contains(where: { $0.index == place }) { break }
    }
    return keystrokes
  }

  /// `keystrokes` with one wrong character typed after a random keystroke and deleted at once.
  func withTypo(_ keystrokes: [String], style: InputStyle, random: inout SplitMix64) -> [String] {
    let at = Int(random.next() % UInt64(keystrokes.count))
    let before = keystrokes[at]
    let wrong: Character
    if style == .hanzi {
      let other = Int(random.next() % UInt64(corpus.count))
      wrong = corpus.name(at: other).first ?? "市"
    } else {
      let letters = Array("abcdefghijklmnopqrstuvwxyz")
      wrong = letters[Int(random.next() % 26)]
    }
    var result = Array(keystrokes[...at])
    result.append(before + String(wrong))
    result.append(before)
    result += keystrokes[(at + 1)...]
    return result
  }
}

extension String {
  func leftPadded(_ width: Int, with pad: Character) -> String {
    String(repeating: pad, count: max(0, width - count)) + self
  }
}
