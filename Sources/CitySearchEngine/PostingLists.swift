import CitySearch

/// Sorted lists of place indices, one per integer key, stored as one compressed-row array.
public struct PostingLists: Sendable {
  /// `places[starts[k]..<starts[k + 1]]` is key `k`'s list, ascending, without repeats.
  @usableFromInline let starts: IntegerTable<Int32>
  @usableFromInline let places: IntegerTable<Int32>

  /// Builds the lists for `keyCount` keys over `placeCount` places; `keys(place, &out)` appends
  /// the keys of one place (in any order, repeats allowed).
  ///
  /// - Complexity: O(K + P + total keys), with one temporary array of all (key) entries.
  public init(keyCount: Int, placeCount: Int, keys: (Int, inout [Int32]) -> Void) {
    var flat = ContiguousArray<Int32>()
    var placeEnds = ContiguousArray<Int32>()
    placeEnds.reserveCapacity(placeCount)
    var counts = ContiguousArray<Int32>(repeating: 0, count: keyCount + 1)
    forEachPlacesKeys(placeCount: placeCount, keys: keys) { _, distinct in
      for key in distinct {
        flat.append(key)
        counts[Int(key) + 1] += 1
      }
      placeEnds.append(Int32(flat.count))
    }
    for k in 0..<keyCount { counts[k + 1] += counts[k] }
    var fill = counts
    var places = ContiguousArray<Int32>(repeating: 0, count: flat.count)
    var begin = 0
    for place in 0..<placeCount {
      let end = Int(placeEnds[place])
      for i in begin..<end {
        let key = Int(flat[i])
        places[Int(fill[key])] = Int32(place)
        fill[key] += 1
      }
      begin = end
    }
    self.starts = IntegerTable(counts)
    self.places = IntegerTable(places)
  }

  /// Key `key`'s places (empty for a key out of range).
  @inlinable
  public subscript(key: Int) -> Slice<IntegerTable<Int32>> {
    guard key >= 0 && key + 1 < starts.count else { return places[0..<0] }
    return places[Int(starts[key])..<Int(starts[key + 1])]
  }

  /// Writes the lists (``init(reading:keyCount:placeCount:table:)`` reads them back).
  public func archive(into writer: inout ArchiveWriter) {
    writer.table(starts)
    writer.table(places)
  }

  /// The lists ``archive(into:)`` wrote, checked: one per key of `keyCount`, each within the
  /// table, of places below `placeCount`; `table` names them in an error.
  ///
  /// - Complexity: O(K + E) for K keys and E entries.
  public init(reading reader: inout ArchiveReader, keyCount: Int, placeCount: Int, table: String) throws(ArchiveError) {
    starts = try reader.integerTable(table)
    places = try reader.integerTable(table)
    try reader.require(
      starts.areOffsets(count: keyCount + 1, total: places.count) && places.allLie(in: 0..<placeCount), table)
  }

  /// The bytes the lists occupy.
  public var byteCount: Int { starts.count * 4 + places.count * 4 }

  /// The number of (key, place) entries.
  public var entryCount: Int { places.count }
}

/// Calls `body(place, keys)` for every place in order with its distinct keys, ascending;
/// `keys(place, &out)` appends a place's keys (any order, repeats allowed) to a scratch array
/// reused for every place.
@inline(__always)
func forEachPlacesKeys(
  placeCount: Int, keys: (Int, inout [Int32]) -> Void, _ body: (_ place: Int, _ keys: ArraySlice<Int32>) -> Void
) {
  var scratch: [Int32] = []
  for place in 0..<placeCount {
    scratch.removeAll(keepingCapacity: true)
    keys(place, &scratch)
    scratch.sort()
    // Drop the repeats in place: the first `distinct` slots keep one of each key.
    var distinct = 0
    for i in scratch.indices where distinct == 0 || scratch[i] != scratch[distinct - 1] {
      scratch[distinct] = scratch[i]
      distinct += 1
    }
    body(place, scratch[..<distinct])
  }
}

/// Intersects sorted posting lists, shortest first, and calls `body` with each common place.
///
/// - Complexity: O(s · log L) for the shortest list's length s and the longest L; one list is
///   walked in place without copying.
@inlinable
public func forEachCommonPlace(_ lists: [Slice<IntegerTable<Int32>>], _ body: (Int) -> Void) {
  guard !lists.isEmpty else { return }
  let sorted = lists.sorted { $0.count < $1.count }
  if sorted.count == 1 {
    for place in sorted[0] { body(Int(place)) }
    return
  }
  var cursors = sorted.map(\.startIndex)
  outer: for place in sorted[0] {
    for l in 1..<sorted.count {
      let list = sorted[l]
      // Galloping search for `place` from the cursor: lists are ascending.
      var low = cursors[l]
      var step = 1
      var high = low
      while high < list.endIndex && list[high] < place {
        low = high + 1
        high += step
        step *= 2
      }
      high = min(high, list.endIndex)
      while low < high {
        let mid = (low + high) / 2
        if list[mid] < place { low = mid + 1 } else { high = mid }
      }
      cursors[l] = low
      if low == list.endIndex { break outer }
      if list[low] != place { continue outer }
    }
    body(Int(place))
  }
}
