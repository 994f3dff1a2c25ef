/// A statistic with its 95% confidence interval.
public struct Estimate: Sendable, Hashable, Codable {
  /// The point estimate.
  public var value: Double
  /// The interval's lower end.
  public var lower: Double
  /// The interval's upper end.
  public var upper: Double

  /// An estimate of `value` within [`lower`, `upper`].
  public init(value: Double, lower: Double, upper: Double) {
    self.value = value
    self.lower = lower
    self.upper = upper
  }

  /// How far a ratio's interval reaches from 1, either way (0 when it lies within 1): the noise
  /// an A/A ratio shows, which the gate allows and a headline lead must exceed.
  public var reachFromOne: Double { max(upper - 1, 1 - lower, 0) }
}

/// The quantiles the reports give: p50, p90, p99, p99.9 and the maximum.
public enum ReportedQuantile: String, Sendable, CaseIterable, Codable {
  /// The median.
  case p50
  /// The 90th percentile.
  case p90
  /// The 99th percentile.
  case p99
  /// The 99.9th percentile.
  case p999 = "p99.9"
  /// The largest sample.
  case max

  /// The quantile as a fraction, from 0.5 to 1.
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
