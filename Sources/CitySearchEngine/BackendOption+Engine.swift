import CitySearch

extension BackendOption where Value == Bool {
  /// Backends built on the engine: precompute the answers to the one- and two-letter queries
  /// that match most of the corpus (``ShortQueryAnswers``, docs/backends/trie.md); off, they
  /// are searched like any other.
  public static var shortAnswers: BackendOption<Bool> {
    BackendOption("short-answers", default: true, summary: "precompute the broadest one- and two-letter answers")
  }
}
