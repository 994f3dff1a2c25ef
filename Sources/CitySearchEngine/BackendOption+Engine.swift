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
}
