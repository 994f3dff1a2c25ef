import CitySearch

/// The first difference between a backend's result and the reference's: the total, or the
/// first position (1-based) where the ordered hits differ.
public struct ResultDifference: Sendable, Hashable, CustomStringConvertible {
  /// The reference's result.
  public let expected: SearchResult
  /// The backend's result.
  public let actual: SearchResult
  /// The first differing position among the hits, or `nil` when only the totals differ.
  public let position: Int?

  /// Compares two results; `nil` when they agree on total, order, ranges and classes.
  public init?(expected: SearchResult, actual: SearchResult) {
    let firstHit = zip(expected.hits, actual.hits).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    let position =
      firstHit ?? (expected.hits.count != actual.hits.count ? min(expected.hits.count, actual.hits.count) : nil)
    guard position != nil || expected.total != actual.total else { return nil }
    self.expected = expected
    self.actual = actual
    self.position = position.map { $0 + 1 }
  }

  /// One line: `total 8, expected 9; position 3: got #110105 [0,2) class 1, expected …`.
  public var description: String {
    var parts: [String] = []
    if expected.total != actual.total { parts.append("total \(actual.total), expected \(expected.total)") }
    if let position {
      let got = actual.hits.indices.contains(position - 1) ? Self.describe(actual.hits[position - 1]) : "nothing"
      let want = expected.hits.indices.contains(position - 1) ? Self.describe(expected.hits[position - 1]) : "nothing"
      parts.append("position \(position): got \(got), expected \(want)")
    }
    return parts.joined(separator: "; ")
  }

  static func describe(_ hit: SearchHit) -> String {
    "#\(hit.id) [\(hit.match.start),\(hit.match.end)) class \(hit.match.spellingClass)/\(hit.match.matchClass)/\(hit.match.readingClass)"
      + (hit.match.fuzzyClass == 1 ? " fuzzy" : "") + (hit.via.map { " via place \($0)" } ?? "")
  }

  /// The two ordered lists side by side, the first differing row marked with `>`.
  public func sideBySide(corpus: Corpus) -> String {
    func cell(_ hits: [SearchHit], _ i: Int) -> String {
      guard hits.indices.contains(i) else { return "" }
      return "\(corpus.name(at: hits[i].index)) \(Self.describe(hits[i]))"
    }
    let rows = max(expected.hits.count, actual.hits.count)
    let width = max(30, (0..<rows).map { cell(expected.hits, $0).count }.max() ?? 0)
    var lines = ["    " + "expected (total \(expected.total))".padded(width) + "  actual (total \(actual.total))"]
    for i in 0..<rows {
      let mark = position == i + 1 ? ">" : " "
      let number = String(i + 1).padded(2, left: true)
      lines.append("\(mark)\(number) \(cell(expected.hits, i).padded(width))  \(cell(actual.hits, i))")
    }
    return lines.joined(separator: "\n")
  }
}

extension String {
  /// Pads to `width` characters (Hanzi count as two columns, as a terminal shows them).
  func padded(_ width: Int, left: Bool = false) -> String {
    let columns = unicodeScalars.reduce(0) { $0 + (Hanzi.isHanzi($1.value) ? 2 : 1) }
    let padding = String(repeating: " ", count: max(width - columns, 0))
    return left ? padding + self : self + padding
  }
}
