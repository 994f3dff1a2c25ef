import CitySearch

/// How an implementation that does not follow the contract compares with the reference on the
/// same queries: not pass or fail, but the shares of its answers that agree, and its
/// differences grouped by cause with a count and one example each.
///
/// An answer is compared on what the implementation offers: its total; its set of places where
/// the reference has at most `limit` matches (with more, any `limit` of them is a right set);
/// and, when it ranks, its first place and its first ten in order.
public struct ConformanceProfile: Codable, Sendable, Equatable {
  /// One group of differences: what differed, on which kind of query.
  public struct Cause: Codable, Sendable, Equatable {
    /// `finds more places than the contract · Latin letters`.
    public var name: String
    /// The queries it covers.
    public var count: Int
    /// The first of them, with both answers in short.
    public var example: String
  }

  /// The implementation's name.
  public var implementation: String
  /// The corpus's name.
  public var corpus: String
  /// The match mode, followed by the fuzzy rules when there are any (`syllable fuzzy zh-z`).
  public var mode: String
  /// Whether the implementation ranks its answers.
  public var ranked: Bool
  /// The places per answer.
  public var limit: Int
  /// Queries answered and compared.
  public var queries = 0
  /// Queries the implementation failed to answer.
  public var failedQueries = 0
  /// Answers with the reference's total.
  public var sameTotal = 0
  /// Answers with the reference's set of places, among ``setComparable``.
  public var sameSet = 0
  /// Queries whose reference answer has at most `limit` places, so that sets compare.
  public var setComparable = 0
  /// Ranked answers whose first place is the reference's, among ``rankComparable``.
  public var sameFirst = 0
  /// Ranked answers whose first ten places are the reference's, in order.
  public var sameTop10 = 0
  /// Queries with at least one match in the reference's answer (0 when not ranked).
  public var rankComparable = 0
  /// Answers equal to the reference's on everything the implementation offers.
  public var exact = 0
  /// The differences by cause, largest first.
  public var causes: [Cause] = []

  /// An empty profile of `implementation` on `corpus` in `mode`, queries read with the fuzzy
  /// rules `fuzzy`.
  public init(
    implementation: String, corpus: String, mode: MatchMode, fuzzy: FuzzyRules = [], ranked: Bool, limit: Int
  ) {
    self.implementation = implementation
    self.corpus = corpus
    self.mode = fuzzy.isEmpty ? mode.rawValue : "\(mode.rawValue) fuzzy \(fuzzy)"
    self.ranked = ranked
    self.limit = limit
  }

  /// Adds the comparison of one answer: `actual` (already in the form the implementation
  /// offers, ``ranked`` or a set) against the reference's `expected` for `text`.
  /// `name` names a place of the corpus, for the examples.
  public mutating func add(
    text: String, expected: SearchResult, actual: SearchResult, exactlyEqual: Bool, name: (SearchHit) -> String
  ) {
    queries += 1
    if exactlyEqual { exact += 1 }
    if expected.total == actual.total { sameTotal += 1 }
    let expectedIDs = expected.hits.map(\.id)
    let actualIDs = actual.hits.map(\.id)
    let comparableSet = expected.total <= limit
    if comparableSet {
      setComparable += 1
      if Set(expectedIDs) == Set(actualIDs) && actual.total == expected.total { sameSet += 1 }
    }
    if ranked && expected.total > 0 {
      rankComparable += 1
      if actualIDs.first == expectedIDs.first { sameFirst += 1 }
      if Array(actualIDs.prefix(10)) == Array(expectedIDs.prefix(10)) { sameTop10 += 1 }
    }
    guard !exactlyEqual else { return }
    var difference: String
    if expected.total > 0 && actual.total == 0 {
      difference = "finds nothing where the contract finds places"
    } else if expected.total == 0 {
      difference = "finds places where the contract finds none"
    } else if actual.total < expected.total {
      difference = "finds fewer places than the contract"
    } else if actual.total > expected.total {
      difference = "finds more places than the contract"
    } else if comparableSet && Set(expectedIDs) != Set(actualIDs) {
      difference = "finds other places, as many"
    } else if ranked {
      difference = "ranks the same places otherwise"
    } else {
      difference = "answers otherwise"
    }
    // Where the answer lacks places the contract finds (and the sets compare), how the
    // contract found them: through an alternate reading, through initials or a syllable's
    // prefix, or through whole syllables and Hanzi alone.
    if comparableSet {
      let found = Set(actualIDs)
      let missed = expected.hits.filter { !found.contains($0.id) }
      if missed.contains(where: { $0.match.readingClass == 1 }) {
        difference += ", missing places read by an alternate reading"
      } else if missed.contains(where: { $0.match.spellingClass == 1 }) {
        difference += ", missing places matched by initials or a syllable's prefix"
      } else if !missed.isEmpty {
        difference += ", missing places matched by whole syllables or Hanzi"
      }
    }
    let cause = "\(difference) · \(Self.kind(of: text))"
    func first(_ result: SearchResult) -> String { result.hits.first.map(name) ?? "nothing" }
    let example =
      "'\(text)': \(actual.total) places, first \(first(actual)); the contract \(expected.total), first \(first(expected))"
    if let i = causes.firstIndex(where: { $0.name == cause }) {
      causes[i].count += 1
    } else {
      causes.append(Cause(name: cause, count: 1, example: example))
    }
  }

  /// Sorts the causes, largest first (then by name), once every answer is in.
  public mutating func finish() {
    causes.sort { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
  }

  /// The kind of query `text` is, by what it holds: Hanzi, Hanzi and Latin mixed, Latin
  /// letters with tone digits, Latin letters with boundary marks, Latin letters, or other
  /// characters.
  public static func kind(of text: String) -> String {
    var hanzi = false
    var letters = false
    var marks = false
    var digits = false
    var other = false
    for scalar in text.unicodeScalars {
      if Hanzi.isHanzi(scalar.value) {
        hanzi = true
      } else if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) {
        letters = true
      } else if scalar == "'" || scalar == " " || scalar == "-" {
        marks = true
      } else if ("1"..."5").contains(scalar) {
        digits = true
      } else {
        other = true
      }
    }
    if other || (digits && !letters) { return "other characters" }
    if hanzi && letters { return "Hanzi and Latin mixed" }
    if hanzi { return "Hanzi" }
    if digits { return "Latin with tone digits" }
    return marks ? "Latin with boundary marks" : "Latin letters"
  }

  /// A share as a percentage with one decimal, or `–` when nothing compared.
  public static func share(_ part: Int, of whole: Int) -> String {
    whole == 0 ? "–" : String(format: "%.1f%%", 100 * Double(part) / Double(whole))
  }

  /// The profile in a few lines: the shares, then each cause with its example.
  public var lines: [String] {
    var head =
      "\(implementation) on \(corpus), \(mode): \(queries) queries; exact \(Self.share(exact, of: queries)), same total \(Self.share(sameTotal, of: queries)), same set \(Self.share(sameSet, of: setComparable)) (of \(setComparable) with at most \(limit) matches)"
    head +=
      ranked
      ? ", same first \(Self.share(sameFirst, of: rankComparable)), same top 10 \(Self.share(sameTop10, of: rankComparable))"
      : "; a set, not ranked"
    if failedQueries > 0 { head += "; \(failedQueries) queries failed" }
    return [head] + causes.map { "  \(String($0.count).leftPadded(6))  \($0.name)   e.g. \($0.example)" }
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(width - count, 0)) + self }
}
