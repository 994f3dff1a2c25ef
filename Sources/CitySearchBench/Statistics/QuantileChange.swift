import CitySearchConformance

/// The change of a latency quantile between two runs, B ÷ A, with a percentile-bootstrap 95%
/// interval computed from the runs' own samples (each keystroke's median over its rounds).
///
/// When both runs timed the same keystrokes (one workload, one sampling), the bootstrap is
/// **paired**: each resample draws keystrokes, and takes both runs' times of the drawn ones, so
/// that what the keystrokes have in common (a long query is slow in both) cancels out and the
/// interval is as narrow as the data allow. Otherwise each run's samples are resampled on
/// their own. The resampling is seeded: the same files give the same interval.
///
/// ```swift
/// let change = QuantileChange.estimate(a: aTimes, b: bTimes, quantile: 0.99, paired: true)
/// change.upper < 1  // B is faster at p99 beyond the noise of the samples
/// ```
public enum QuantileChange {
  /// B ÷ A at quantile `quantile` (0.5 for p50) of the samples `a` and `b`, with the 95%
  /// interval of `resamples` bootstrap resamples; `paired` needs `a` and `b` of one length,
  /// element `i` of both the same keystroke.
  ///
  /// - Complexity: O(`resamples` · (n + m)) expected, for n and m samples (a selection, not a
  ///   sort, per resample).
  public static func estimate(
    a: [Double], b: [Double], quantile: Double, paired: Bool, resamples: Int = 1_000, seed: UInt64 = 1
  ) -> Estimate {
    precondition(!a.isEmpty && !b.isEmpty, "a change of no samples")
    precondition(!paired || a.count == b.count, "paired samples of different lengths")
    let value = select(a, quantile) > 0 ? select(b, quantile) / select(a, quantile) : .infinity
    var random = SplitMix64(seed: seed)
    var ratios: [Double] = []
    ratios.reserveCapacity(resamples)
    var x = [Double](repeating: 0, count: a.count)
    var y = [Double](repeating: 0, count: b.count)
    for _ in 0..<resamples {
      if paired {
        for i in 0..<a.count {
          let j = Int(random.next() % UInt64(a.count))
          x[i] = a[j]
          y[i] = b[j]
        }
      } else {
        for i in 0..<a.count { x[i] = a[Int(random.next() % UInt64(a.count))] }
        for i in 0..<b.count { y[i] = b[Int(random.next() % UInt64(b.count))] }
      }
      let qa = select(x, quantile)
      ratios.append(qa > 0 ? select(y, quantile) / qa : .infinity)
    }
    ratios.sort()
    return Estimate(
      value: value, lower: Quantiles.quantile(0.025, sorted: ratios), upper: Quantiles.quantile(0.975, sorted: ratios))
  }

  /// The nearest-rank `quantile` of `values` (``Quantiles``), found by selection.
  static func select(_ values: [Double], _ quantile: Double) -> Double {
    var scratch = values
    let k = Quantiles.rank(quantile, count: scratch.count) - 1
    var (low, high) = (0, scratch.count - 1)
    while low < high {
      let pivot = scratch[(low + high) / 2]
      var (i, j) = (low, high)
      while i <= j {
        while scratch[i] < pivot { i += 1 }
        while scratch[j] > pivot { j -= 1 }
        if i <= j {
          scratch.swapAt(i, j)
          i += 1
          j -= 1
        }
      }
      if k <= j {
        high = j
      } else if k >= i {
        low = i
      } else {
        break
      }
    }
    return scratch[k]
  }
}
