import CitySearch

/// Seeded hostile and odd queries for the differential check: what a search box receives when
/// people paste, mistype, or an input method misbehaves. Each query belongs to one ``Kind``;
/// the same seed gives the same queries on every machine.
public enum FuzzQueries {
  /// The classes of fuzzed queries, drawn in turn.
  public enum Kind: String, CaseIterable, Sendable {
    /// A place's typed form cut at a random length, with random case.
    case placeForm
    /// A form with some characters swapped for the name's Hanzi, or Hanzi then pinyin.
    case mixture
    /// A random run of Hanzi from the corpus's names.
    case hanzi
    /// Random letters, apostrophes, spaces and digits.
    case letterRun
    /// Emoji, flags, symbols and ZWJ sequences, alone or inside a form.
    case emoji
    /// Combining marks: decomposed tone marks, stacked marks, a mark first.
    case combiningMarks
    /// Control, format and white-space characters inside a form.
    case controlCharacters
    /// Full-width letters and ideographic punctuation.
    case fullWidth
    /// 1,000 to 20,000 characters: periodic syllables, letters, Hanzi.
    case long
  }

  /// `count` queries drawn from `corpus` with `seed`: one in ``longShare`` is ``Kind/long``,
  /// the others take the remaining kinds in turn.
  ///
  /// - Complexity: O(`count` × the longest query).
  public static func generate(_ corpus: Corpus, count: Int, seed: UInt64) -> [(kind: Kind, text: String)] {
    var random = SplitMix64(seed: seed)
    let short = Kind.allCases.filter { $0 != .long }
    return (0..<count).map { i in
      let kind = i % longShare == longShare - 1 ? Kind.long : short[i % short.count]
      return (kind, query(kind, corpus: corpus, random: &random))
    }
  }

  /// One query in this many is long (each costs the reference milliseconds).
  public static let longShare = 50

  static let letters = Array("abcdefghijklmnopqrstuvwxyz")
  static let emoji = ["😀", "🇨🇳", "👩‍👩‍👧", "€", "™", "🀄", "❤️", "\u{1F3FB}", "〽"]
  static let marks: [Unicode.Scalar] = ["\u{0300}", "\u{0301}", "\u{0304}", "\u{030C}", "\u{0308}", "\u{20DD}"]
  static let controls: [Unicode.Scalar] = [
    "\u{0}", "\u{7}", "\t", "\n", "\r", "\u{7F}", "\u{85}", "\u{200B}", "\u{200D}", "\u{FEFF}", "\u{202E}", "\u{3000}",
  ]

  static func query(_ kind: Kind, corpus: Corpus, random: inout SplitMix64) -> String {
    func pick<T>(_ array: [T]) -> T { array[Int(random.next() % UInt64(array.count))] }
    func number(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
    func form() -> String {
      let place = Int(random.next() % UInt64(corpus.count))
      let text = Array(pick(ConformanceQueries.forms(of: place, in: corpus)))
      return String(text.prefix(number(1...max(1, text.count))))
    }
    func hanzi(_ length: Int) -> String {
      let name = Array(corpus.name(at: Int(random.next() % UInt64(corpus.count))))
      return String((0..<length).map { _ in pick(name) })
    }
    func insert(_ piece: String, into text: String) -> String {
      var characters = Array(text)
      characters.insert(contentsOf: piece, at: number(0...characters.count))
      return String(characters)
    }
    switch kind {
    case .placeForm:
      let text = form()
      return random.next() % 3 == 0 ? text.uppercased() : text
    case .mixture:
      return random.next() % 2 == 0 ? hanzi(number(1...2)) + form() : insert(hanzi(1), into: form())
    case .hanzi:
      return hanzi(number(1...6))
    case .letterRun:
      let alphabet = letters + ["'", " ", "1", "5", "-"]
      return String((0..<number(1...14)).map { _ in pick(alphabet) })
    case .emoji:
      return random.next() % 2 == 0 ? pick(emoji) : insert(pick(emoji), into: form())
    case .combiningMarks:
      var scalars = String.UnicodeScalarView()
      if random.next() % 4 == 0 { scalars.append(pick(marks)) }  // a mark with nothing to sit on
      for scalar in form().unicodeScalars {
        scalars.append(scalar)
        if random.next() % 3 == 0 { scalars.append(pick(marks)) }
      }
      return String(scalars)
    case .controlCharacters:
      return insert(String(pick(controls)), into: form())
    case .fullWidth:
      let wide = form().unicodeScalars.map { scalar -> String in
        guard scalar.isASCII, scalar.properties.isAlphabetic, let full = Unicode.Scalar(scalar.value + 0xFEE0) else {
          return String(scalar)
        }
        return String(full)
      }
      return wide.joined() + (random.next() % 2 == 0 ? "，" : "")
    case .long:
      let length = number(1_000...20_000)
      switch random.next() % 3 {
      case 0:
        let syllable = pick(["bei", "an", "xian", "zh", "b'", "beijing"])
        return String(String(repeating: syllable, count: length / syllable.count + 1).prefix(length))
      case 1: return String((0..<length).map { _ in pick(letters) })
      default: return hanzi(min(length, 2_000))
      }
    }
  }
}
