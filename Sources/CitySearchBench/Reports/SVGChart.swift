import Foundation

/// Small SVG charts for `report.html`, drawn from numbers alone (no scripts, no fonts fetched).
package enum SVGChart {
  static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"]

  static func color(_ index: Int) -> String { palette[index % palette.count] }

  /// A base-10 logarithmic scale from `domain` onto `range` (pixels), widened to whole decades.
  struct LogScale {
    let low: Double
    let high: Double
    let range: (Double, Double)

    init(domain: (Double, Double), range: (Double, Double)) {
      low = pow(10, floor(log10(max(domain.0, 1))))
      high = max(pow(10, ceil(log10(max(domain.1, 1)))), low * 10)
      self.range = range
    }

    func callAsFunction(_ value: Double) -> Double {
      let t = (log10(max(value, low)) - log10(low)) / (log10(high) - log10(low))
      return range.0 + t * (range.1 - range.0)
    }

    var decades: [Double] {
      var ticks: [Double] = []
      var v = low
      while v <= high * 1.0001 {
        ticks.append(v)
        v *= 10
      }
      return ticks
    }
  }

  static func number(_ v: Double) -> String { String(format: "%.1f", v) }

  /// The grid of a log–log plot: a line and a label at every decade of each axis, x labels
  /// under the plot's bottom edge, y labels left of its left edge (``logLogTickLabels(x:y:xLabel:yLabel:)``).
  static func logLogGrid(
    x: LogScale, y: LogScale, xLabel: (Double) -> String, yLabel: (Double) -> String
  ) -> String {
    let (left, right, top, bottom) = (x.range.0, x.range.1, y.range.1, y.range.0)
    let labels = logLogTickLabels(x: x, y: y, xLabel: xLabel, yLabel: yLabel)
    var svg = ""
    for (value, label) in zip(x.decades, labels) {
      svg += line(x(value), top, x(value), bottom, grid: true)
      svg += text(label.x, label.baseline, label.text, anchor: label.anchor)
    }
    for (value, label) in zip(y.decades, labels.dropFirst(x.decades.count)) {
      svg += line(left, y(value), right, y(value), grid: true)
      svg += text(label.x, label.baseline, label.text, anchor: label.anchor)
    }
    return svg
  }

  /// A text of a chart: where it is anchored, its baseline, its content and its anchor
  /// (`start`, `middle` or `end`).
  struct TickLabel {
    var x: Double
    var baseline: Double
    var text: String
    var anchor: String
  }

  /// The tick labels ``logLogGrid(x:y:xLabel:yLabel:)`` writes, the x axis's first: a chart
  /// that places texts of its own keeps them clear of these.
  static func logLogTickLabels(
    x: LogScale, y: LogScale, xLabel: (Double) -> String, yLabel: (Double) -> String
  ) -> [TickLabel] {
    let (left, bottom) = (x.range.0, y.range.0)
    return x.decades.map { TickLabel(x: x($0), baseline: bottom + 18, text: xLabel($0), anchor: "middle") }
      + y.decades.map { TickLabel(x: left - 6, baseline: y($0) + 4, text: yLabel($0), anchor: "end") }
  }

  /// A tick on a log time axis, a power of ten: `100 ns`, `1 µs`, `10 ms`.
  static func tickLabel(_ nanoseconds: Double) -> String {
    for (scale, unit) in [(1e9, "s"), (1e6, "ms"), (1e3, "µs")] where nanoseconds >= scale {
      return String(format: "%g", nanoseconds / scale) + " " + unit
    }
    return String(format: "%g ns", nanoseconds)
  }

  /// The latency CDF of each backend, x on a log axis.
  static func cdf(_ series: [(name: String, curve: [CurvePoint])]) -> String {
    let (width, height) = (760.0, 380.0)
    // The right margin holds the legend: as wide as its longest name needs
    // (scripts/render-report.sh checks in a browser that every text fits).
    let right = max(150.0, 40 + legendCharacterWidth * Double(series.map(\.name.count).max() ?? 0))
    let (left, top, bottom) = (60.0, 20.0, 50.0)
    let values = series.flatMap { $0.curve.map(\.nanoseconds) }.filter { $0 > 0 }
    guard let lowest = values.min(), let highest = values.max() else { return "" }
    let x = LogScale(domain: (lowest, highest), range: (left, width - right))
    let y = { (f: Double) in top + (1 - f) * (height - top - bottom) }
    var svg = open(width: width, height: height, label: "Keystroke latency CDF per backend, logarithmic time axis")
    for tick in x.decades {
      svg += line(x(tick), top, x(tick), height - bottom, grid: true)
      svg += text(x(tick), height - bottom + 18, tickLabel(tick), anchor: "middle")
    }
    for f in [0.0, 0.25, 0.5, 0.75, 0.9, 1.0] {
      svg += line(left, y(f), width - right, y(f), grid: true)
      svg += text(left - 6, y(f) + 4, String(format: "%.0f%%", f * 100), anchor: "end")
    }
    svg += text((left + width - right) / 2, height - 8, "keystroke latency (log scale)", anchor: "middle")
    for (i, s) in series.enumerated() {
      var points: [String] = []
      var previous = 0.0
      for point in s.curve {
        points.append("\(number(x(point.nanoseconds))),\(number(y(previous)))")
        points.append("\(number(x(point.nanoseconds))),\(number(y(point.fraction)))")
        previous = point.fraction
      }
      svg +=
        "<polyline fill=\"none\" stroke=\"\(color(i))\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"><title>\(XMLText.escape(s.name))</title></polyline>\n"
      svg += legend(i, s.name, x: width - right + 12, y: top + 14 + Double(i) * 20)
    }
    return svg + "</svg>\n"
  }

  /// One line per backend across categories (query lengths), y on a log axis.
  ///
  /// A series far slower than all others (its median more than ``offScaleFactor`` times the
  /// next slowest series' median) is not drawn, so it cannot flatten the others against the
  /// axis; its legend entry gives its range instead. Legend entries sit under the plot.
  static func categoryLines(
    title: String, categories: [String], series: [(name: String, values: [Double?])]
  ) -> String {
    let median = { (values: [Double?]) -> Double in
      let known = values.compactMap { $0 }.sorted()
      return known.isEmpty ? 0 : known[known.count / 2]
    }
    let medians = series.map { median($0.values) }.sorted(by: >)
    let offScale = Set(
      series.indices.filter { i in
        medians.count > 1 && median(series[i].values) == medians[0] && medians[0] > offScaleFactor * medians[1]
      })
    let width = 370.0
    let columns = 2
    let onScale = series.indices.filter { !offScale.contains($0) }
    let legendRows = (onScale.count + columns - 1) / columns + offScale.count
    let plotHeight = 300.0
    let height = plotHeight + 8 + 18 * Double(legendRows)
    let (left, right, top, bottom) = (64.0, 10.0, 30.0, 46.0)
    let values = onScale.flatMap { series[$0].values.compactMap { $0 } }.filter { $0 > 0 }
    guard let lowest = values.min(), let highest = values.max(), !categories.isEmpty else { return "" }
    let y = LogScale(domain: (lowest, highest), range: (plotHeight - bottom, top))
    let step = (width - left - right) / Double(categories.count)
    let x = { (i: Int) in left + step * (Double(i) + 0.5) }
    var svg = open(width: width, height: height, label: title)
    svg += text(width / 2, 18, title, anchor: "middle", bold: true)
    for tick in y.decades {
      svg += line(left, y(tick), width - right, y(tick), grid: true)
      svg += text(left - 6, y(tick) + 4, tickLabel(tick), anchor: "end")
    }
    for (i, category) in categories.enumerated() {
      svg += text(x(i), plotHeight - bottom + 18, category, anchor: "middle")
    }
    svg += text((left + width - right) / 2, plotHeight - 8, "query length (characters)", anchor: "middle")
    for s in onScale {
      let entry = series[s]
      var points: [String] = []
      for (i, value) in entry.values.enumerated() {
        guard let value else { continue }
        points.append("\(number(x(i))),\(number(y(value)))")
        svg +=
          "<circle cx=\"\(number(x(i)))\" cy=\"\(number(y(value)))\" r=\"3\" fill=\"\(color(s))\"><title>\(XMLText.escape(entry.name)) \(XMLText.escape(categories[i])): \(Formatting.duration(nanoseconds: value))</title></circle>\n"
      }
      svg +=
        "<polyline fill=\"none\" stroke=\"\(color(s))\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>\n"
    }
    let legendTop = plotHeight + 20
    for (k, s) in onScale.enumerated() {
      let column = Double(k % columns) * (width - 20) / Double(columns)
      svg += legend(s, series[s].name, x: 14 + column, y: legendTop + 18 * Double(k / columns))
    }
    for (k, s) in offScale.sorted().enumerated() {
      let known = series[s].values.compactMap { $0 }
      let range =
        "\(Formatting.duration(nanoseconds: known.min() ?? 0))–\(Formatting.duration(nanoseconds: known.max() ?? 0))"
      let row = Double((onScale.count + columns - 1) / columns + k)
      svg += legend(s, "\(series[s].name): off scale, \(range)", x: 14, y: legendTop + 18 * row)
    }
    return svg + "</svg>\n"
  }

  /// How much slower than every other series a series must be to be left off a shared axis.
  static let offScaleFactor = 30.0

  /// Horizontal bars, one per backend, on a linear axis from zero.
  static func bars(title: String, bars: [(name: String, value: Double?, label: String)]) -> String {
    let rowHeight = 24.0
    let (width, left, right, top) = (370.0, 110.0, 80.0, 30.0)
    let height = top + rowHeight * Double(bars.count) + 10
    let highest = bars.compactMap(\.value).max() ?? 0
    var svg = open(width: width, height: height, label: title)
    svg += text(width / 2, 18, title, anchor: "middle", bold: true)
    for (i, bar) in bars.enumerated() {
      let y = top + rowHeight * Double(i)
      svg += text(left - 6, y + 16, bar.name, anchor: "end")
      let length = highest > 0 ? (bar.value ?? 0) / highest * (width - left - right) : 0
      svg +=
        "<rect x=\"\(number(left))\" y=\"\(number(y + 4))\" width=\"\(number(max(length, 1)))\" height=\"\(number(rowHeight - 8))\" fill=\"\(color(i))\"/>\n"
      svg += text(left + length + 6, y + 16, bar.label, anchor: "start")
    }
    return svg + "</svg>\n"
  }

  static func open(width: Double, height: Double, label: String) -> String {
    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(XMLText.escape(label))\">\n"
  }

  static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, grid: Bool) -> String {
    "<line x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\" stroke=\"\(grid ? "#ddd" : "#333")\"/>\n"
  }

  static func text(_ x: Double, _ y: Double, _ content: String, anchor: String, bold: Bool = false) -> String {
    "<text x=\"\(number(x))\" y=\"\(number(y))\" text-anchor=\"\(anchor)\"\(bold ? " font-weight=\"bold\"" : "")>\(XMLText.escape(content))</text>\n"
  }

  /// A generous width of one character of a legend at 12 px (system-ui is about 6.5 px wide
  /// for these names).
  static let legendCharacterWidth = 7.5

  static func legend(_ index: Int, _ name: String, x: Double, y: Double) -> String {
    "<rect x=\"\(number(x))\" y=\"\(number(y - 9))\" width=\"14\" height=\"4\" fill=\"\(color(index))\"/>\n"
      + text(x + 20, y - 3, name, anchor: "start")
  }
}
