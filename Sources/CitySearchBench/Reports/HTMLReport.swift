import Foundation

/// `report.html`: one self-contained page (inline CSS and SVG, no scripts) with the latency
/// CDF, p50 and p99 by query length, build time and memory, and the conformance table. The
/// markup is also well-formed XML, so a plain XML parser can check it.
public enum HTMLReport {
  /// The pages' shared CSS (report.html and the history page).
  package static let styleSheet = """
    body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1240px; padding: 0 1em; color: #222; }
    h1 { font-size: 1.6em; margin-bottom: 0.2em; }
    h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; }
    table { border-collapse: collapse; margin: 0.5em 0; }
    th, td { padding: 3px 10px; text-align: right; border-bottom: 1px solid #eee; white-space: nowrap; }
    td:has(.whole) { white-space: normal; }
    .whole { white-space: nowrap; }
    th:first-child, td:first-child { text-align: left; }
    th { background: #f4f4f4; }
    .ci { color: #888; font-size: 0.85em; }
    .meta { color: #555; }
    .bad { color: #b00; font-weight: bold; }
    .good { color: #070; }
    .warn { background: #fff3cd; padding: 0.5em 1em; border-left: 4px solid #e0a800; }
    svg text { font: 12px system-ui, sans-serif; fill: #333; }
    figure { margin: 1em 0; }
    .row { display: flex; flex-wrap: wrap; gap: 1em; }
    pre { background: #f7f7f7; padding: 0.6em; overflow-x: auto; }
    .scroll { overflow-x: auto; }
    .headline { font-size: 1.05em; background: #f3f7fb; border-left: 4px solid #4477aa; padding: 0.6em 0.6em 0.6em 2em; }
    svg { max-width: 100%; height: auto; }
    /* A phone: each table row becomes a card of "header: value" lines, so no column hides. */
    @media (max-width: 760px) {
      .scroll { overflow-x: visible; }
      table, tbody, tr, td { display: block; width: 100%; box-sizing: border-box; }
      tr:first-child { display: none; }
      tr { border-bottom: 2px solid #ddd; padding: 0.3em 0; }
      td { border: none; padding: 1px 4px; white-space: normal; }
      td:empty { display: none; }
      td::before { content: attr(data-label); float: left; color: #555; padding-right: 1em; }
      td:first-child { text-align: left; font-weight: bold; }
      td:first-child::before { content: none; }
    }
    """

  /// The whole page for `results`.
  public static func text(_ results: BenchResults) -> String {
    let m = results.metadata
    let e = XMLText.escape
    let ns = { (v: Double) in Formatting.duration(nanoseconds: v) }
    var out = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8"/>
      <title>CitySearchBench: \(e(m.corpus.name)), \(e(m.mode)) mode</title>
      <style>
      \(styleSheet)
      </style>
      </head>
      <body>
      <h1>CitySearchBench: \(e(m.corpus.name)), \(e(m.mode)) mode</h1>
      <ul class="headline">
      \(Headline.sentences(results).map { "<li>\(strong(e($0)))</li>" }.joined(separator: "\n"))
      </ul>
      <p class="meta">\(e(MarkdownReport.runDescription(results)).replacingOccurrences(of: "`", with: ""))</p>

      """

    out += "<h2>Keystroke latency</h2>\n"
    out +=
      "<p>Each keystroke's latency is the median of its rounds (\(m.rounds)); grey figures are 95% bootstrap intervals.</p>\n"
    out += "<div class=\"scroll\"><table>\n<tr><th>backend</th><th>mean</th>"
    out += ReportedQuantile.allCases.map { "<th>\($0.rawValue)</th>" }.joined()
    out += "<th>ratio to \(e(results.reference)) (p50)</th><th>timed keystrokes</th></tr>\n"
    for b in results.backends {
      out += "<tr><td>\(e(b.name))</td>" + td("mean", b.latency.map { ns($0.mean) } ?? "–")
      if let l = b.latency {
        // The maximum is one keystroke, not an estimate: no interval.
        out += ReportedQuantile.allCases.map { td($0.rawValue, $0 == .max ? ns(l[$0].value) : cell(l[$0], ns)) }
          .joined()
      } else {
        out += ReportedQuantile.allCases.map { td($0.rawValue, "–") }.joined()
      }
      let ratioLabel = "ratio to \(results.reference) (p50)"
      out += td(ratioLabel, b.ratioToReference.map { cell($0.p50, Formatting.ratio) } ?? "reference")
      out += td("timed keystrokes", e(MarkdownReport.timed(b))) + "</tr>\n"
    }
    if let noise = results.noiseFloor {
      out += "<tr><td>\(e(results.reference)) (A/A)</td>" + String(repeating: "<td></td>", count: 6)
      out +=
        td("ratio to \(results.reference) (p50)", cell(noise.p50, Formatting.ratio)) + "<td>noise floor</td></tr>\n"
    }
    out += "</table></div>\n"
    let curves = results.backends.map { (name: $0.name + ($0.sampling.stride > 1 ? " (sample)" : ""), curve: $0.curve) }
    out += "<figure>\n" + SVGChart.cdf(curves)
    out +=
      "<figcaption>Share of keystrokes answered within a given time (empirical CDF, log time axis).</figcaption></figure>\n"

    // Every table of the sections, in their order; the by-length and build tables come after
    // their charts. (The optional tables — executors, instructions, allocations — shift the
    // positions, so a table is placed by what it is, not where it falls.)
    for table in ReportTable.sections(results) {
      if table.title.hasPrefix("By query length") {
        out += "<h2>By query length</h2>\n<div class=\"row\">\n"
        let lengths = results.measuredLengthGroups
        for quantile in [ReportedQuantile.p50, .p99] {
          let series = results.backends.map { b in
            (
              name: b.name,
              values: lengths.map { label in b.byLength.first { $0.group == label }?.latency[quantile].value }
            )
          }
          out += SVGChart.categoryLines(
            title: "\(quantile.rawValue) by query length", categories: lengths, series: series)
        }
        out += "</div>\n" + table.html(level: 3)
      } else if table.title == ReportTable.buildTitle {
        out += "<h2>Build time and memory</h2>\n" + buildCharts(results) + table.html(level: 3)
      } else {
        out += table.html()
      }
    }

    if let relevance = results.relevance {
      out += "<h2>Relevance of the reference's ranking</h2>\n"
      out += "<p>Keystrokes until the place meant is first, every place typed in every style.</p>\n"
      out += "<table>\n<tr><th>measure</th><th>value</th></tr>\n"
      for (measure, value) in relevance.rows { out += "<tr><td>\(e(measure))</td>\(td("value", e(value)))</tr>\n" }
      out += "</table>\n"
    }

    out += "<h2>Conformance on the timed keystrokes</h2>\n"
    out += "<table>\n<tr><th>backend</th><th>answers checked</th><th>divergences</th><th>status</th></tr>\n"
    for b in results.backends.dropFirst() {
      let ok = b.conformance.divergences == 0
      out += "<tr><td>\(e(b.name))</td>" + td("answers checked", Formatting.count(b.conformance.checked))
      out += td("divergences", Formatting.count(b.conformance.divergences))
      out += "<td data-label=\"status\" class=\"\(ok ? "good" : "bad")\">\(ok ? "conforms" : "diverges")</td></tr>\n"
    }
    out += "</table>\n"
    for b in results.backends {
      guard let first = b.conformance.first else { continue }
      out += "<p>\(e(b.name)) first diverged at <code>\(e(first.text))</code>: \(e(first.difference))</p>\n"
      out += "<pre>\(e(first.sideBySide))</pre>\n"
    }
    let notes = MarkdownReport.samplingNotes(results)
    if !notes.isEmpty {
      out += "<h2>Sampling</h2>\n<ul>\n" + notes.map { "<li>\(e($0))</li>\n" }.joined() + "</ul>\n"
    }
    return out + "</body>\n</html>\n"
  }

  /// The build charts: the latency–memory trade-off and the build time and heap bars.
  static func buildCharts(_ results: BenchResults) -> String {
    var out = ""
    let heapKnown = results.backends.allSatisfy { $0.build.heapBytes != nil }
    let tradeOff = results.backends.compactMap { b in
      b.latency.map {
        SVGChart.TradeOffPoint(
          name: b.name, bytes: Double(heapKnown ? b.build.heapBytes! : b.build.countedBytes), p99: $0.p99.value,
          buildSeconds: b.build.seconds)
      }
    }
    let memoryLabel = heapKnown ? "heap kept after build" : "bytes the index counts"
    out += "<figure>\n" + SVGChart.tradeOff(tradeOff, memoryLabel: memoryLabel)
    out +=
      "<figcaption>The trade-off: latency at p99 against \(memoryLabel), both on log axes; a larger point took longer to build. Lower left is better.</figcaption></figure>\n"
    out += "<div class=\"row\">\n"
    out += SVGChart.bars(
      title: "index build time",
      bars: results.backends.map {
        (name: $0.name, value: $0.build.seconds, label: Formatting.seconds($0.build.seconds))
      })
    out += SVGChart.bars(
      title: "heap kept after build",
      bars: results.backends.map {
        (name: $0.name, value: $0.build.heapBytes.map(Double.init), label: $0.build.heapBytes.map(megabytes) ?? "n/a")
      })
    out += "</div>\n"
    return out
  }

  /// A cell with its column's header as `data-label`, which a phone-width page shows beside the
  /// value when the table's rows stack; `html` is already escaped.
  static func td(_ label: String, _ html: String) -> String {
    "<td data-label=\"\(XMLText.escape(label))\">\(html)</td>"
  }

  /// Markdown's `**bold**` and `` `code` `` (in already escaped text) as HTML.
  static func strong(_ text: String) -> String {
    func tag(_ text: String, _ mark: String, _ name: String) -> String {
      text.components(separatedBy: mark).enumerated().map {
        $0.offset % 2 == 1 ? "<\(name)>\($0.element)</\(name)>" : $0.element
      }.joined()
    }
    return tag(tag(text, "**", "strong"), "`", "code")
  }

  static func cell(_ estimate: Estimate, _ format: (Double) -> String) -> String {
    "\(format(estimate.value))<br/><span class=\"ci\">\(format(estimate.lower))–\(format(estimate.upper))</span>"
  }
}
