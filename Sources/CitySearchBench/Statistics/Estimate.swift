/// A statistic with its 95% confidence interval.
public struct Estimate: Sendable, Hashable, Codable {
  public var value: Double
  public var lower: Double
  public var upper: Double

  public init(value: Double, lower: Double, upper: Double) {
    self.value = value
    self.lower = lower
    self.upper = upper
  }
}

/// The quantiles the reports give: p50, p90, p99, p99.9 and the maximum.
public enum ReportedQuantile: String, Sendable, CaseIterable, Codable {
  case p50, p90, p99
  case p999 = "p99.9"
  case max

  public var fraction: Double {
    switch self {
    case .p50: 0.5
    case .p90: 0.9
    case .p99: 0.99
    case .p999: 0.999
    case .max: 1
    }
  }
}
