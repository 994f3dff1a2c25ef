import CitySearch
import CitySearchEngine
import Foundation
import SQLiteSupport

/// The peer many app engineers would reach for: an in-memory SQLite database with an FTS5
/// table (`trigram` tokenizer) over each place's name, joined pinyin, initials and the
/// three-letter strings a `syllable`-mode query can begin with. Queries of three characters or
/// more are FTS5 substring matches; shorter ones look up whole tokens in a second FTS5 table
/// (default tokenizer) of the one- and two-character strings, since a trigram index cannot
/// answer them. Every candidate is verified with the shared matcher, so results conform.
///
/// Each keystroke is a fresh SQL query, as an app using SQLite would do it.
///
/// See docs/backends/sqlite-fts5.md.
public struct SQLiteFTS5Backend: SearchBackend, MatchSource {
  public static let name = "sqlite-fts5"
  public static let summary = "SQLite FTS5 trigram index (in memory) for candidates, verified by the shared matcher"

  /// The corpus the index was built from.
  public let corpus: Corpus
  /// The shared matcher, for verifying candidates and narrowing sessions.
  public let matcher: PlaceMatcher
  /// The rank keys of the corpus's places.
  public let ranking: Ranking
  private let store: Store
  /// The bytes SQLite allocated while building (`sqlite3_memory_used` before and after).
  private let sqliteBytes: Int
  /// Every unit of the corpus's names that is not a letter (Hanzi, digits, marks): a query
  /// holding another can match no name (only an alias), in either mode, as the inverted index
  /// concludes from its Hanzi table; SQLite is then not asked.
  private let units: Set<UInt32>

  public var statistics: IndexStatistics {
    IndexStatistics(countedBytes: sqliteBytes + corpus.count * 8, notes: ["sqlite": sqliteVersion])
  }

  public init(corpus: Corpus, options: BackendOptions = BackendOptions()) throws {
    self.corpus = corpus
    matcher = PlaceMatcher(corpus: corpus)
    ranking = Ranking(corpus: corpus)
    let before = sqliteMemoryUsed
    store = try Store(corpus: corpus)
    sqliteBytes = Int(sqliteMemoryUsed - before)
    units = Set((0..<corpus.count).lazy.flatMap { corpus.units(at: $0) }.filter { !Self.isLetter($0) })
  }

  public func forEachMatch(
    _ query: PlaceMatcher.PreparedQuery, mode: MatchMode, _ body: (Int, Match) -> Void
  ) {
    matcher.withPlaces { places in
      func verify(_ place: Int) {
        if let m = places.match(query, mode: mode, at: place) { body(place, m) }
      }
      // The places with an alias that begins with the query (MatchSpec §8), from an indexed
      // table, are verified once, apart from the full-text candidates.
      let aliased = mode == .syllable ? store.aliasCandidates(query.needle) : []
      aliased.forEach(verify)
      if query.needle.contains(where: { !Self.isLetter($0) && !units.contains($0) }) { return }
      let (sql, match) = Self.candidateQuery(query, mode: mode)
      store.forEachCandidate(sql, match) { place in
        if aliased.isEmpty || !Self.contains(aliased, place) { verify(place) }
      }
    }
  }

  /// Whether the ascending `sorted` holds `value`.
  static func contains(_ sorted: [Int], _ value: Int) -> Bool {
    var low = 0
    var high = sorted.count
    while low < high {
      let mid = (low + high) / 2
      if sorted[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low < sorted.count && sorted[low] == value
  }

  /// The most characters of the query a full-text phrase holds. Any prefix of the needle gives a
  /// superset of the places that contain the whole needle (the matcher verifies each), and a
  /// trigram phrase costs in proportion to its length: without this bound a 20,000-letter
  /// periodic query (`beibei…`) took 400 ms and 118 MB in seed mode, against the reference's 2 ms.
  /// At 24 a fuzzed 16-letter seed query (`tong1cheng2xian3`) still took 130–200 µs, 10–11× the
  /// reference's time (the input-cost bound); at 9, 7–8.7× (`pingxiangsh`); at 6, 5.5–6.7× on
  /// four fuzz seeds: six letters already select few places, and each trigram more merges
  /// another long list (`xia`, `ian`, `ang` each hold thousands of places).
  static let longestPhrase = 6

  /// The most letters of a `syllable`-mode query's beginning that select candidates: `starts`
  /// holds, as whole tokens, the longest strings of up to this many letters a query can begin
  /// with at some unit, and a shorter beginning is a prefix query on them (FTS5 prefix indexes
  /// of 3 and 4 characters). With three letters as a trigram phrase, a query that begins like
  /// many places and then matches none (`xiantm`, `xiaz`) made SQLite return every place with
  /// a run beginning `xia` (over 2,000 of cities) for the matcher to reject: 190–205 µs
  /// against the reference's 19–45 µs, at the input-cost bound.
  static let startLength = 5

  /// The most Hanzi and digits of a `syllable`-mode query that select candidates.
  static let mostUnits = 4

  /// Whether a query token is a letter `a`…`z` (a digit or a Hanzi is a unit of its own).
  static func isLetter(_ token: UInt32) -> Bool { token >= 0x61 && token <= 0x7A }

  /// The condition that a run of the name begins with `letters`, the letters of a query up to
  /// its end or its next Hanzi or digit: its first ``startLength`` letters are a `starts`
  /// token, three or four a token's prefix, one or two a `syl` token.
  static func beginning(_ letters: some Collection<UInt32>) -> String {
    let prefix = Store.text(letters.prefix(startLength))
    switch prefix.unicodeScalars.count {
    case startLength: return "starts : \"\(prefix)\""
    case 3...: return "starts : \"\(prefix)\" *"
    default: return "syl : \"\(prefix)\""
    }
  }

  /// The condition that a run of the name begins where a query read with the fuzzy rules
  /// `rules` (MatchSpec §3.5) begins with `letter`: a unit whose syllable begins with one of the
  /// letters its fuzzy spellings may begin with (``MatchRules/fuzzyFirstLetters(typedAs:rules:)``),
  /// each a one-letter `syl` token, any of them.
  static func fuzzyBeginning(_ letter: UInt32, rules: FuzzyRules) -> String {
    var letters = MatchRules.fuzzyFirstLetters(typedAs: UInt8(truncatingIfNeeded: letter), rules: rules)
    var terms: [String] = []
    while letters != 0 {
      terms.append("syl : \"\(Store.text([UInt32(0x61 + letters.trailingZeroBitCount)]))\"")
      letters &= letters - 1
    }
    return "(" + terms.joined(separator: " OR ") + ")"
  }

  /// Which table to ask and the FTS5 query: a superset of the matches (MatchSpec §3, §4).
  static func candidateQuery(_ query: PlaceMatcher.PreparedQuery, mode: MatchMode) -> (Store.Table, String) {
    let needle = query.needle.prefix(longestPhrase)
    func text(_ tokens: some Sequence<UInt32>) -> String { Store.text(tokens) }
    let rules = mode == .syllable ? query.query.fuzzy : []
    /// The condition on a run of letters' beginning, read with the query's fuzzy rules.
    func beginning(_ letters: some Collection<UInt32>) -> String {
      rules.isEmpty || !isLetter(letters.first!)
        ? Self.beginning(letters) : fuzzyBeginning(letters.first!, rules: rules)
    }
    if mode == .seed && query.query.hasHanzi {  // the needle is a substring of the name
      let part = Array(needle)
      return part.count >= 3 ? (.trigrams, "name : \"\(text(part))\"") : (.grams, "han : \"\(text(part))\"")
    }
    // Syllable: each Hanzi and each digit of the query is a unit of the name (a digit matches
    // only a literal unit, MatchSpec §3.3), and each run of letters between them begins a run
    // of the name at some unit, so its first two letters are one of the place's `syl` keys:
    // each is a condition, as the inverted index intersects its lists, and together they
    // select far fewer places than one alone (`县` selects 1,400 places of cities, `xia` more
    // than 2,000).
    var units: [UInt32] = []
    for unit in query.needle where !isLetter(unit) && !units.contains(unit) && units.count < mostUnits {
      units.append(unit)
    }
    if mode == .syllable && !units.isEmpty {
      let terms = units.map { "han : \"\(text([$0]))\"" }
      var keys: [String] = []
      var start = query.needle.startIndex
      while start < query.needle.endIndex && keys.count < mostUnits {
        let run = query.needle[start...].prefix(while: isLetter)
        if !run.isEmpty && !keys.contains(beginning(run)) { keys.append(beginning(run)) }
        start = run.endIndex + 1
      }
      return (.grams, (terms + keys).joined(separator: " AND "))
    }
    switch mode {
    case .syllable:
      return (.grams, beginning(needle))
    case .seed:
      return needle.count >= 3
        ? (.trigrams, "{pinyin initials} : \"\(text(needle))\"") : (.grams, "seed : \"\(text(needle))\"")
    }
  }

  public func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int, scope: PlaceScope) -> SearchResult {
    rankedSearch(query, mode: mode, limit: limit, scope: scope)
  }

  /// The database and its prepared queries; SQLite statements are used by one thread at a time.
  final class Store: @unchecked Sendable {
    enum Table { case trigrams, grams }
    private let database: SQLiteDatabase
    private let trigramQuery: SQLiteStatement
    private let gramQuery: SQLiteStatement
    private let aliasQuery: SQLiteStatement
    private let lock = NSLock()
    private let placeCount: Int

    init(corpus: Corpus) throws {
      placeCount = corpus.count
      database = try SQLiteDatabase()
      try database.execute(
        """
        CREATE VIRTUAL TABLE trigrams USING fts5(name, pinyin, initials, tokenize = 'trigram');
        CREATE VIRTUAL TABLE grams USING fts5(syl, seed, han, starts, prefix = '3 4');
        CREATE TABLE aliases(key TEXT NOT NULL, place INTEGER NOT NULL);
        BEGIN;
        """)
      let insertAlias = try database.prepare("INSERT INTO aliases(key, place) VALUES (?, ?)")
      let insertTrigrams = try database.prepare(
        "INSERT INTO trigrams(rowid, name, pinyin, initials) VALUES (?, ?, ?, ?)")
      let insertGrams = try database.prepare(
        "INSERT INTO grams(rowid, syl, seed, han, starts) VALUES (?, ?, ?, ?, ?)")
      let generator = SyllableKeyGenerator(syllabary: corpus.syllabary)
      var keys: [Int32] = []
      for place in 0..<corpus.count {
        let pinyin = Array(corpus.joinedPinyin(at: place))
        let initials = corpus.initials(at: place)
        keys.removeAll(keepingCapacity: true)
        generator.keys(
          readings: corpus.canonicalTokens(at: place), lengths: 1...SQLiteFTS5Backend.startLength, into: &keys)
        for k in 0..<corpus.alternateCount(at: place) {
          generator.keys(
            readings: corpus.alternateTokens(at: place, k), lengths: 1...SQLiteFTS5Backend.startLength, into: &keys)
        }
        let strings = Set(keys.map(LetterKey.string))
        let starts = Self.longest(strings.filter { $0.utf8.count >= 3 }).joined(separator: " ")
        let syl = strings.filter { $0.utf8.count < 3 }.sorted().joined(separator: " ")
        let seed = Set(Self.shortGrams(pinyin) + Self.shortGrams(initials)).sorted().joined(separator: " ")
        let units = Array(corpus.units(at: place))
        let han = Set(Self.shortGrams(units).map { String(String.UnicodeScalarView($0.map { Unicode.Scalar($0)! })) })
          .sorted().joined(separator: " ")
        try insertTrigrams.run([
          place + 1, Self.text(corpus.units(at: place)), String(decoding: pinyin, as: UTF8.self),
          String(decoding: initials, as: UTF8.self),
        ])
        try insertGrams.run([place + 1, syl, seed, han, starts])
        for k in 0..<corpus.aliasCount(at: place) {
          try insertAlias.run([Self.text(corpus.aliasTokens(at: place, k)), place + 1])
        }
      }
      try database.execute(
        """
        COMMIT; INSERT INTO trigrams(trigrams) VALUES ('optimize'); INSERT INTO grams(grams) VALUES ('optimize');
        CREATE INDEX aliases_by_key ON aliases(key);
        """)
      trigramQuery = try database.prepare("SELECT rowid FROM trigrams WHERE trigrams MATCH ?")
      gramQuery = try database.prepare("SELECT rowid FROM grams WHERE grams MATCH ?")
      // A prefix range on the index: every key from the prefix up to the prefix followed by the
      // largest code point.
      aliasQuery = try database.prepare("SELECT DISTINCT place FROM aliases WHERE key >= ?1 AND key < ?1 || ?2")
    }

    /// The strings of `strings` that begin no other, in order: a string that begins one of
    /// `strings` begins one of these.
    static func longest(_ strings: Set<String>) -> [String] {
      let sorted = strings.sorted()
      // In sorted order, the strings a string begins come right after it.
      return sorted.indices.filter { i in i + 1 == sorted.count || !sorted[i + 1].hasPrefix(sorted[i]) }
        .map { sorted[$0] }
    }

    static func text(_ tokens: some Sequence<UInt32>) -> String {
      String(String.UnicodeScalarView(tokens.map { Unicode.Scalar($0)! }))
    }

    /// The places with an alias that begins with `needle`, ascending.
    func aliasCandidates(_ needle: [UInt32]) -> [Int] {
      guard !needle.isEmpty else { return [] }
      lock.lock()
      defer { lock.unlock() }
      var rows: [Int] = []
      do {
        try aliasQuery.forEachInteger([Self.text(needle), "\u{10FFFF}"]) { rows.append(Int($0) - 1) }
      } catch {
        // As for the full-text queries: should SQLite fail, every place is a candidate.
        rows = Array(0..<placeCount)
      }
      return rows.sorted()
    }

    /// The one- and two-element substrings.
    static func shortGrams<T: Equatable>(_ s: [T]) -> [[T]] {
      var grams: [[T]] = []
      for i in s.indices {
        grams.append([s[i]])
        if i + 1 < s.count { grams.append([s[i], s[i + 1]]) }
      }
      return grams
    }

    static func shortGrams(_ s: [UInt8]) -> [String] {
      shortGrams(s).map { String(decoding: $0, as: UTF8.self) }
    }

    func forEachCandidate(_ table: Table, _ match: String, _ body: (Int) -> Void) {
      lock.lock()
      defer { lock.unlock() }
      let statement = table == .trigrams ? trigramQuery : gramQuery
      var rows: [Int] = []
      do {
        try statement.forEachInteger([match]) { rows.append(Int($0) - 1) }
      } catch {
        // The queries built above are always valid FTS5; should SQLite still fail (out of
        // memory), every place is a candidate, so the answer stays exact, only slower.
        rows = Array(0..<placeCount)
      }
      rows.forEach(body)
    }
  }
}
