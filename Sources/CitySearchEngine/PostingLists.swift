import CitySearch

/// Lists of place indices, one per integer key: a key that more than one place in 32 holds is
/// a bitset over every place (``PostingList``), smaller than its sorted list; the others are
/// sorted lists stored as one compressed-row array.
public struct PostingLists: Sendable {
  /// `places[starts[k]..<starts[k + 1]]` is key `k`'s list, ascending, without repeats; empty
  /// for a key with a bitset.
  @usableFromInline let starts: IntegerTable<Int32>
  @usableFromInline let places: IntegerTable<Int32>
  /// Per key, its bitset's slot, or -1: the keys with a bitset take slots 0, 1, 2… in key order.
  @usableFromInline let slots: IntegerTable<Int32>
  /// Per slot, how many places its bitset holds.
  @usableFromInline let slotCounts: IntegerTable<Int32>
  /// Per slot, ``wordsPerSet`` words: bit `p % 64` of word `p / 64` is set for each place `p`.
  @usableFromInline let words: IntegerTable<UInt64>
  @usableFromInline let wordsPerSet: Int

  /// Whether a key held by `count` of `placeCount` places takes fewer bytes as a bitset
  /// (`placeCount / 8`) than as a sorted list (4 bytes a place).
  @inlinable
  static func isDense(count: Int, placeCount: Int) -> Bool { count * 32 > placeCount }

  /// Builds the lists for `keyCount` keys over `placeCount` places; `keys(place, &out)` appends
  /// the keys of one place (in any order, repeats allowed).
  ///
  /// - Complexity: O(K + P + total keys), with one temporary array of all (key) entries and one
  ///   stamp per key.
  public init(keyCount: Int, placeCount: Int, keys: (Int, inout [Int32]) -> Void) {
    var flat = ContiguousArray<Int32>()
    var placeEnds = ContiguousArray<Int32>()
    placeEnds.reserveCapacity(placeCount)
    var counts = ContiguousArray<Int32>(repeating: 0, count: keyCount)
    // A place's repeated keys are dropped by stamping each key with the last place that had it
    // (the keys are dense, so one stamp a key): no sort of each place's keys, which took most
    // of the build of `villages`' `seed` lists. The order of a place's keys does not matter,
    // since the lists are filled place after place.
    var lastPlace = ContiguousArray<Int32>(repeating: -1, count: keyCount)
    var scratch: [Int32] = []
    for place in 0..<placeCount {
      scratch.removeAll(keepingCapacity: true)
      keys(place, &scratch)
      for key in scratch where lastPlace[Int(key)] != Int32(place) {
        lastPlace[Int(key)] = Int32(place)
        flat.append(key)
        counts[Int(key)] += 1
      }
      placeEnds.append(Int32(flat.count))
      BuildSizing.reserve(&flat, after: place + 1, of: placeCount)
    }
    let wordsPerSet = (placeCount + 63) / 64
    var slots = ContiguousArray<Int32>(repeating: -1, count: keyCount)
    var slotCounts = ContiguousArray<Int32>()
    var starts = ContiguousArray<Int32>(repeating: 0, count: keyCount + 1)
    for k in 0..<keyCount {
      var listed = counts[k]
      if Self.isDense(count: Int(counts[k]), placeCount: placeCount) {
        slots[k] = Int32(slotCounts.count)
        slotCounts.append(counts[k])
        listed = 0
      }
      starts[k + 1] = starts[k] + listed
    }
    var fill = starts
    var places = ContiguousArray<Int32>(repeating: 0, count: Int(starts[keyCount]))
    var words = ContiguousArray<UInt64>(repeating: 0, count: slotCounts.count * wordsPerSet)
    var begin = 0
    for place in 0..<placeCount {
      let end = Int(placeEnds[place])
      for i in begin..<end {
        let key = Int(flat[i])
        let slot = Int(slots[key])
        if slot >= 0 {
          words[slot * wordsPerSet + place >> 6] |= 1 << UInt64(place & 63)
        } else {
          places[Int(fill[key])] = Int32(place)
          fill[key] += 1
        }
      }
      begin = end
    }
    self.starts = IntegerTable(starts)
    self.places = IntegerTable(places)
    self.slots = IntegerTable(slots)
    self.slotCounts = IntegerTable(slotCounts)
    self.words = IntegerTable(words)
    self.wordsPerSet = wordsPerSet
  }

  /// Key `key`'s places (empty for a key out of range).
  @inlinable
  public subscript(key: Int) -> PostingList {
    guard key >= 0 && key < slots.count else { return PostingList(places[0..<0]) }
    let slot = Int(slots[key])
    guard slot < 0 else {
      return PostingList(
        bits: words[slot * wordsPerSet..<(slot + 1) * wordsPerSet], count: Int(slotCounts[slot]))
    }
    return PostingList(places[Int(starts[key])..<Int(starts[key + 1])])
  }

  /// Writes the lists (``init(reading:keyCount:placeCount:table:)`` reads them back).
  public func archive(into writer: inout ArchiveWriter) {
    writer.table(starts)
    writer.table(places)
    writer.table(slots)
    writer.table(slotCounts)
    writer.table(words)
  }

  /// The lists ``archive(into:)`` wrote, checked: one per key of `keyCount`, each within the
  /// table, of places below `placeCount`; the bitsets numbered in key order, of keys without a
  /// sorted list, of `placeCount` bits each, as many set as their counts say; `table` names them
  /// in an error.
  ///
  /// - Complexity: O(K + E + W) for K keys, E entries in sorted lists and W words of bitsets.
  public init(reading reader: inout ArchiveReader, keyCount: Int, placeCount: Int, table: String) throws(ArchiveError) {
    starts = try reader.integerTable(table)
    places = try reader.integerTable(table)
    slots = try reader.integerTable(table)
    slotCounts = try reader.integerTable(table)
    words = try reader.integerTable(table)
    wordsPerSet = (placeCount + 63) / 64
    try reader.require(
      starts.areOffsets(count: keyCount + 1, total: places.count) && places.allLie(in: 0..<placeCount)
        && slots.count == keyCount && words.count == slotCounts.count * wordsPerSet
        && (wordsPerSet > 0 || slotCounts.isEmpty), table)
    var next: Int32 = 0
    for k in 0..<keyCount where slots[k] != -1 {
      try reader.require(slots[k] == next && starts[k] == starts[k + 1], table)
      next += 1
    }
    try reader.require(next == slotCounts.count, table)
    // No bit past the last place, and each bitset's count its bits'.
    let spare = placeCount % 64 == 0 ? 0 : ~UInt64(0) << UInt64(placeCount % 64)
    for slot in 0..<slotCounts.count {
      var bits = 0
      for w in slot * wordsPerSet..<(slot + 1) * wordsPerSet { bits += words[w].nonzeroBitCount }
      try reader.require(bits == slotCounts[slot] && words[(slot + 1) * wordsPerSet - 1] & spare == 0, table)
    }
  }

  /// The bytes the lists occupy.
  public var byteCount: Int {
    starts.count * 4 + places.count * 4 + slots.count * 4 + slotCounts.count * 4 + words.count * 8
  }

  /// The number of (key, place) entries, in sorted lists and bitsets.
  public var entryCount: Int { places.count + slotCounts.reduce(0) { $0 + Int($1) } }

  /// How many keys are bitsets.
  public var bitsetCount: Int { slotCounts.count }
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
