import Foundation

extension SVGChart {
  /// One backend on a cost-growth chart.
  struct GrowthSeries {
    var name: String
    /// (places, cost) per tier, smallest tier first.
    var points: [(places: Double, value: Double)]
    var tooltips: [String]
    var exponent: Double?
    /// Its place in ``palette``, the same in every chart of a page.
    var colorIndex: Int
  }

  /// A cost against the number of places, both on log axes, one line per backend; the legend
  /// under the plot gives each backend's fitted exponent. `tick` writes a value of the y axis.
  static func growth(title: String, tick: (Double) -> String, series: [GrowthSeries]) -> String {
    // One legend row per backend: "inverted-index (N^0.42)" does not fit half the width.
    let columns = 1
    let width = 370.0
    let plotHeight = 300.0
    let height = plotHeight + 8 + 18 * Double((series.count + columns - 1) / columns)
    // The right margin holds half of the last decade's label ("100k").
    let (left, right, top, bottom) = (64.0, 24.0, 30.0, 46.0)
    let xs = series.flatMap { $0.points.map(\.places) }.filter { $0 > 0 }
    let ys = series.flatMap { $0.points.map(\.value) }.filter { $0 > 0 }
    guard let lowX = xs.min(), let highX = xs.max(), let lowY = ys.min(), let highY = ys.max() else { return "" }
    let x = LogScale(domain: (lowX, highX), range: (left, width - right))
    let y = LogScale(domain: (lowY, highY), range: (plotHeight - bottom, top))
    var svg = open(width: width, height: height, label: "\(title) against places, log–log")
    svg += text(width / 2, 18, title, anchor: "middle", bold: true)
    svg += logLogGrid(x: x, y: y, xLabel: countTick, yLabel: tick)
    svg += text((left + width - right) / 2, plotHeight - 8, "places (log scale)", anchor: "middle")
    for entry in series {
      let shown = entry.points.indices.filter { entry.points[$0].places > 0 && entry.points[$0].value > 0 }
      let c = color(entry.colorIndex)
      for i in shown {
        let (px, py) = (x(entry.points[i].places), y(entry.points[i].value))
        svg +=
          "<circle cx=\"\(number(px))\" cy=\"\(number(py))\" r=\"3\" fill=\"\(c)\"><title>\(XMLText.escape(entry.tooltips[i]))</title></circle>\n"
      }
      let points = shown.map { "\(number(x(entry.points[$0].places))),\(number(y(entry.points[$0].value)))" }
      svg +=
        "<polyline fill=\"none\" stroke=\"\(c)\" stroke-width=\"1.5\" points=\"\(points.joined(separator: " "))\"/>\n"
    }
    for (k, entry) in series.enumerated() {
      let column = Double(k % columns) * (width - 20) / Double(columns)
      let label = entry.name + (entry.exponent.map { String(format: " (N^%.2f)", $0) } ?? "")
      svg += legend(entry.colorIndex, label, x: 14 + column, y: plotHeight + 20 + 18 * Double(k / columns))
    }
    return svg + "</svg>\n"
  }

  /// A tick on a log count axis, a power of ten: `1k`, `100k`, `1M`.
  static func countTick(_ count: Double) -> String {
    for (scale, unit) in [(1e9, "G"), (1e6, "M"), (1e3, "k")] where count >= scale {
      return String(format: "%g", count / scale) + unit
    }
    return String(format: "%g", count)
  }
}
