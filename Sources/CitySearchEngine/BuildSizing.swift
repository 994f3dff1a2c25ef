/// Sizes a build's largest temporary arrays from their first places, so that they are not grown
/// by doubling: each doubling copies the array, and the system clears every page of each new
/// copy when it is first touched (about a fifth of the samples of a `villages` lists build).
///
/// ```swift
/// for place in 0..<placeCount {
///   keys.append(contentsOf: keysOf(place))
///   BuildSizing.reserve(&keys, after: place + 1, of: placeCount)
/// }
/// ```
public enum BuildSizing {
  /// How many places are added before the rest is predicted from them.
  public static let sample = 4_096

  /// Once ``sample`` of `total` places have been added to `array` (`done` of them), reserves
  /// room for all of them at the rate of those, and half again (room never touched costs no
  /// memory, only addresses); nothing for a total of fewer than three samples, which grows
  /// little, or at any other `done`.
  ///
  /// - Complexity: O(n) for the n elements copied, once.
  @inlinable
  public static func reserve<C: RangeReplaceableCollection>(_ array: inout C, after done: Int, of total: Int) {
    guard done == sample, total > 2 * sample, array.count > 0 else { return }
    array.reserveCapacity(array.count / sample * total * 3 / 2 + array.count)
  }
}
