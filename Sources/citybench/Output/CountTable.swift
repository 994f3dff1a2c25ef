import CitySearchBench

/// The per-keystroke count table `instructions` and `allocations` print: one row per backend
/// with its p50, p90, p99, max, mean and total, as TSV (plain integers) or as a terminal table
/// under a title.
struct CountTable {
  static let header = ["backend", "p50", "p90", "p99", "max", "mean", "total"]
  private(set) var rows: [[String]] = []

  /// Adds a backend's row; `meanDigits` decimals for the mean.
  mutating func add(
    _ name: String, p50: Int, p90: Int, p99: Int, max: Int, mean: Double, total: Int, meanDigits: Int
  ) {
    rows.append(
      [name] + [p50, p90, p99, max].map { Formatting.count($0) } + [
        String(format: "%.\(meanDigits)f", mean), Formatting.count(total),
      ])
  }

  /// Prints the table: TSV, or `title` and an aligned table.
  func print(format: OutputFormat, title: String) {
    if format == .tsv {
      Swift.print(Self.header.joined(separator: "\t"))
      for row in rows { Swift.print(row.map { $0.replacingOccurrences(of: ",", with: "") }.joined(separator: "\t")) }
      return
    }
    Swift.print(title)
    Swift.print(terminalTable([Self.header] + rows))
  }
}
