import CitySearch

/// What both ICU backends share: the compiled transliterator, a matcher whose syllabary also
/// knows the syllables plain ICU produces, and the step from a transliteration to the
/// matcher's ``PlaceMatcher/Subject``.
struct ICUReadings: Sendable {
  /// Plain ICU `Han-Latin`, without the override rules: what ICU alone gets wrong, listed in
  /// the conformance check's expected failures.
  static let rawVariant = BackendDescriptor.Variant(
    suffix: "raw", options: BackendOptions().setting(.icuRaw, to: true),
    summary: "plain ICU Han-Latin, without the override rules")

  /// What every ICU transliterator of the process shares: ICU's data and its compiled
  /// `Han-Latin` rules, loaded by the first one opened (about 2.7 MB of heap and 0.1–0.25 s,
  /// which the first ICU backend built used to be charged for).
  @Sendable static func loadICU() throws {
    _ = try Transliterator(id: "Han-Latin").transliterate("中")
  }
  let corpus: Corpus
  let transliterator: PinyinTransliterator
  let raw: Bool
  let syllabary: Syllabary
  let matcher: PlaceMatcher
  /// The token of a unit ICU could not read: matches no query piece.
  let unreadable: UInt16

  init(corpus: Corpus, options: BackendOptions) throws {
    self.corpus = corpus
    raw = options[.icuRaw]
    transliterator = try PinyinTransliterator(corpus: corpus, raw: raw)
    var syllabary = corpus.syllabary
    // Every syllable, so that any ICU reading has a token (raw ICU reads names differently).
    for initial in [
      "", "b", "p", "m", "f", "d", "t", "n", "l", "g", "k", "h", "j", "q", "x", "zh", "ch", "sh", "r", "z", "c", "s",
      "y", "w",
    ] {
      for final in Self.finals { _ = syllabary.intern(initial + final, kind: .syllable) }
    }
    unreadable = syllabary.intern("\u{FFFD}", kind: .opaque)!
    self.syllabary = syllabary
    matcher = PlaceMatcher(corpus: corpus, syllabary: syllabary)
  }

  /// Spellings that follow an initial in some syllable (a superset: unknown combinations are
  /// merely unused tokens).
  static let finals = [
    "a", "o", "e", "i", "u", "v", "ai", "ei", "ao", "ou", "an", "en", "ang", "eng", "ong", "er", "ia", "ie", "iao",
    "iu", "ian", "in", "iang", "ing", "iong", "ua", "uo", "uai", "ui", "uan", "un", "uang", "ve", "van", "vn", "ue",
    "io", "m", "n", "ng", "hm", "hng",
  ]

  func statistics(countedBytes: Int) -> IndexStatistics {
    IndexStatistics(
      countedBytes: countedBytes,
      notes: [
        "override rules": raw ? "none (raw)" : String(transliterator.overrideCount),
        "names keyed by place": String(transliterator.keyedNameCount), "icu": icuVersion,
      ])
  }

  /// The place read through ICU: canonical tokens, alternates, joined pinyin and unit ends.
  func subject(at index: Int) -> (tokens: [UInt16], alternates: [UInt16], pinyin: [UInt8], ends: [UInt8]) {
    let units = corpus.units(at: index)
    let output = (try? transliterator.transliterate(transliterator.input(at: index))) ?? ""
    let readings = PinyinTransliterator.readings(of: output, units: units)
    var tokens: [UInt16] = []
    var pinyin: [UInt8] = []
    var ends: [UInt8] = []
    for (u, unit) in units.enumerated() {
      var token = unreadable
      if let reading = readings?[u], let id = syllabary.id(of: reading) {
        token = id
      } else if !Hanzi.isHanzi(unit), let id = syllabary.id(of: String(Unicode.Scalar(unit)!)) {
        token = id
      }
      if syllabary.kinds[Int(token)] != .opaque { pinyin += syllabary.spellings[Int(token)] }
      tokens.append(token)
      ends.append(UInt8(clamping: pinyin.count))
    }
    // Alternate readings come from the polyphone table (MatchSpec §7) relative to ICU's
    // canonical reading; with the overrides that reading is the corpus's own.
    var alternates: [UInt16] = []
    if !raw && tokens.elementsEqual(corpus.canonicalTokens(at: index)) {
      alternates = Array(corpus.alternateTokens(at: index))
    } else if let readings {
      let scalars = units.map { Unicode.Scalar($0)! }
      for sequence in corpus.tables.alternates(units: scalars, canonical: readings) {
        alternates += sequence.map { syllabary.id(of: $0) ?? unreadable }
      }
    }
    return (tokens, alternates, pinyin, ends)
  }
}

/// What the app that inspired this package did: at every keystroke, for every place,
/// transliterate the name with ICU (the engine of `CFStringTransform`) and test the match; no
/// cache. ICU is made to agree with the corpus by one override rule per name that plain ICU
/// reads differently (``PinyinTransliterator``); option `icu-raw` drops them.
///
/// See docs/backends/icu.md.
public struct ICUBackend: SearchBackend {
  public static let name = "icu"
  public static let summary =
    "ICU Han-Latin with per-name override rules, transliterating every name at every keystroke"
  /// Option `icu-raw`, the raw variant; about 30 µs per name per keystroke, so a conformance
  /// run asks it an even sample; ICU allocates at every keystroke, so the gate lets its latency
  /// ratios grow by up to 100 % (the others: the thresholds file's allowance).
  public static let descriptor = BackendDescriptor(
    options: [BackendOption.icuRaw.declaration], variants: [ICUReadings.rawVariant],
    conformanceSample: [.cities: 300, .towns: 30, .villages: 4], sharedSetup: ICUReadings.loadICU,
    gateRatioAllowance: 1.0)

  /// The corpus it transliterates.
  public let corpus: Corpus
  let readings: ICUReadings

  public init(corpus: Corpus, options: BackendOptions = BackendOptions()) throws {
    self.corpus = corpus
    readings = try ICUReadings(corpus: corpus, options: options)
  }

  /// How many names needed an override rule.
  public var overrideCount: Int { readings.transliterator.overrideCount }

  public var statistics: IndexStatistics { readings.statistics(countedBytes: readings.transliterator.rules.utf8.count) }

  /// - Complexity: O(P) ICU transliterations and matcher calls for P places, plus a sort of
  ///   the matches.
  public func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int, scope: PlaceScope) -> SearchResult {
    precondition(scope.admits(corpus), "a scope resolved for another corpus")
    let prepared = readings.matcher.prepare(query)
    return .rankingEveryPlace(query, mode: mode, limit: limit, in: corpus) { index in
      guard scope.contains(index) else { return nil }
      let read = readings.subject(at: index)
      // The subject's slices are numbered from 0: so are the ends of its aliases.
      let aliases = corpus.aliases(at: index)
      let aliasBase = Int32(aliases.units.startIndex)
      let subject = PlaceMatcher.Subject(
        units: ArraySlice(corpus.units(at: index)), canonical: read.tokens[...], alternates: read.alternates[...],
        pinyin: read.pinyin[...], pinyinUnitEnds: read.ends[...], shortLength: corpus.shortNameUnitCount(at: index),
        aliases: (ArraySlice(aliases.units), ArraySlice(aliases.ends.lazy.map { $0 - aliasBase })))
      return readings.matcher.match(prepared, mode: mode, subject: subject)
    }
  }
}

/// ``ICUBackend`` with each name transliterated once, at build; a search then scans the stored
/// readings with the shared matcher.
///
/// See docs/backends/icu.md.
public struct ICUCachedBackend: SearchBackend {
  public static let name = "icu-cached"
  public static let summary = "ICU Han-Latin with per-name override rules, each name transliterated once at build"
  /// Option `icu-raw` and the raw variant.
  public static let descriptor = BackendDescriptor(
    options: [BackendOption.icuRaw.declaration], variants: [ICUReadings.rawVariant], sharedSetup: ICUReadings.loadICU)

  /// The corpus it transliterates.
  public let corpus: Corpus
  let readings: ICUReadings
  /// The places as ICU reads them, in the corpus's layout (`ReadingStore`): the matcher scans
  /// them as it scans the corpus's own.
  let store: ReadingStore

  public init(corpus: Corpus, options: BackendOptions = BackendOptions()) throws {
    self.corpus = corpus
    readings = try ICUReadings(corpus: corpus, options: options)
    var tokens = ContiguousArray<UInt16>()
    var alternates = ContiguousArray<UInt16>()
    var alternateStarts = ContiguousArray<Int32>([0])
    var unitStarts = ContiguousArray<Int32>([0])
    for index in 0..<corpus.count {
      let read = readings.subject(at: index)
      tokens += read.tokens
      unitStarts.append(Int32(tokens.count))
      alternates += read.alternates
      alternateStarts.append(Int32(alternates.count))
    }
    store = ReadingStore(
      unitStarts: unitStarts, tokens: tokens, alternateStarts: alternateStarts, alternateTokens: alternates,
      syllabary: readings.syllabary)
  }

  /// How many names needed an override rule.
  public var overrideCount: Int { readings.transliterator.overrideCount }

  /// The stored readings, their letter masks and the rule text.
  public var statistics: IndexStatistics {
    readings.statistics(countedBytes: store.countedBytes + readings.transliterator.rules.utf8.count)
  }

  /// - Complexity: O(P · c) for P places and the matcher's per-place cost c, plus a sort of
  ///   the matches.
  public func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int, scope: PlaceScope) -> SearchResult {
    precondition(scope.admits(corpus), "a scope resolved for another corpus")
    let prepared = readings.matcher.prepare(query)
    return readings.matcher.withPlaces(readings: store) { places in
      .rankingEveryPlace(query, mode: mode, limit: limit, in: corpus) { index in
        scope.contains(index) ? places.match(prepared, mode: mode, at: index) : nil
      }
    }
  }
}
