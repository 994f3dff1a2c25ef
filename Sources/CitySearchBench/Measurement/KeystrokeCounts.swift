/// A summary of a deterministic count per keystroke (instructions, allocation calls): the
/// nearest-rank quantiles, the largest, the mean and the total, which the reports print in one
/// shape and the gate reads by name.
public protocol KeystrokeCounts {
  /// The median count.
  var p50: Int { get }
  /// The 90th percentile.
  var p90: Int { get }
  /// The 99th percentile.
  var p99: Int { get }
  /// The largest count.
  var max: Int { get }
  /// The count over every keystroke.
  var total: Int { get }
  /// The count per keystroke, over every keystroke.
  var mean: Double { get }
}

extension KeystrokeCounts {
  /// A figure by name (`p50`, `p90`, `p99`, `max`, `total`), or `nil`.
  public subscript(metric: String) -> Int? {
    switch metric {
    case "p50": p50
    case "p90": p90
    case "p99": p99
    case "max": max
    case "total": total
    default: nil
    }
  }
}
