import Foundation

extension SVGChart {
  /// One series of a trend chart: a value per run (`nil` where the run lacks it) and the text
  /// each point shows when pointed at.
  package struct TrendSeries {
    package var name: String
    package var values: [Double?]
    package var tooltips: [String]
    /// Indices of the runs after which the series changed level, with their explanations.
    package var marks: [(index: Int, text: String)]
    /// Its place in ``palette``, the same in every chart of a page.
    package var colorIndex: Int

    package init(
      name: String, values: [Double?], tooltips: [String], marks: [(index: Int, text: String)], colorIndex: Int
    ) {
      self.colorIndex = colorIndex
      self.name = name
      self.values = values
      self.tooltips = tooltips
      self.marks = marks
    }
  }

  /// Values across runs, one line per series on a linear axis, each marked change point a
  /// dashed line before its run and a ring around it. `labels` name the runs (short commits).
  package static func trend(title: String, axis: String, labels: [String], series: [TrendSeries]) -> String {
    let (width, height) = (760.0, 340.0)
    let right = max(150.0, 40 + legendCharacterWidth * Double(series.map { $0.name.count }.max() ?? 0))
    let (left, top, bottom) = (64.0, 30.0, 56.0)
    let values = series.flatMap { $0.values.compactMap { $0 } }
    guard let lowest = values.min(), let highest = values.max(), !labels.isEmpty else { return "" }
    let ticks = niceTicks(lowest, highest)
    let (low, high) = (ticks.first!, ticks.last!)
    let y = { (v: Double) in top + (1 - (v - low) / (high - low)) * (height - top - bottom) }
    let step = (width - left - right) / Double(max(labels.count - 1, 1))
    let x = { (i: Int) in labels.count == 1 ? (left + width - right) / 2 : left + step * Double(i) }
    var svg = open(width: width, height: height, label: title)
    svg += text((left + width - right) / 2, 18, title, anchor: "middle", bold: true)
    for tick in ticks {
      svg += line(left, y(tick), width - right, y(tick), grid: true)
      svg += text(left - 6, y(tick) + 4, String(format: "%g", tick), anchor: "end")
    }
    let every = max(1, Int((Double(labels.count) / 12).rounded(.up)))
    for (i, label) in labels.enumerated() where i % every == 0 || i == labels.count - 1 {
      svg += text(x(i), height - bottom + 18, label, anchor: "middle")
    }
    svg += text((left + width - right) / 2, height - 12, axis, anchor: "middle")
    for (row, entry) in series.enumerated() {
      let s = entry.colorIndex
      var points: [String] = []
      for (i, value) in entry.values.enumerated() {
        guard let value else { continue }
        points.append("\(number(x(i))),\(number(y(value)))")
        svg +=
          "<circle cx=\"\(number(x(i)))\" cy=\"\(number(y(value)))\" r=\"3\" fill=\"\(color(s))\"><title>\(XMLText.escape(entry.tooltips[i]))</title></circle>\n"
      }
      svg +=
        "<polyline fill=\"none\" stroke=\"\(color(s))\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>\n"
      for mark in entry.marks {
        guard let value = entry.values[mark.index] else { continue }
        let at = mark.index > 0 ? (x(mark.index - 1) + x(mark.index)) / 2 : x(mark.index)
        svg +=
          "<line x1=\"\(number(at))\" y1=\"\(number(top))\" x2=\"\(number(at))\" y2=\"\(number(height - bottom))\" stroke=\"\(color(s))\" stroke-dasharray=\"4 3\"><title>\(XMLText.escape(mark.text))</title></line>\n"
        svg +=
          "<circle cx=\"\(number(x(mark.index)))\" cy=\"\(number(y(value)))\" r=\"7\" fill=\"none\" stroke=\"\(color(s))\" stroke-width=\"2\"><title>\(XMLText.escape(mark.text))</title></circle>\n"
      }
      svg += legend(s, entry.name, x: width - right + 12, y: top + 14 + Double(row) * 20)
    }
    return svg + "</svg>\n"
  }

  /// Round tick values covering `low...high` (at least two), 1-2-5 steps.
  static func niceTicks(_ low: Double, _ high: Double) -> [Double] {
    var (low, high) = (low, high)
    if high - low < 1e-9 * max(abs(high), 1) {
      let pad = max(abs(high) * 0.05, 1e-6)
      (low, high) = (low - pad, high + pad)
    }
    let raw = (high - low) / 5
    let magnitude = pow(10, floor(log10(raw)))
    let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
    let first = floor(low / step) * step
    var ticks: [Double] = []
    var v = first
    while v < high + step * 0.999 {
      ticks.append((v / step).rounded() * step)
      v += step
    }
    return ticks.count >= 2 ? ticks : [first, first + step]
  }
}
