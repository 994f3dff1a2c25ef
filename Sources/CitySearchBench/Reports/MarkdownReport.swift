import Foundation

/// `report.md`: the tables an engineer pastes into a design document or a pull request.
public enum MarkdownReport {
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
      ["backend", "p50", "p90", "p99", "p99.9", "max", "timed keystrokes"],
      results.backends.map { b in
        guard let l = b.latency else { return [b.name, "–", "–", "–", "–", "–", "0"] }
        return [b.name] + ReportedQuantile.allCases.map { Formatting.estimate(l[$0], ns) } + [timed(b)]
      })

    out += "\n## Paired ratio to \(results.reference)\n\n"
    out +=
      "Per keystroke, the backend's time over \(results.reference)'s on the same keystroke; quantiles of those ratios. "
    out +=
      "Below 1× is faster than the reference. The A/A row is \(results.reference) against itself: the noise floor.\n\n"
    var ratioRows: [[String]] = []
    if let noise = results.noiseFloor { ratioRows.append(["\(results.reference) (A/A)"] + ratioCells(noise)) }
    for b in results.backends { if let r = b.ratioToReference { ratioRows.append([b.name] + ratioCells(r)) } }
    out += table(["backend", "p50", "p90", "p99", "keystrokes"], ratioRows)

    let lengths = results.measuredLengthGroups
    out += "\n## By query length (p50 / p99)\n\n"
    out += table(
      ["backend"] + lengths.map { "\($0) char" + ($0 == "1" ? "" : "s") },
      results.backends.map { b in [b.name] + lengths.map { group(b.byLength, $0) } })
    out += "\n## By input style (p50 / p99)\n\n"
    out += table(
      ["backend"] + m.workload.styles,
      results.backends.map { b in [b.name] + m.workload.styles.map { group(b.byStyle, $0) } })

    out += "\n## Time to final results per session\n\n"
    out += "The sum of a session's keystroke latencies, from the first keystroke to the last.\n\n"
    out += table(
      ["backend", "p50", "p90", "p99", "max"],
      results.backends.map { b in
        guard let s = b.sessions else { return [b.name, "sampled", "", "", ""] }
        return [b.name] + [ReportedQuantile.p50, .p90, .p99, .max].map { Formatting.estimate(s[$0], ns) }
      })

    out += "\n## Build and memory\n\n"
    out += table(
      ["backend", "build", "heap kept", "index (counted)", "notes"],
      results.backends.map { b in
        [
          b.name, Formatting.seconds(b.build.seconds), b.build.heapBytes.map(megabytes) ?? "n/a",
          b.build.countedBytes > 0 ? megabytes(b.build.countedBytes) : "–",
          b.build.notes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "; "),
        ]
      })

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
          b.conformance.divergences == 0 ? "conforms" : "**diverges**",
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

  static func ratioCells(_ r: RatioSummary) -> [String] {
    RatioSummary.quantiles.map { Formatting.estimate(r[$0]!, Formatting.ratio) } + [Formatting.count(r.count)]
  }

  static func group(_ groups: [GroupDistribution], _ label: String) -> String {
    guard let g = groups.first(where: { $0.group == label }) else { return "–" }
    return
      "\(Formatting.duration(nanoseconds: g.latency.p50.value)) / \(Formatting.duration(nanoseconds: g.latency.p99.value))"
  }

  /// A GitHub-flavoured Markdown table; `|` in cells is escaped.
  public static func table(_ header: [String], _ rows: [[String]]) -> String {
    func line(_ cells: [String]) -> String {
      "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
    }
    return line(header) + "|" + header.map { _ in "---|" }.joined() + "\n" + rows.map(line).joined()
  }
}
