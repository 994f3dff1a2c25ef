import CitySearch

extension BackendOption where Value == Bool {
  /// Backends built on the engine: precompute the answers to the one- and two-letter queries
  /// that match most of the corpus (``ShortQueryAnswers``, docs/backends/trie.md); off, they
  /// are searched like any other.
  public static var shortAnswers: BackendOption<Bool> {
    BackendOption("short-answers", default: true, summary: "precompute the broadest one- and two-letter answers")
  }

  /// Backends built on the engine: precompute the broadest answers of queries read with every
  /// fuzzy rule too (``ShortQueryAnswers`` with `FuzzyRules.all`, MatchSpec §3.5), for an app
  /// that reads every keystroke with them; off, such queries are searched like any other.
  public static var fuzzyAnswers: BackendOption<Bool> {
    BackendOption(
      "fuzzy-answers", default: false, summary: "precompute the broadest answers under every fuzzy rule too")
  }

  /// `inverted-index`: keep a family of posting lists for queries read with fuzzy rules
  /// (MatchSpec §3.5), keyed by the first three letters under every rule; off, such a query's
  /// candidates are the places with a unit that begins with a letter its first letter may
  /// stand for, and the index is as large as without rules (on `villages` the lists add about
  /// 70 MB).
  public static var fuzzyLists: BackendOption<Bool> {
    BackendOption("fuzzy-lists", default: false, summary: "keep posting lists for queries read with fuzzy rules")
  }
}
