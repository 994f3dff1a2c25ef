import CitySearch

/// Sorted lists of place indices for keys too many to hold one row each (``LetterKey`` values of
/// four and five letters: 37⁵ of them, of which a corpus uses a few hundred thousand): the keys
/// that occur, ascending, each with its list in one compressed-row array.
public struct SparsePostingLists: Sendable {
  /// The keys that have a list, ascending; `places[starts[i]..<starts[i + 1]]` is `keys[i]`'s.
  @usableFromInline let keys: IntegerTable<Int32>
  @usableFromInline let starts: IntegerTable<Int32>
  @usableFromInline let places: IntegerTable<Int32>

  /// Builds the lists over `placeCount` places; `keys(place, &out)` appends the keys of one
  /// place (non-negative, in any order, repeats allowed).
  ///
  /// - Complexity: O(E) for the E distinct (key, place) entries: packed in 64 bits, sorted by
  ///   key in at most two counting passes.
  public init(placeCount: Int, keys: (Int, inout [Int32]) -> Void) {
    var entries: [UInt64] = []
    forEachPlacesKeys(placeCount: placeCount, keys: keys) { place, distinct in
      for key in distinct { entries.append(Self.entry(key: key, place: place)) }
    }
    self.init(entries: entries)
  }

  /// The lists of `entries` (``entry(key:place:)``), in ascending order of place and repeats
  /// allowed: for a builder that collects them while it builds other lists.
  ///
  /// - Complexity: O(E) for E entries, sorted by key in at most two counting passes.
  public init(entries: [UInt64]) {
    var entries = entries
    // Sorted by key, then place: the entries come in place order, and the sort is stable.
    Self.sortByKey(&entries)
    self.init(sortedEntries: entries)
  }

  /// The lists of `entries` (``entry(key:place:)``) already sorted by ``sortByKey(_:)``, or
  /// any subsequence of such: for a builder that sorts them while it does other work.
  ///
  /// - Complexity: O(E) for E entries.
  public init(sortedEntries entries: [UInt64]) {
    var distinctKeys = ContiguousArray<Int32>()
    var starts = ContiguousArray<Int32>()
    var places = ContiguousArray<Int32>()
    places.reserveCapacity(entries.count)
    var previous = UInt64.max
    for entry in entries where entry != previous {
      previous = entry
      let key = Int32(truncatingIfNeeded: entry >> 32)
      if distinctKeys.last != key {
        distinctKeys.append(key)
        starts.append(Int32(places.count))
      }
      places.append(Int32(truncatingIfNeeded: entry & 0xFFFF_FFFF))
    }
    starts.append(Int32(places.count))
    self.keys = IntegerTable(distinctKeys)
    self.starts = IntegerTable(starts)
    self.places = IntegerTable(places)
  }

  /// The entry of place `place` in key `key`'s list, as ``init(entries:)`` takes it.
  ///
  /// - Precondition: `key` is non-negative.
  @inlinable @inline(__always)
  public static func entry(key: Int32, place: Int) -> UInt64 {
    precondition(key >= 0, "keys are non-negative")
    return UInt64(key) << 32 | UInt64(place)
  }

  /// Sorts `entries` (a key in the high 32 bits) by key, stably: a least-significant-digit radix
  /// sort in passes of at most 16 bits (a `villages` index's 11 million long-key entries took
  /// about a second with a comparison sort). Entries in place order are then in the order
  /// ``init(sortedEntries:)`` takes.
  ///
  /// - Complexity: O(E) for E entries, in at most two counting passes.
  public static func sortByKey(_ entries: inout [UInt64]) {
    let keyBits = 64 - (entries.max() ?? 0).leadingZeroBitCount - 32
    guard keyBits > 0 && entries.count > 1 else { return }
    let passes = (keyBits + 15) / 16
    let digitBits = (keyBits + passes - 1) / passes
    let mask = UInt64(1) << UInt64(digitBits) - 1
    // Every pass writes each element of its target before the next reads it.
    var other = [UInt64](unsafeUninitializedCapacity: entries.count) { _, count in count = entries.count }
    var counts = [Int](repeating: 0, count: 1 << digitBits)
    for pass in 0..<passes {
      let shift = UInt64(32 + pass * digitBits)
      entries.withUnsafeBufferPointer { source in
        other.withUnsafeMutableBufferPointer { target in
          counts.withUnsafeMutableBufferPointer { counts in
            counts.update(repeating: 0)
            for entry in source { counts[Int(entry >> shift & mask)] += 1 }
            var sum = 0
            for digit in counts.indices { (counts[digit], sum) = (sum, sum + counts[digit]) }
            for entry in source {
              let digit = Int(entry >> shift & mask)
              target[counts[digit]] = entry
              counts[digit] += 1
            }
          }
        }
      }
      swap(&entries, &other)
    }
  }

  /// Key `key`'s places: empty for a key no place has.
  ///
  /// - Complexity: O(log K) for the K keys held.
  @inlinable
  public subscript(key: Int32) -> Slice<IntegerTable<Int32>> {
    var low = 0
    var high = keys.count
    while low < high {
      let mid = (low + high) / 2
      if keys[mid] < key { low = mid + 1 } else { high = mid }
    }
    guard low < keys.count && keys[low] == key else { return places[0..<0] }
    return places[Int(starts[low])..<Int(starts[low + 1])]
  }

  /// The keys whose lists hold more than `count` places, ascending.
  ///
  /// - Complexity: O(K) for the K keys held.
  public func keys(withMoreThan count: Int) -> [Int32] {
    keys.indices.compactMap { Int(starts[$0 + 1] - starts[$0]) > count ? keys[$0] : nil }
  }

  /// Writes the lists (``init(reading:placeCount:table:)`` reads them back).
  public func archive(into writer: inout ArchiveWriter) {
    writer.table(keys)
    writer.table(starts)
    writer.table(places)
  }

  /// The lists ``archive(into:)`` wrote, checked: keys ascending, each list within the table,
  /// of places below `placeCount`; `table` names them in an error.
  ///
  /// - Complexity: O(K + E) for K keys and E entries.
  public init(reading reader: inout ArchiveReader, placeCount: Int, table: String) throws(ArchiveError) {
    keys = try reader.integerTable(table)
    starts = try reader.integerTable(table)
    places = try reader.integerTable(table)
    try reader.require(
      keys.isStrictlyIncreasing
        && starts.areOffsets(count: keys.count + 1, total: places.count)
        && places.allLie(in: 0..<placeCount), table)
  }

  /// The bytes the lists occupy.
  public var byteCount: Int { keys.count * 4 + starts.count * 4 + places.count * 4 }

  /// The number of (key, place) entries.
  public var entryCount: Int { places.count }
}
