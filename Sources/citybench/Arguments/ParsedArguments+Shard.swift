import CitySearchConformance

extension ParsedArguments {
  /// `--shard K/N` (the whole run without it); a malformed value is a usage error.
  func shard() throws -> Shard {
    guard let text = self["--shard"] else { return .whole }
    do {
      return try Shard(parsing: text)
    } catch {
      throw UsageError(message: "\(error)")
    }
  }
}
