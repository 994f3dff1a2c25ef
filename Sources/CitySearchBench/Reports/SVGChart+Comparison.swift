import Foundation

extension SVGChart {
  /// The changes of a comparison as a forest plot: one row per backend and figure, the change
  /// B ÷ A as a dot with its 95% interval as a whisker, on a log axis centred on 1 (no change);
  /// a change beyond its interval is drawn in red (higher) or green (lower), the others grey.
  static func changes(_ rows: [RunComparison.Row], title: String) -> String {
    let shown = rows.filter {
      $0.method != .exact && $0.change.value.isFinite && $0.change.lower > 0 && $0.change.upper.isFinite
    }
    let rowHeight = 20.0
    let (width, left, right, top) = (720.0, 230.0, 30.0, 48.0)
    let height = top + rowHeight * Double(max(shown.count, 1)) + 34
    let reach = shown.reduce(log10(1.25)) { max($0, abs(log10($1.change.lower)), abs(log10($1.change.upper))) }
    let centre = left + (width - left - right) / 2
    let half = (width - left - right) / 2
    func x(_ ratio: Double) -> Double { centre + log10(ratio) / reach * half }
    var svg = open(width: width, height: height, label: title)
    svg += text(width / 2, 18, title, anchor: "middle", bold: true)
    let bottom = top + rowHeight * Double(max(shown.count, 1))
    for tick in [-reach, -reach / 2, 0, reach / 2, reach] {
      let ratio = pow(10, tick)
      svg += line(x(ratio), top - 6, x(ratio), bottom, grid: tick != 0)
      svg += text(x(ratio), bottom + 16, String(format: ratio < 10 ? "%.2f×" : "%.0f×", ratio), anchor: "middle")
    }
    svg += text(x(pow(10, -reach)), 38, "B lower", anchor: "start")
    svg += text(x(pow(10, reach)), 38, "B higher", anchor: "end")
    if shown.isEmpty { svg += text(centre, top + 14, "no figure with an interval", anchor: "middle") }
    for (i, row) in shown.enumerated() {
      let y = top + rowHeight * Double(i) + rowHeight / 2
      let colour = row.finding == .higher ? "#d62728" : row.finding == .lower ? "#2ca02c" : "#777"
      svg += text(left - 8, y + 4, "\(row.backend) \(row.metric)", anchor: "end")
      svg +=
        "<line x1=\"\(number(x(row.change.lower)))\" y1=\"\(number(y))\" x2=\"\(number(x(row.change.upper)))\" y2=\"\(number(y))\" stroke=\"\(colour)\" stroke-width=\"2\"/>\n"
      svg +=
        "<circle cx=\"\(number(x(row.change.value)))\" cy=\"\(number(y))\" r=\"4\" fill=\"\(colour)\"/>\n"
    }
    return svg + "</svg>\n"
  }
}
