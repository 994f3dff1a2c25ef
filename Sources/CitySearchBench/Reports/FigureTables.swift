/// Markdown tables of several runs, one column per run (a tier each): the per-keystroke latency
/// with the paired ratio to the reference, and the build time with both memory figures. What
/// `citybench figures` prints, and writes between the markers of a README, so that a README's
/// measured tables are generated from committed `results.json` files and a test can check they
/// have not drifted.
///
/// ```swift
/// let runs = try paths.map { try BenchResults(contentsOf: $0) }
/// let text = FigureTables.markdown(runs, sources: paths)
/// let readme = try FigureTables.replacingBlock(in: oldReadme, with: text)
/// ```
public enum FigureTables {
  /// The line before a generated block.
  public static let beginMarker = "<!-- figures: written by `citybench figures`; do not edit by hand -->"
  /// The line after it.
  public static let endMarker = "<!-- figures: end -->"

  /// The tables of `runs`, in the given order, each column headed by its corpus; `sources`
  /// (the files, as the reader would find them) are named in the caption.
  public static func markdown(_ runs: [BenchResults], sources: [String]) -> String {
    guard let first = runs.first else { return "No runs.\n" }
    let m = first.metadata
    let names = orderedNames(runs)
    let header =
      "| backend | "
      + runs.map { "`\($0.metadata.corpus.name)` (\(Formatting.count($0.metadata.corpus.places)) places)" }
      .joined(separator: " | ") + " |"
    let rule = "|---|" + String(repeating: "---|", count: runs.count)
    var lines = [
      "Measured by `citybench bench` at \(commits(runs)), \(m.buildConfiguration) build, \(m.machine.cpuModel) "
        + "(\(m.machine.cores) cores), \(m.mode) mode, \(m.rounds) rounds over each tier's committed workload, "
        + "each keystroke's latency the median of its rounds; written from "
        + sources.map { "`\($0)`" }.joined(separator: ", ") + " by `citybench figures`.",
      "",
      "Per-keystroke latency, p50 / p99, and the paired ratio to `\(first.reference)` at p50 "
        + "(each report has the 95 % intervals, by query length, by input style and per session):",
      "",
      header, rule,
    ]
    for name in names {
      lines.append(
        "| `\(name)` | "
          + runs.map { run in run.backend(named: name).map { latencyCell($0, run: run) } ?? "–" }
          .joined(separator: " | ") + " |")
    }
    lines += [
      "", "Build time, the index's own count of its bytes and the heap the build kept:", "", header, rule,
    ]
    for name in names {
      lines.append(
        "| `\(name)` | "
          + runs.map { run in run.backend(named: name).map(buildCell) ?? "–" }.joined(separator: " | ") + " |")
    }
    if runs.count > 1, let growth = try? CostGrowth(runs: runs) {
      lines += [
        "",
        "How each cost grows with the corpus: the exponent k of N^k fitted on log–log axes over the "
          + "\(runs.count) tiers (1 grows in proportion to the places, 0 does not grow; `citybench bench "
          + "--corpus A,B,…` draws it):",
        "",
        "| backend | " + CostGrowth.Metric.allCases.map(\.rawValue).joined(separator: " | ") + " |",
        "|---|" + String(repeating: "---|", count: CostGrowth.Metric.allCases.count),
      ]
      for series in growth.series where names.contains(series.backend) {
        lines.append(
          "| `\(series.backend)` | "
            + CostGrowth.Metric.allCases.map { metric in
              series.exponent(metric).map { String(format: "%.2f", $0) } ?? "–"
            }.joined(separator: " | ") + " |")
      }
    }
    let keystrokes = runs.map {
      "\(Formatting.count($0.metadata.workload.keystrokes)) on `\($0.metadata.corpus.name)`"
    }
    lines += [
      "",
      "Keystrokes replayed: \(keystrokes.joined(separator: ", ")). A backend too slow to answer "
        + "every keystroke within the run's budget answered an even sample, each in a fresh session "
        + "(\"1 in N\"). Every answer was checked against the reference's: "
        + conformance(runs) + ".",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// `text` with the block between the markers replaced by `block`.
  ///
  /// - Throws: ``MissingMarkers`` when `text` does not hold both markers, in order.
  public static func replacingBlock(in text: String, with block: String) throws -> String {
    guard let range = blockRange(in: text) else { throw MissingMarkers() }
    return text.replacingCharacters(in: range, with: block)
  }

  /// The block between the markers of `text`, or `nil` when it has none.
  public static func block(in text: String) -> String? { blockRange(in: text).map { String(text[$0]) } }

  /// Where the block lies: after the begin marker's line, up to the end marker.
  static func blockRange(in text: String) -> Range<String.Index>? {
    guard let begin = text.range(of: beginMarker + "\n"),
      let end = text.range(of: endMarker, range: begin.upperBound..<text.endIndex)
    else { return nil }
    return begin.upperBound..<end.lowerBound
  }

  /// A file without the figure markers.
  public struct MissingMarkers: Error, CustomStringConvertible {
    /// The error.
    public init() {}
    public var description: String {
      "the file has no figures block: put a line '\(FigureTables.beginMarker)' and a line '\(FigureTables.endMarker)' where the tables go"
    }
  }

  /// Every backend of the runs, the reference first, then in each run's order, each once;
  /// implementations in other processes are left out (they have a table of their own).
  static func orderedNames(_ runs: [BenchResults]) -> [String] {
    var seen = Set<String>()
    var names: [String] = []
    for run in runs {
      for b in run.backends where b.external == nil && seen.insert(b.name).inserted { names.append(b.name) }
    }
    return names
  }

  static func latencyCell(_ b: BackendResults, run: BenchResults) -> String {
    guard let latency = b.latency else { return "not timed" }
    var cell =
      "\(Formatting.duration(nanoseconds: latency.p50.value)) / \(Formatting.duration(nanoseconds: latency.p99.value))"
    if b.name != run.reference, let ratio = b.ratioToReference?.p50.value {
      cell += " (\(String(format: ratio < 0.1 ? "%.3f×" : ratio < 10 ? "%.2f×" : "%.0f×", ratio)))"
    }
    if b.sampling.stride > 1 { cell += ", 1 in \(b.sampling.stride)" }
    return cell
  }

  static func buildCell(_ b: BackendResults) -> String {
    var parts = [Formatting.seconds(b.build.seconds)]
    if b.build.countedBytes > 0 { parts.append("index \(megabytes(b.build.countedBytes))") }
    parts.append("heap \(b.build.heapBytes.map(megabytes) ?? "n/a")")
    return parts.joined(separator: ", ")
  }

  static func commits(_ runs: [BenchResults]) -> String {
    let commits = Array(Set(runs.map(\.metadata.gitCommit))).sorted()
    return commits.map { "`\($0)`" }.joined(separator: ", ")
  }

  static func conformance(_ runs: [BenchResults]) -> String {
    let diverging = runs.flatMap { run in
      run.backends.filter { $0.conformance.divergences > 0 }.map { "\($0.name) on \(run.metadata.corpus.name)" }
    }
    return diverging.isEmpty ? "every one matched" : "divergences from " + diverging.joined(separator: ", ")
  }
}
