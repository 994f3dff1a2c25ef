import CitySearchBench
import Foundation

/// The trends of a history: per series of comparable runs, each backend's metrics across
/// commits and their change points (``changePoints(_:threshold:minimumSegment:)``).
public struct HistoryAnalysis: Sendable {
  /// One metric of one backend across a series' runs.
  public struct Trend: Sendable {
    /// The backend's name.
    public var backend: String
    /// The figure's name (``HistoryMetric/Figure/metric``).
    public var metric: String
    /// One value per run of the series (`nil` where the run did not measure it).
    public var values: [Double?]
    /// Indices into the runs that hold a value: ``changePoints`` index this list.
    public var measured: [Int]
    /// Change points, with `index` into the series' runs.
    public var changePoints: [ChangePoint]
    /// The relative change a change point must reach: the gate's threshold for this metric.
    public var threshold: Double

    /// The first measured value; with ``last``, the drift over the whole series.
    public var first: Double? { values.compactMap { $0 }.first }
    /// The last measured value.
    public var last: Double? { values.compactMap { $0 }.last }
  }

  /// Runs with equal settings on one kind of machine, oldest first.
  public struct Series: Sendable {
    /// The settings the runs share, in words (corpus, workload, mode, …).
    public var description: String
    /// The kind of machine the runs were made on, in words.
    public var machineDescription: String
    /// The runs, oldest first.
    public var runs: [HistoryStore.Run]
    /// Each backend's trend of each metric.
    public var trends: [Trend]
    /// The backends with at least one trend, in order.
    public var backends: [String]
  }

  /// The series, one per settings and kind of machine.
  public var series: [Series]
  /// The figures followed (``HistoryMetric/Figure/metric``).
  public var metrics: [String]

  /// Reads every run of `store` and finds the change points of `metrics` (the backends in
  /// `backends`, or all) under the gate's `thresholds`.
  public init(store: HistoryStore, metrics: [String], backends: Set<String>?, thresholds: GateThresholds) throws {
    let runs = try store.runs()
    let figures = try store.figures()
    self.metrics = metrics
    var order: [String] = []
    var grouped: [String: [HistoryStore.Run]] = [:]
    for run in runs {
      if grouped[run.series] == nil { order.append(run.series) }
      grouped[run.series, default: []].append(run)
    }
    series = order.map { key in
      let runs = grouped[key]!
      var names: [String] = []
      for run in runs {
        for figure in figures[run.id] ?? [] where !names.contains(figure.backend) {
          if backends?.contains(figure.backend) ?? true { names.append(figure.backend) }
        }
      }
      var trends: [Trend] = []
      for metric in metrics {
        for backend in names {
          let values = runs.map { run in
            figures[run.id]?.first { $0.backend == backend && $0.metric == metric }?.value
          }
          let measured = values.indices.filter { values[$0] != nil }
          guard !measured.isEmpty else { continue }
          let threshold = HistoryMetric.threshold(metric, backend: backend, gate: thresholds)
          let points = changePoints(
            measured.map { values[$0]! }, threshold: threshold, minimumSegment: HistoryMetric.minimumSegment(metric)
          ).map { point in
            var point = point
            point.index = measured[point.index]
            return point
          }
          trends.append(
            Trend(
              backend: backend, metric: metric, values: values, measured: measured, changePoints: points,
              threshold: threshold))
        }
      }
      return Series(
        description: runs[0].seriesDescription, machineDescription: runs[0].machineDescription, runs: runs,
        trends: trends, backends: names)
    }
  }

  /// A run's commit as a label: its first 7 characters, `*` when the tree was dirty.
  public static func label(_ run: HistoryStore.Run) -> String {
    let commit = run.gitCommit
    let dirty = commit.hasSuffix("-dirty")
    return String(commit.prefix(7)) + (dirty ? "*" : "")
  }

  /// One line per change point and per series' drift, for the terminal.
  public var text: String {
    var lines: [String] = []
    for s in series {
      lines.append("\(s.description): \(s.runs.count) runs, \(Self.label(s.runs.first!)) … \(Self.label(s.runs.last!))")
      var any = false
      for trend in s.trends {
        for point in trend.changePoints {
          any = true
          lines.append(
            "  change point: \(trend.backend) \(trend.metric) \(HistoryMetric.format(point.before, metric: trend.metric)) → "
              + "\(HistoryMetric.format(point.after, metric: trend.metric)) (\(String(format: "%.2f×", point.change))) "
              + "at \(Self.label(s.runs[point.index])), after \(Self.label(s.runs[point.index - 1 >= 0 ? point.index - 1 : 0]))"
          )
        }
      }
      if !any { lines.append("  no change points") }
    }
    return lines.joined(separator: "\n")
  }
}

/// `history.html`: a self-contained page (inline CSS and SVG, no scripts, well-formed XML)
/// with each series' trends across commits and their change points.
public enum HistoryReport {
  /// The whole `history.html` for `analysis`; `source` names the history file on the page.
  public static func html(_ analysis: HistoryAnalysis, source: String) -> String {
    let e = XMLText.escape
    var out = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8"/>
      <title>CitySearchBench history</title>
      <style>
      \(HTMLReport.styleSheet)
      </style>
      </head>
      <body>
      <h1>CitySearchBench history</h1>
      <p class="meta">\(e(source)): \(analysis.series.reduce(0) { $0 + $1.runs.count }) runs in \(analysis.series.count) series. Runs are compared only within a series (the same corpus, workload, settings and kind of machine). A dashed line and a ring mark a change point: the runs after it differ from the runs before it by more than the metric's threshold, with no overlap (two runs on each side at least for a wall-clock figure).</p>

      """
    for (number, s) in analysis.series.enumerated() {
      out += "<h2>Series \(number + 1): \(e(s.description))</h2>\n"
      out +=
        "<p class=\"meta\">\(s.runs.count) runs on \(e(s.machineDescription)), \(e(s.runs.first!.startedAt)) to \(e(s.runs.last!.startedAt)).</p>\n"
      out += changeTable(s)
      let labels = s.runs.map(HistoryAnalysis.label)
      for metric in analysis.metrics {
        // A trend is drawn relative to its first run: one that starts at zero (linear's
        // counted bytes, a count of divergences) has no such scale and stays in the tables.
        let trends = s.trends.filter { $0.metric == metric && ($0.first ?? 0) > 0 }
        guard !trends.isEmpty else { continue }
        let series = trends.map { trend in
          let base = trend.first!
          return SVGChart.TrendSeries(
            name: trend.backend, values: trend.values.map { $0.map { $0 / base } },
            tooltips: trend.values.indices.map { i in
              guard let v = trend.values[i] else { return "" }
              return
                "\(trend.backend) at \(labels[i]) (\(s.runs[i].startedAt)): \(HistoryMetric.format(v, metric: metric)), "
                + String(format: "%.3f× the first run", v / base)
            },
            marks: trend.changePoints.map { point in
              (
                point.index,
                "\(trend.backend) \(metric): change point at \(labels[point.index]), \(HistoryMetric.format(point.before, metric: metric)) → \(HistoryMetric.format(point.after, metric: metric)) (\(String(format: "%.2f×", point.change)))"
              )
            }, colorIndex: s.backends.firstIndex(of: trend.backend) ?? 0)
        }
        out += "<figure>\n"
        out += SVGChart.trend(
          title: "\(metric), relative to each backend's first run", axis: "commit (oldest first)", labels: labels,
          series: series)
        out += "</figure>\n"
      }
      out += latestTable(s, metrics: analysis.metrics)
    }
    return out + "</body>\n</html>\n"
  }

  private static func changeTable(_ s: HistoryAnalysis.Series) -> String {
    let e = XMLText.escape
    let rows = s.trends.flatMap { trend in trend.changePoints.map { (trend, $0) } }
    guard !rows.isEmpty else { return "<p>No change points in this series.</p>\n" }
    var out =
      "<div class=\"scroll\"><table>\n<tr><th>backend</th><th>metric</th><th>after</th><th>at</th><th>before</th><th>after</th><th>change</th><th>threshold</th></tr>\n"
    for (trend, point) in rows {
      let f = { (v: Double) in e(HistoryMetric.format(v, metric: trend.metric)) }
      let worse = point.change > 1
      out += "<tr><td>\(e(trend.backend))</td><td>\(e(trend.metric))</td>"
      out +=
        "<td>\(e(HistoryAnalysis.label(s.runs[max(point.index - 1, 0)])))</td><td>\(e(HistoryAnalysis.label(s.runs[point.index])))</td>"
      out += "<td>\(f(point.before))</td><td>\(f(point.after))</td>"
      out += "<td class=\"\(worse ? "bad" : "good")\">\(String(format: "%.2f×", point.change))</td>"
      out += "<td>±\(Gate.percent(trend.threshold))</td></tr>\n"
    }
    return out + "</table></div>\n"
  }

  private static func latestTable(_ s: HistoryAnalysis.Series, metrics: [String]) -> String {
    let e = XMLText.escape
    var out =
      "<h3>Latest run (\(e(HistoryAnalysis.label(s.runs.last!)))) against the first (\(e(HistoryAnalysis.label(s.runs.first!))))</h3>\n"
    out += "<div class=\"scroll\"><table>\n<tr><th>backend</th>"
    out += metrics.map { "<th>\(e($0))</th>" }.joined() + "</tr>\n"
    for backend in s.backends {
      out += "<tr><td>\(e(backend))</td>"
      for metric in metrics {
        guard let trend = s.trends.first(where: { $0.backend == backend && $0.metric == metric }),
          let first = trend.first, let last = trend.last
        else {
          out += "<td>–</td>"
          continue
        }
        out +=
          "<td>\(e(HistoryMetric.format(last, metric: metric))) (\(String(format: "%.2f×", first > 0 ? last / first : 1)))</td>"
      }
      out += "</tr>\n"
    }
    return out + "</table></div>\n"
  }
}
