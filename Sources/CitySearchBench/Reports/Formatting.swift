import Foundation

/// How the reports write numbers.
public enum Formatting {
  /// A duration in the unit that suits it: `850 ns`, `12.3 µs`, `4.56 ms`, `1.20 s`.
  public static func duration(nanoseconds value: Double) -> String {
    switch value {
    case ..<1_000: String(format: "%.0f ns", value)
    case ..<10_000: String(format: "%.2f µs", value / 1e3)
    case ..<1_000_000: String(format: "%.1f µs", value / 1e3)
    case ..<10_000_000: String(format: "%.2f ms", value / 1e6)
    case ..<1_000_000_000: String(format: "%.1f ms", value / 1e6)
    default: String(format: "%.2f s", value / 1e9)
    }
  }

  /// A ratio to the reference: `0.12×`.
  public static func ratio(_ value: Double) -> String {
    value < 0.1
      ? String(format: "%.3f×", value) : value < 10 ? String(format: "%.2f×", value) : String(format: "%.1f×", value)
  }

  /// `value [lower–upper]`.
  public static func estimate(_ e: Estimate, _ format: (Double) -> String) -> String {
    "\(format(e.value)) [\(format(e.lower))–\(format(e.upper))]"
  }

  /// A count with thousands separators: `15,123`.
  public static func count(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(c)
    }
    return (n < 0 ? "-" : "") + out
  }

  /// Seconds to three decimals below 10 s (`1.234 s`), to one above (`12.3 s`).
  public static func seconds(_ s: Double) -> String {
    s < 10 ? String(format: "%.3f s", s) : String(format: "%.1f s", s)
  }
}
