import CitySearch

/// The places common to some posting lists (``PostingList``), split once into their sorted
/// lists, shortest first, and their bitsets: then enumerated whole or one block of places at a
/// time (``ShortQueryAnswers`` verifies many queries' candidates a block at a time). The
/// intersection of no list is every place.
public struct PostingIntersection: Sendable {
  /// The sorted lists, shortest first.
  @usableFromInline let sorted: [Slice<IntegerTable<Int32>>]
  /// The bitsets, each over every place.
  @usableFromInline let bitsets: [Slice<IntegerTable<UInt64>>]
  /// How many places there are: every one of them is common to no list.
  @usableFromInline let placeCount: Int

  /// The intersection of `lists` over `placeCount` places.
  @inlinable
  public init(_ lists: [PostingList], placeCount: Int) {
    self.placeCount = placeCount
    var sorted: [Slice<IntegerTable<Int32>>] = []
    var bitsets: [Slice<IntegerTable<UInt64>>] = []
    sorted.reserveCapacity(lists.count)
    for list in lists {
      switch list.storage {
      case .sorted(let places): sorted.append(places)
      case .bits(let words): bitsets.append(words)
      }
    }
    if sorted.count > 1 { sorted.sort { $0.count < $1.count } }
    (self.sorted, self.bitsets) = (sorted, bitsets)
  }

  /// A range that holds every common place: from the first to the last place of the shortest
  /// sorted list, or every place when there is none.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var span: Range<Int> {
    guard let shortest = sorted.first else { return 0..<placeCount }
    guard let first = shortest.first, let last = shortest.last else { return 0..<0 }
    return Int(first)..<Int(last) + 1
  }

  /// Calls `body` with each common place, ascending; only with the places in `range` when it is
  /// given.
  ///
  /// - Complexity: with a sorted list among them, O(s · (b + log L)) for the shortest sorted
  ///   list's length s (within `range`, found by binary search), b bitsets and the longest sorted
  ///   list L (a galloping search from a cursor in each other sorted list, one bit test in each
  ///   bitset); with bitsets only, O(b · P / 64) for the P places of `range` or of the corpus,
  ///   their words ANDed. The lists are walked in place without copying.
  @inlinable
  public func forEachPlace(in range: Range<Int>? = nil, _ body: (Int) -> Void) {
    guard var shortest = sorted.first else {
      if bitsets.isEmpty {
        for place in range?.clamped(to: 0..<placeCount) ?? 0..<placeCount { body(place) }
      } else {
        forEachPlaceOfBitsets(in: range, body)
      }
      return
    }
    if let range {
      let low = firstPosition(notBelow: Int32(clamping: range.lowerBound), in: shortest)
      shortest = shortest[low..<firstPosition(notBelow: Int32(clamping: range.upperBound), in: shortest)]
    }
    if sorted.count == 1 && bitsets.isEmpty {
      for place in shortest { body(Int(place)) }
      return
    }
    withUnsafeTemporaryAllocation(of: Int.self, capacity: sorted.count) { cursors in
      for l in sorted.indices { cursors[l] = sorted[l].startIndex }
      outer: for place in shortest {
        for words in bitsets where words[words.startIndex + Int(place) >> 6] >> (UInt64(place) & 63) & 1 == 0 {
          continue outer
        }
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
  }

  /// ``forEachPlace(in:_:)`` when every list is a bitset, at least one: their words ANDed, the first and last
  /// words of `range` masked to it.
  @inlinable
  func forEachPlaceOfBitsets(in range: Range<Int>?, _ body: (Int) -> Void) {
    let first = bitsets[0]
    let words = range.map { $0.lowerBound >> 6..<min(($0.upperBound + 63) >> 6, first.count) } ?? 0..<first.count
    for w in words {
      var word = first[first.startIndex + w]
      if let range {
        if w * 64 < range.lowerBound { word &= ~0 << UInt64(range.lowerBound & 63) }
        if w * 64 + 64 > range.upperBound { word &= ~(~0 << UInt64(range.upperBound - w * 64)) }
      }
      for other in bitsets.dropFirst() where word != 0 { word &= other[other.startIndex + w] }
      while word != 0 {
        body(w * 64 + word.trailingZeroBitCount)
        word &= word - 1
      }
    }
  }
}

/// The position of the first element of `sorted` (ascending) that is `value` or more: its end
/// when there is none. The binary search of the posting lists and their tables.
///
/// - Complexity: O(log n) for n elements.
@inlinable
public func firstPosition<C: RandomAccessCollection>(notBelow value: C.Element, in sorted: C) -> Int
where C.Element: Comparable, C.Index == Int {
  var low = sorted.startIndex
  var high = sorted.endIndex
  while low < high {
    let mid = (low + high) / 2
    if sorted[mid] < value { low = mid + 1 } else { high = mid }
  }
  return low
}
