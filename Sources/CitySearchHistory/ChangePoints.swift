import CitySearchBench
import Foundation

/// Where a series of runs changed level: the first run after the change, and the medians of
/// the runs before and after it (within the segment the split was found in).
public struct ChangePoint: Sendable, Equatable {
  /// The index of the first run after the change.
  public var index: Int
  /// The median of the runs before the change.
  public var before: Double
  /// The median of the runs after it.
  public var after: Double
  /// `after / before`.
  public var change: Double { after / before }
}

/// Change points of a series by binary segmentation: the split of a segment with the largest
/// shift of medians is a change point when the shift exceeds `threshold` (0.3: 30% either way)
/// and the two sides do not overlap (every run after the split lies beyond every run before
/// it), with at least `minimumSegment` runs on each side; then each side is searched again.
///
/// Medians (nearest rank) and the no-overlap rule keep one noisy run from making a change point (with
/// `minimumSegment` 2 or more); a slow drift over many commits shows as a change point where
/// the halves it separates differ most.
///
/// ```swift
/// changePoints([10, 10.2, 9.9, 13, 13.1, 12.9], threshold: 0.1, minimumSegment: 2)
/// // [ChangePoint(index: 3, before: 10, after: 13)]
/// ```
///
/// - Complexity: O(n² log n) for n runs.
public func changePoints(_ values: [Double], threshold: Double, minimumSegment: Int) -> [ChangePoint] {
  let m = max(1, minimumSegment)
  var found: [ChangePoint] = []
  func search(_ range: Range<Int>) {
    guard range.count >= 2 * m else { return }
    var best: (point: ChangePoint, score: Double)?
    for k in (range.lowerBound + m)...(range.upperBound - m) {
      let (left, right) = (values[range.lowerBound..<k], values[k..<range.upperBound])
      let (before, after) = (
        Quantiles.quantile(0.5, sorted: left.sorted()), Quantiles.quantile(0.5, sorted: right.sorted())
      )
      guard before > 0, after > 0, abs(after / before - 1) > threshold else { continue }
      let separated = left.max()! < right.min()! || left.min()! > right.max()!
      guard separated else { continue }
      let score = abs(log(after / before))
      if score > best?.score ?? 0 { best = (ChangePoint(index: k, before: before, after: after), score) }
    }
    guard let best else { return }
    found.append(best.point)
    search(range.lowerBound..<best.point.index)
    search(best.point.index..<range.upperBound)
  }
  search(values.indices)
  return found.sorted { $0.index < $1.index }
}
