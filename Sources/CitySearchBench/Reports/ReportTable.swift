/// A table of a report, defined once and written by both `report.md` and `report.html`.
public struct ReportTable: Sendable {
  /// The section heading.
  public let title: String
  /// One or two sentences under the heading, or empty.
  public let caption: String
  /// The column headings.
  public let headers: [String]
  /// The rows, each with one cell per heading.
  public let rows: [[String]]

  /// The title of the build and memory table.
  static let buildTitle = "Build and memory"

  /// The tables that follow the latency table, in report order: the paired ratios, the
  /// instruction counts when the run made them, by query length, by input style, time per session, build and memory.
  public static func sections(_ results: BenchResults) -> [ReportTable] {
    [
      pairedRatios(results), againstFloor(results), alone(results), external(results), instructions(results),
      allocations(results),
      byLength(results),
      byStyle(results), sessions(results), build(results),
    ]
    .compactMap { $0 }
  }

  /// The implementations run in other processes (`--executor`): their own time beside the round
  /// trip, what they reported of their build, and how their answers compare with the
  /// reference's on what they offer; `nil` when the run had none.
  static func external(_ results: BenchResults) -> ReportTable? {
    let outside = results.backends.compactMap { b in b.external.map { (b, $0) } }
    guard !outside.isEmpty else { return nil }
    let ns = { (v: Double) in Formatting.duration(nanoseconds: v) }
    return ReportTable(
      title: "External implementations",
      caption:
        "Run as commands speaking the executor protocol (docs/Executors.md). Own time: measured by the implementation around its search call; round trip: measured by citybench from writing the query to reading the answer. Build and memory are their own figures. Answers are compared with the reference's on what each offers (a set without ranking or ranges is compared as a set).",
      headers: [
        "implementation", "own p50", "own p99", "round trip p50", "round trip p99", "build", "memory",
        "same as reference", "status",
      ],
      rows: outside.map { b, e in
        let same =
          b.conformance.checked == 0
          ? "–"
          : String(
            format: "%.1f%% of %@",
            100 * Double(b.conformance.checked - b.conformance.divergences) / Double(b.conformance.checked),
            Formatting.count(b.conformance.checked))
        var status = e.failure.map { "failed: \($0)" } ?? "answered"
        if e.failedQueries > 0 { status += "; \(Formatting.count(e.failedQueries)) queries failed" }
        return [
          b.name, b.latency.map { ns($0.p50.value) } ?? "–", b.latency.map { ns($0.p99.value) } ?? "–",
          e.roundTrip.map { ns($0.p50.value) } ?? "–", e.roundTrip.map { ns($0.p99.value) } ?? "–",
          e.failure != nil && b.latency == nil ? "–" : Formatting.seconds(b.build.seconds),
          b.build.heapBytes.map(megabytes) ?? "–", same, status,
        ]
      })
  }

  /// Allocation calls per keystroke, for the backends the run counted; `nil` when it counted
  /// none.
  static func allocations(_ results: BenchResults) -> ReportTable? {
    counts(
      results.backends.compactMap { b in b.allocations.map { (b.name, $0) } }, title: "Allocation calls per keystroke",
      caption:
        "malloc and its kin, counted around each keystroke's answer in a process with deterministic hashing and serial builds: exact from run to run of one build.",
      meanDigits: 1)
  }

  /// Instructions per keystroke, for the backends the run counted; `nil` when it counted none.
  static func instructions(_ results: BenchResults) -> ReportTable? {
    let counted = results.backends.compactMap { b in b.instructions.map { (b.name, $0) } }
    guard let (_, first) = counted.first else { return nil }
    return counts(
      counted, title: "Instructions per keystroke",
      caption:
        "Counted under \(first.tool), which a busy machine does not move. The total is over every keystroke; the quantiles over one keystroke in \(first.stride), each counted alone.",
      meanDigits: 0)
  }

  /// A table of per-keystroke counts, one row per backend; `nil` when there are none.
  static func counts(
    _ counted: [(String, some KeystrokeCounts)], title: String, caption: String, meanDigits: Int
  ) -> ReportTable? {
    guard !counted.isEmpty else { return nil }
    return ReportTable(
      title: title, caption: caption, headers: ["backend", "p50", "p90", "p99", "max", "mean", "total"],
      rows: counted.map { name, s in
        [name] + [s.p50, s.p90, s.p99, s.max].map(Formatting.count) + [
          meanDigits == 0 ? Formatting.count(Int(s.mean.rounded())) : String(format: "%.\(meanDigits)f", s.mean),
          Formatting.count(s.total),
        ]
      })
  }

  /// Each backend's p50 and p99 as multiples of the floor's (``BenchResults/floor``); `nil`
  /// when the run did not measure it.
  static func againstFloor(_ results: BenchResults) -> ReportTable? {
    guard let floor = results.floor else { return nil }
    let ns = { (v: Double) in Formatting.duration(nanoseconds: v) }
    let times = { (v: Double, f: Double) in f > 0 ? Formatting.ratio(v / f) : "–" }
    var rows = [["floor", ns(floor.p50.value), ns(floor.p99.value), "1×", "1×"]]
    for b in results.backends {
      guard let l = b.latency else { continue }
      rows.append([
        b.name, ns(l.p50.value), ns(l.p99.value), times(l.p50.value, floor.p50.value),
        times(l.p99.value, floor.p99.value),
      ])
    }
    return ReportTable(
      title: "Against the floor",
      caption:
        "The floor is every keystroke's answer known in advance (the reference's), looked up and copied through the public API: the text normalized, its tokens looked up in a hash table, the hits copied into a new result. Timed from the second round on, in the shuffled order beside the backends; no search answering through a session can do less. Each backend's p50 and p99 as multiples of the floor's.",
      headers: ["backend", "p50", "p99", "p50 × floor", "p99 × floor"], rows: rows)
  }

  /// Each backend's latency in the bench beside its latency alone and warm
  /// (``BackendResults/aloneLatency``); `nil` when no backend has the second.
  static func alone(_ results: BenchResults) -> ReportTable? {
    let measured = results.backends.compactMap { b in b.latency.flatMap { l in b.aloneLatency.map { (b.name, l, $0) } }
    }
    guard !measured.isEmpty else { return nil }
    let ns = { (v: Double) in Formatting.duration(nanoseconds: v) }
    return ReportTable(
      title: "In the bench and alone",
      caption:
        "In the bench, the backends answer each keystroke in a shuffled order, the reference's scan among them, so each meets caches the others have filled: an app that renders or does other work between keystrokes sees this, and the headline and every other table use it. Alone: after the rounds, each backend replays the workload by itself, warm, twice (a keystroke's time the median of the two): what an app that does nothing else between keystrokes sees.",
      headers: [
        "backend", "p50 in the bench", "p99 in the bench", "p50 alone", "p99 alone", "p99 in the bench ÷ alone",
      ],
      rows: measured.map { name, bench, alone in
        [
          name, ns(bench.p50.value), ns(bench.p99.value), ns(alone.p50.value), ns(alone.p99.value),
          alone.p99.value > 0 ? Formatting.ratio(bench.p99.value / alone.p99.value) : "–",
        ]
      })
  }

  static func pairedRatios(_ results: BenchResults) -> ReportTable {
    var rows: [[String]] = []
    if let noise = results.noiseFloor { rows.append(["\(results.reference) (A/A)"] + ratioCells(noise)) }
    for b in results.backends { if let r = b.ratioToReference { rows.append([b.name] + ratioCells(r)) } }
    return ReportTable(
      title: "Paired ratio to \(results.reference)",
      caption:
        "Per keystroke, the backend's time over \(results.reference)'s on the same keystroke; quantiles of those ratios. "
        + "Below 1× is faster than the reference. The A/A row is \(results.reference) against itself: the noise floor.",
      headers: ["backend", "p50", "p90", "p99", "keystrokes"], rows: rows)
  }

  static func byLength(_ results: BenchResults) -> ReportTable {
    let lengths = results.measuredLengthGroups
    return ReportTable(
      title: "By query length (p50 / p99)", caption: "",
      headers: ["backend"] + lengths.map { "\($0) char" + ($0 == "1" ? "" : "s") },
      rows: results.backends.map { b in [b.name] + lengths.map { group(b.byLength, $0) } })
  }

  static func byStyle(_ results: BenchResults) -> ReportTable {
    let styles = results.metadata.workload.styles
    return ReportTable(
      title: "By input style (p50 / p99)", caption: "", headers: ["backend"] + styles,
      rows: results.backends.map { b in [b.name] + styles.map { group(b.byStyle, $0) } })
  }

  static func sessions(_ results: BenchResults) -> ReportTable {
    let ns = { (v: Double) in Formatting.duration(nanoseconds: v) }
    return ReportTable(
      title: "Time to final results per session",
      caption: "The sum of a session's keystroke latencies, from the first keystroke to the last.",
      headers: ["backend", "p50", "p90", "p99", "max"],
      rows: results.backends.map { b in
        guard let s = b.sessions else { return [b.name, "sampled", "", "", ""] }
        return [b.name] + [ReportedQuantile.p50, .p90, .p99, .max].map { Formatting.estimate(s[$0], ns) }
      })
  }

  static func build(_ results: BenchResults) -> ReportTable {
    ReportTable(
      title: buildTitle, caption: "",
      headers: ["backend", "build", "heap kept", "index (counted)", "notes"],
      rows: results.backends.map { b in
        [
          b.name, Formatting.seconds(b.build.seconds), b.build.heapBytes.map(megabytes) ?? "n/a",
          b.build.countedBytes > 0 ? megabytes(b.build.countedBytes) : "–",
          b.build.notes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "; "),
        ]
      })
  }

  static func ratioCells(_ r: RatioSummary) -> [String] {
    RatioSummary.quantiles.map { Formatting.estimate(r[$0]!, Formatting.ratio) } + [Formatting.count(r.count)]
  }

  static func group(_ groups: [GroupDistribution], _ label: String) -> String {
    guard let g = groups.first(where: { $0.group == label }) else { return "–" }
    return
      "\(Formatting.duration(nanoseconds: g.latency.p50.value)) / \(Formatting.duration(nanoseconds: g.latency.p99.value))"
  }

  /// The table as Markdown (cells escaped), with its heading and caption.
  func markdown() -> String {
    var out = "## \(title)\n\n"
    if !caption.isEmpty { out += caption + "\n\n" }
    return out + MarkdownReport.table(headers, rows)
  }

  /// An escaped cell with its interval (`1.06× [1.05×–1.08×]`) on a line of its own, as the
  /// latency table shows it, so that the columns stay narrow enough to show whole.
  /// A pair of figures (`1.2 µs / 45 µs`, the by-length and by-style tables) may break after
  /// its slash, each figure kept whole, so that a wide table of them still fits.
  static func htmlCell(_ escaped: String) -> String {
    if escaped.contains(" / ") {
      return escaped.components(separatedBy: " / ").map { "<span class=\"whole\">\($0)</span>" }
        .joined(separator: " / ")
    }
    guard escaped.hasSuffix("]"), let open = escaped.range(of: " [", options: .backwards) else { return escaped }
    let interval = escaped[open.upperBound..<escaped.index(before: escaped.endIndex)]
    return "\(escaped[..<open.lowerBound])<br/><span class=\"ci\">\(interval)</span>"
  }

  /// The table as HTML (cells escaped), with its heading and caption.
  func html(level: Int = 2) -> String {
    let e = XMLText.escape
    var out = "<h\(level)>\(e(title))</h\(level)>\n"
    if !caption.isEmpty { out += "<p>\(e(caption))</p>\n" }
    out += "<div class=\"scroll\"><table>\n<tr>" + headers.map { "<th>\(e($0))</th>" }.joined() + "</tr>\n"
    for row in rows {
      out += "<tr>" + zip(headers, row).map { HTMLReport.td($0, Self.htmlCell(e($1))) }.joined() + "</tr>\n"
    }
    return out + "</table></div>\n"
  }
}
