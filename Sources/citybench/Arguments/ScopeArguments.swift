import CitySearch

/// `--cities`, `--level N` and `--under PLACE`: the scope a command's searches answer with
/// (MatchSpec §9.1), declared once for every command that takes it.
enum ScopeArguments {
  /// The options.
  static let options: [CommandOption] = [
    .flag(
      "--cities",
      "answer only with the places a city picker lists (prefecture-level cities, municipalities, SARs, county-level cities under a province)"
    ),
    .value(
      "--level", "N", "answer only with places of level N (1 province … 5 village; a list 2,3 or a range 2-3)"),
    .value(
      "--under", "PLACE",
      "answer only with the places under PLACE (an id, a name, or a path such as 北京市 or 广东省/广州市); with several, they all apply"
    ),
  ]

  /// The conditions given on the command line (every place when none is).
  static func request(_ arguments: ParsedArguments) throws -> PlaceScope.Request {
    do {
      return PlaceScope.Request(
        citiesOnly: arguments.has("--cities"),
        levels: try arguments["--level"].map { text throws(ScopeError) in try PlaceScope.Request.levels(parsing: text)
        },
        under: arguments["--under"])
    } catch {
      throw UsageError(message: "--level: \(error)")
    }
  }

  /// The conditions resolved for `corpus`; a place that `--under` cannot name is an error that
  /// says why.
  static func scope(_ request: PlaceScope.Request, in corpus: Corpus) throws -> PlaceScope {
    do {
      return try request.resolve(in: corpus)
    } catch {
      throw CommandError(message: "--under: \(error)")
    }
  }
}
