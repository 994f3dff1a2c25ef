import Foundation

/// The reports of a multi-tier bench (`citybench bench --corpus cities,towns,villages`):
/// `report.md` and `report.html` open with the finding in words, then give the cost-growth
/// table and charts; each tier's own reports sit beside them as `TIER.report.html` and so on
/// (``ReportFormat/fileName(tier:)``).
public enum GrowthReport {
  /// The finding in words: the fastest conforming backend on the largest tier and how its
  /// costs grew, the fastest on each other tier, and conformance over all tiers.
  public static func sentences(_ growth: CostGrowth, runs: [BenchResults]) -> [String] {
    let sorted = runs.sorted { $0.metadata.corpus.places < $1.metadata.corpus.places }
    var out: [String] = []
    guard let largest = sorted.last else { return out }
    let names = growth.tiers.map(\.name).joined(separator: " → ")
    if let best = Headline.fastestConforming(largest), let latency = best.latency {
      var sentence =
        "On the largest tier, \(largest.metadata.corpus.name) (\(Formatting.count(largest.metadata.corpus.places)) places), the fastest conforming backend is **\(best.name)**: p50 \(Formatting.duration(nanoseconds: latency.p50.value)), p99 \(Formatting.duration(nanoseconds: latency.p99.value)), built in \(Formatting.seconds(best.build.seconds))"
      if let series = growth.series.first(where: { $0.backend == best.name }) {
        let grown = CostGrowth.Metric.allCases.compactMap { metric in
          series.exponent(metric).map { "\(metric.rawValue) " + String(format: "N^%.2f", $0) }
        }
        if !grown.isEmpty { sentence += "; from \(names) its costs grew as " + grown.joined(separator: ", ") }
      }
      out.append(sentence + ".")
    } else {
      out.append("On \(largest.metadata.corpus.name), no backend other than the reference both conforms and was timed.")
    }
    for run in sorted.dropLast() {
      guard let best = Headline.fastestConforming(run), let latency = best.latency else { continue }
      out.append(
        "On \(run.metadata.corpus.name): \(best.name), p50 \(Formatting.duration(nanoseconds: latency.p50.value)), p99 \(Formatting.duration(nanoseconds: latency.p99.value))."
      )
    }
    let diverging = sorted.flatMap { run in
      run.backends.filter { $0.conformance.divergences > 0 }.map {
        "\($0.name) on \(run.metadata.corpus.name) (\(Formatting.count($0.conformance.divergences)) answers)"
      }
    }
    out.append(
      diverging.isEmpty
        ? "Conformance: every timed answer on every tier matches the reference's."
        : "**Divergences:** " + diverging.joined(separator: "; ") + "; see that tier's report.")
    let sampled = sorted.flatMap { run in
      run.backends.filter { $0.sampling.stride > 1 }.map {
        "\($0.name) on \(run.metadata.corpus.name), 1 keystroke in \($0.sampling.stride)"
      }
    }
    if !sampled.isEmpty { out.append("Sampled within the budget: " + sampled.joined(separator: ", ") + ".") }
    if largest.metadata.buildConfiguration != "release" {
      out.append("**Debug build**: these numbers say little about an app.")
    }
    return out
  }

  /// The exponents, one row per backend.
  static func exponentTable(_ growth: CostGrowth) -> ReportTable {
    ReportTable(
      title: "Growth exponents",
      caption:
        "The slope of each cost against the number of places on log–log axes, fitted over the tiers (least squares): 1 grows in proportion to the corpus, 0 not at all.",
      headers: ["backend"] + CostGrowth.Metric.allCases.map(\.title),
      rows: growth.series.map { s in
        [s.backend] + CostGrowth.Metric.allCases.map { s.exponent($0).map { String(format: "%.2f", $0) } ?? "–" }
      })
  }

  /// Every backend's costs on every tier.
  static func costTable(_ growth: CostGrowth) -> ReportTable {
    ReportTable(
      title: "Costs per tier", caption: "",
      headers: ["backend", "tier", "places", "p50", "p99", "build", "heap kept", "answers"],
      rows: growth.series.flatMap { s in
        s.points.map { p in
          [
            s.backend, p.tier, Formatting.count(p.places),
            p.p50Nanoseconds.map { Formatting.duration(nanoseconds: $0) } ?? "–",
            p.p99Nanoseconds.map { Formatting.duration(nanoseconds: $0) } ?? "–", Formatting.seconds(p.buildSeconds),
            p.heapBytes.map(megabytes) ?? "n/a", p.conforms ? "match" : "DIFFER",
          ]
        }
      })
  }

  /// `report.md`.
  public static func markdown(_ growth: CostGrowth, runs: [BenchResults]) -> String {
    var out =
      "# CitySearchBench: cost growth over \(growth.tiers.map(\.name).joined(separator: ", ")), \(growth.mode) mode\n\n"
    out += sentences(growth, runs: runs).map { "- \($0)\n" }.joined() + "\n"
    out += "Each tier's own report: "
    out +=
      growth.tiers.map { "[\($0.name)](\(ReportFormat.md.fileName(tier: $0.name)))" }.joined(separator: ", ") + ".\n\n"
    for table in [exponentTable(growth), costTable(growth)] { out += table.markdown() + "\n" }
    return out
  }

  /// `report.html`: the sentences, the four growth charts, the tables, links to each tier's page.
  public static func html(_ growth: CostGrowth, runs: [BenchResults]) -> String {
    let e = XMLText.escape
    let title =
      "CitySearchBench: cost growth over \(growth.tiers.map(\.name).joined(separator: ", ")), \(growth.mode) mode"
    var out = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8"/>
      <title>\(e(title))</title>
      <style>
      \(HTMLReport.styleSheet)
      </style>
      </head>
      <body>
      <h1>\(e(title))</h1>
      <ul class="headline">
      \(sentences(growth, runs: runs).map { "<li>\(HTMLReport.strong(e($0)))</li>" }.joined(separator: "\n"))
      </ul>
      <p class="meta">Each tier's own report: \(growth.tiers.map { "<a href=\"\(e(ReportFormat.html.fileName(tier: $0.name)))\">\(e($0.name))</a>" }.joined(separator: ", ")).</p>
      <h2>How each cost grows with the corpus</h2>
      <div class="row">

      """
    for metric in CostGrowth.Metric.allCases {
      var series: [SVGChart.GrowthSeries] = []
      for (index, s) in growth.series.enumerated() {
        let points: [(places: Double, value: Double)] = s.points.map { p in
          (places: Double(p.places), value: chartValue(p, metric) ?? 0)
        }
        let tooltips = s.points.map { p in "\(s.backend) on \(p.tier): \(describe(p, metric))" }
        series.append(
          SVGChart.GrowthSeries(
            name: s.backend, points: points, tooltips: tooltips, exponent: s.exponent(metric), colorIndex: index))
      }
      let isBytes = metric == .heap
      out += SVGChart.growth(
        title: metric.title, tick: { isBytes ? SVGChart.bytesTick($0) : SVGChart.tickLabel($0) }, series: series)
    }
    out += "</div>\n"
    out += "<p>Log–log axes; a straight line of slope k is a cost that grows as N^k (the legend gives k).</p>\n"
    out += exponentTable(growth).html() + costTable(growth).html()
    return out + "</body>\n</html>\n"
  }

  /// A point's value on its chart: latencies and build times in nanoseconds (one time axis), bytes.
  static func chartValue(_ point: CostGrowth.Point, _ metric: CostGrowth.Metric) -> Double? {
    metric == .build ? point.buildSeconds * 1e9 : point.value(metric)
  }

  static func describe(_ point: CostGrowth.Point, _ metric: CostGrowth.Metric) -> String {
    switch metric {
    case .p50, .p99: point.value(metric).map { Formatting.duration(nanoseconds: $0) } ?? "–"
    case .build: Formatting.seconds(point.buildSeconds)
    case .heap: point.heapBytes.map(megabytes) ?? "n/a"
    }
  }
}
