/// The text `citybench conform` and `citybench merge` print for a ``ConformanceResult``.
public enum ConformanceSummary {
  /// Every check's line and first reproduction, by tier and backend, the unexpected passes,
  /// and the verdict.
  public static func text(_ result: ConformanceResult) -> String {
    var lines: [String] = []
    var heading = ""
    for check in result.checks {
      if check.tier != heading {
        heading = check.tier
        let places = result.settings.tiers.first { $0.name == heading }?.places
        lines.append("\n== \(heading)\(places.map { ": \($0) places" } ?? "")")
      }
      if check.mode == result.settings.modes.first {
        if check.buildError == nil { lines.append("\(check.backend):") }
      } else if check.buildError != nil {
        continue  // said once, on the first mode's line
      }
      lines.append(check.line(shard: result.shard))
      if let first = check.divergences.first { lines.append(first.reproduction) }
      if let cost = check.inputCost { lines.append(cost.summary) }
    }
    lines += result.unexpectedPasses.map(unexpectedPassesLine)
    lines.append("\n" + verdict(result))
    return lines.joined(separator: "\n")
  }

  /// The line that reports `passes`: the backend, the tier and the first ten places.
  public static func unexpectedPassesLine(_ passes: ConformanceResult.UnexpectedPasses) -> String {
    "  \(passes.backend) on \(passes.tier): unexpected passes: \(passes.places.count) listed places took part in no "
      + "divergence: \(passes.places.prefix(10).map(String.init).joined(separator: ", "))"
  }

  /// The last line: `conform: FAILED` or `conform: every backend conforms`.
  public static func verdict(_ result: ConformanceResult) -> String {
    let scope =
      result.shard.map { " (shard \($0))" }
      ?? (result.mergedShards > 1 ? " (\(result.mergedShards) shards merged)" : "")
    return result.failed ? "conform: FAILED\(scope)" : "conform: every backend conforms\(scope)"
  }
}
