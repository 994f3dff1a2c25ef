import Foundation

/// Quantiles of a sample and their exact bootstrap confidence intervals.
///
/// Quantiles are nearest-rank: the q-quantile of n sorted values is the value of rank
/// ⌈q·n⌉ (at least 1), so every reported figure is a measured value, never an interpolation.
///
/// The interval is the percentile bootstrap's, computed exactly instead of by resampling.
/// A bootstrap resample draws n values with replacement, and its rank-k value is at most
/// the j-th smallest of the sample exactly when at least k of its n draws fall on the j
/// smallest values. That count is binomial, so the bootstrap distribution of the statistic is
/// `P(Bin(n, j/n) ≥ k)` at the sample's j-th value, and the 95% interval runs from the first
/// value where that reaches 2.5% to the first where it reaches 97.5%. The result is the limit
/// a resampling bootstrap tends to as its number of resamples grows, with no random noise and
/// no cost proportional to the number of resamples.
public enum Quantiles {
  /// The 1-based rank of the nearest-rank q-quantile among n values.
  public static func rank(_ q: Double, count n: Int) -> Int {
    precondition(n > 0 && q >= 0 && q <= 1)
    return min(max(Int((q * Double(n)).rounded(.up)), 1), n)
  }

  /// The nearest-rank p50, p90 and p99 and the largest of per-keystroke `counts` (not empty):
  /// the quantiles that the instruction and allocation summaries report.
  public static func ofCounts(_ counts: [Int]) -> (p50: Int, p90: Int, p99: Int, max: Int) {
    precondition(!counts.isEmpty, "quantiles of no counts")
    let sorted = counts.sorted()
    func q(_ fraction: Double) -> Int { sorted[rank(fraction, count: sorted.count) - 1] }
    return (q(0.5), q(0.9), q(0.99), sorted[sorted.count - 1])
  }

  /// The nearest-rank q-quantile of `sorted` (ascending, non-empty).
  public static func quantile(_ q: Double, sorted: [Double]) -> Double {
    sorted[rank(q, count: sorted.count) - 1]
  }

  /// The q-quantile of `sorted` with its exact bootstrap interval at `confidence`.
  ///
  /// - Complexity: O(√n · log n).
  public static func estimate(_ q: Double, sorted: [Double], confidence: Double = 0.95) -> Estimate {
    let n = sorted.count
    let k = rank(q, count: n)
    let tail = (1 - confidence) / 2
    let lower = firstRank(reaching: tail, k: k, n: n)
    let upper = firstRank(reaching: 1 - tail, k: k, n: n)
    return Estimate(value: sorted[k - 1], lower: sorted[lower - 1], upper: sorted[upper - 1])
  }

  /// The smallest j in 1…n with `P(Bin(n, j/n) ≥ k) ≥ level`; the function grows with j and
  /// is 1 at j = n.
  static func firstRank(reaching level: Double, k: Int, n: Int) -> Int {
    var (low, high) = (1, n)
    while low < high {
      let mid = (low + high) / 2
      if binomialUpperTail(n: n, p: Double(mid) / Double(n), atLeast: k) >= level {
        high = mid
      } else {
        low = mid + 1
      }
    }
    return low
  }

  /// `P(X ≥ k)` for X ~ Bin(n, p): the probability mass summed over the terms within 12
  /// standard deviations of the mean (the mass outside is below 1e-30), then normalized.
  public static func binomialUpperTail(n: Int, p: Double, atLeast k: Int) -> Double {
    if k <= 0 { return 1 }
    if k > n { return 0 }
    if p >= 1 { return 1 }
    if p <= 0 { return 0 }
    let mean = Double(n) * p
    let spread = 12 * (Double(n) * p * (1 - p)).squareRoot() + 2
    let first = max(0, Int((mean - spread).rounded(.down)))
    let last = min(n, Int((mean + spread).rounded(.up)))
    if k > last { return 0 }
    if k <= first { return 1 }
    // log P(X = first), then the ratio P(X = i + 1) / P(X = i) = (n − i)/(i + 1) · p/(1 − p).
    let logFirst =
      lgamma(Double(n) + 1) - lgamma(Double(first) + 1) - lgamma(Double(n - first) + 1) + Double(first) * log(p)
      + Double(n - first) * log1p(-p)
    let odds = p / (1 - p)
    // Scaled by the largest term (at the mode) to stay within Double's range.
    let mode = min(max(Int(mean.rounded(.down)), first), last)
    var logMode = logFirst
    for i in first..<mode { logMode += log(Double(n - i) / Double(i + 1) * odds) }
    var term = exp(logFirst - logMode)
    var below = 0.0
    var atOrAbove = 0.0
    for i in first...last {
      if i >= k { atOrAbove += term } else { below += term }
      if i < last { term *= Double(n - i) / Double(i + 1) * odds }
    }
    return atOrAbove / (atOrAbove + below)
  }
}
