import CitySearch

/// `--two-level` of `search`: also answer a query that names a place and then one under it
/// (MatchSpec §9.2: `北京朝阳`, `bjcy`).
enum TwoLevelArgument {
  /// The option.
  static let options: [CommandOption] = [
    .flag(
      "--two-level",
      "also find a place by its ancestor's name followed by its own (北京朝阳, bjcy, 'beijing chaoyang': 朝阳区 of 北京; MatchSpec §9.2)"
    )
  ]

  /// What answers a query: `backend` alone, or with two-level queries when `--two-level` is given.
  static func searcher(
    _ backend: any SearchBackend, _ args: ParsedArguments, mode: MatchMode, limit: Int, scope: PlaceScope,
    fuzzy: FuzzyRules
  ) -> (String) -> SearchResult {
    func open<B: SearchBackend>(_ backend: B) -> (String) -> SearchResult {
      guard args.has("--two-level") else {
        return { backend.search($0, mode: mode, limit: limit, scope: scope, fuzzy: fuzzy) }
      }
      let search = TwoLevelSearch(backend: backend)
      return { search.search($0, mode: mode, limit: limit, scope: scope, fuzzy: fuzzy) }
    }
    return open(backend)
  }
}
