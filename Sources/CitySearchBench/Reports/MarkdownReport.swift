import Foundation

/// `report.md`: the tables an engineer pastes into a design document or a pull request.
public enum MarkdownReport {
  /// The whole `report.md` for `results`.
  public static func text(_ results: BenchResults) -> String {
    let m = results.metadata
    let ns = { (v: Double) in Formatting.duration(nanoseconds: v) }
    var out = "# CitySearchBench: \(m.corpus.name), \(m.mode) mode\n\n"
    out += Headline.sentences(results).map { "- \($0)\n" }.joined() + "\n"
    out += runDescription(results) + "\n\n"

    out += "## Keystroke latency\n\n"
    out +=
      "Each keystroke's latency is the median of its rounds (\(m.rounds)); brackets are 95% bootstrap intervals.\n\n"
    out += table(
      ["backend", "mean", "p50", "p90", "p99", "p99.9", "max", "timed keystrokes"],
      results.backends.map { b in
        guard let l = b.latency else { return [b.name, "–", "–", "–", "–", "–", "–", "0"] }
        // The maximum is one keystroke, not an estimate: no interval.
        return [b.name, ns(l.mean)]
          + ReportedQuantile.allCases.map { $0 == .max ? ns(l[$0].value) : Formatting.estimate(l[$0], ns) }
          + [timed(b)]
      })

    for table in ReportTable.sections(results) { out += "\n" + table.markdown() }

    if let relevance = results.relevance {
      out += "\n## Relevance of the reference's ranking\n\n"
      out += "Keystrokes until the place meant is first, every place typed in every style (docs/Relevance.md).\n\n"
      out += table(["measure", "value"], relevance.rows.map { [$0.0, $0.1] })
    }

    out += "\n## Conformance on the timed keystrokes\n\n"
    out += table(
      ["backend", "answers checked", "divergences", "status"],
      results.backends.dropFirst().map { b in
        [
          b.name, Formatting.count(b.conformance.checked), Formatting.count(b.conformance.divergences),
          b.conformance.divergences == 0 ? "conforms" : b.external != nil ? "differs (external)" : "**diverges**",
        ]
      })
    for b in results.backends {
      guard let first = b.conformance.first else { continue }
      out += "\n\(b.name) first diverged in round \(first.round + 1), session \(first.session), at `\(first.text)`"
      out +=
        first.typedBefore.isEmpty
        ? "" : " (typed before: \(first.typedBefore.map { "`\($0)`" }.joined(separator: ", ")))"
      out += ": \(first.difference)\n\n```\n\(first.sideBySide)\n```\n"
    }
    let notes = samplingNotes(results)
    if !notes.isEmpty {
      out += "\n## Sampling\n\n" + notes.map { "- \($0)\n" }.joined()
    }
    return out
  }

  /// The run's metadata in two sentences.
  public static func runDescription(_ results: BenchResults) -> String {
    let m = results.metadata
    return """
      \(m.startedAt), \(m.buildConfiguration) build, Swift \(m.swiftVersion), commit `\(m.gitCommit)`; \
      \(m.machine.cpuModel), \(m.machine.cores) cores, \(m.machine.operatingSystem) (kernel \(m.machine.kernel)). \
      Corpus \(m.corpus.name): \(Formatting.count(m.corpus.places)) places (`\(m.corpus.checksum)`); \
      workload \(m.workload.name): \(Formatting.count(m.workload.sessions)) sessions, \
      \(Formatting.count(m.workload.keystrokes)) keystrokes (`\(m.workload.checksum)`); \
      \(m.rounds) rounds after \(Formatting.count(m.warmUpKeystrokes)) warm-up keystrokes, \(m.limit) answers per \
      keystroke; clock overhead \(Formatting.duration(nanoseconds: m.clockOverheadNanoseconds)).
      """
  }

  /// One line per backend timed on a sample of keystrokes.
  public static func samplingNotes(_ results: BenchResults) -> [String] {
    let m = results.metadata
    return results.backends.filter { $0.sampling.stride > 1 }.map { b in
      let s = b.sampling
      let needed = s.warmUpMeanNanoseconds * Double(s.keystrokes * m.rounds) / 1e9
      return """
        \(b.name) was timed on 1 keystroke in \(s.stride) (\(Formatting.count(s.timedKeystrokes)) of \
        \(Formatting.count(s.keystrokes)), evenly spread), each answered in a session of its own: at its warm-up mean of \
        \(Formatting.duration(nanoseconds: s.warmUpMeanNanoseconds)) per answer, every keystroke in \(m.rounds) rounds \
        would take about \(Formatting.seconds(needed)), over the budget of \(Formatting.seconds(m.budgetSeconds)).
        """
    }
  }

  static func timed(_ b: BackendResults) -> String {
    b.sampling.stride == 1
      ? Formatting.count(b.sampling.timedKeystrokes)
      : "\(Formatting.count(b.sampling.timedKeystrokes)) (sample)"
  }

  /// A GitHub-flavoured Markdown table; `|` in cells is escaped.
  public static func table(_ header: [String], _ rows: [[String]]) -> String {
    func line(_ cells: [String]) -> String {
      "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
    }
    return line(header) + "|" + header.map { _ in "---|" }.joined() + "\n" + rows.map(line).joined()
  }
}
