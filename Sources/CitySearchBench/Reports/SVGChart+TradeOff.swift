import Foundation

extension SVGChart {
  /// One backend on the trade-off chart.
  struct TradeOffPoint {
    var name: String
    /// Bytes kept after the build (x).
    var bytes: Double
    /// p99 per keystroke, nanoseconds (y).
    var p99: Double
    var buildSeconds: Double
  }

  /// The trade-off a design review weighs: each backend's p99 per keystroke against the memory
  /// its index keeps, both on log axes, the point's area growing with the build time and its
  /// label giving the build time. Lower left is better on both counts.
  static func tradeOff(_ points: [TradeOffPoint], memoryLabel: String) -> String {
    let (width, height) = (760.0, 380.0)
    let (left, right, top, bottom) = (70.0, 30.0, 30.0, 50.0)
    let shown = points.filter { $0.bytes > 0 && $0.p99 > 0 }
    guard let lowX = shown.map(\.bytes).min(), let highX = shown.map(\.bytes).max(),
      let lowY = shown.map(\.p99).min(), let highY = shown.map(\.p99).max()
    else { return "" }
    let x = LogScale(domain: (lowX, highX), range: (left, width - right))
    let y = LogScale(domain: (lowY, highY), range: (height - bottom, top))
    let title = "p99 per keystroke against \(memoryLabel) (area: build time)"
    var svg = open(width: width, height: height, label: title)
    svg += text(width / 2, 18, title, anchor: "middle", bold: true)
    svg += logLogGrid(x: x, y: y, xLabel: bytesTick, yLabel: tickLabel)
    svg += text((left + width - right) / 2, height - 12, "\(memoryLabel) (log scale)", anchor: "middle")
    let slowest = max(shown.map(\.buildSeconds).max() ?? 1, 1e-9)
    // The axes' tick labels are placed first: a point's label clears them as it clears the
    // other points' labels.
    var placed = logLogTickLabels(x: x, y: y, xLabel: bytesTick, yLabel: tickLabel).map {
      LabelBox($0.text, x: $0.x, baseline: $0.baseline, anchor: $0.anchor)
    }
    for (i, point) in points.enumerated() where point.bytes > 0 && point.p99 > 0 {
      let (cx, cy) = (x(point.bytes), y(point.p99))
      let radius = 4 + 14 * (point.buildSeconds / slowest).squareRoot()
      let label =
        "\(point.name): \(Formatting.duration(nanoseconds: point.p99)), built in \(Formatting.seconds(point.buildSeconds))"
      svg +=
        "<circle cx=\"\(number(cx))\" cy=\"\(number(cy))\" r=\"\(number(radius))\" fill=\"\(color(i))\" fill-opacity=\"0.55\" stroke=\"\(color(i))\"><title>\(XMLText.escape(label))</title></circle>\n"
      // The label on the side with room (right of the point in the left half, left of it
      // otherwise), moved down or up a line at a time until it clears the labels placed before.
      let caption = "\(point.name) (\(Formatting.seconds(point.buildSeconds)))"
      let onRight = cx < (left + width - right) / 2
      let box = LabelBox.place(
        caption, x: cx + (onRight ? radius + 4 : -radius - 4), baseline: cy + 4, onRight: onRight, avoiding: placed,
        within: (top: top, bottom: height - bottom))
      placed.append(box)
      svg += text(box.anchorX, box.baseline, caption, anchor: onRight ? "start" : "end")
    }
    return svg + "</svg>\n"
  }

  /// Where a chart label goes: its box estimated from its length (12 px type: at most 7.2 px a
  /// character, 15 px a line), so that labels of nearby points do not overlap.
  struct LabelBox {
    var anchorX: Double
    var baseline: Double
    var minX: Double
    var maxX: Double
    var minY: Double { baseline - 12 }
    var maxY: Double { baseline + 3 }

    /// The box of `text` written at `x` on `baseline` with `anchor` (`start`, `middle` or `end`).
    init(_ text: String, x: Double, baseline: Double, anchor: String) {
      let width = Double(text.count) * 7.2
      let minX = anchor == "start" ? x : anchor == "middle" ? x - width / 2 : x - width
      self.init(anchorX: x, baseline: baseline, minX: minX, maxX: minX + width)
    }

    init(anchorX: Double, baseline: Double, minX: Double, maxX: Double) {
      (self.anchorX, self.baseline, self.minX, self.maxX) = (anchorX, baseline, minX, maxX)
    }

    func overlaps(_ other: LabelBox) -> Bool {
      minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    /// The first of the baselines `baseline`, then a line below, a line above, two below, …
    /// whose box clears every box of `placed` and stays within the plot's height.
    static func place(
      _ text: String, x: Double, baseline: Double, onRight: Bool, avoiding placed: [LabelBox],
      within bounds: (top: Double, bottom: Double)
    ) -> LabelBox {
      func box(_ y: Double) -> LabelBox { LabelBox(text, x: x, baseline: y, anchor: onRight ? "start" : "end") }
      for step in 0..<12 {
        let offset = Double((step + 1) / 2) * 15 * (step % 2 == 1 ? 1 : -1)
        let candidate = box(baseline + offset)
        guard candidate.minY >= bounds.top, candidate.maxY <= bounds.bottom + 12 else { continue }
        if !placed.contains(where: candidate.overlaps) { return candidate }
      }
      return box(baseline)
    }
  }

  /// A tick on a log bytes axis, a power of ten in decimal units: `100 kB`, `1 MB`.
  static func bytesTick(_ bytes: Double) -> String {
    for (scale, unit) in [(1e9, "GB"), (1e6, "MB"), (1e3, "kB")] where bytes >= scale {
      return String(format: "%g", bytes / scale) + " " + unit
    }
    return String(format: "%g B", bytes)
  }
}
