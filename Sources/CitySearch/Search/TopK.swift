/// Counts matches and keeps the best `limit` by rank key (``Ranking/key(_:place:)``) in a
/// bounded max-heap, so that ranking costs O(n log limit) for n matches rather than a sort of
/// all of them.
public struct TopK {
  /// The most matches kept.
  public let limit: Int
  /// The matches inserted.
  public var total: Int { count }
  @usableFromInline var count = 0
  @usableFromInline var keys: [UInt64] = []
  @usableFromInline var entries: [(index: Int32, match: Match)] = []

  /// An empty top-`limit` (a negative limit keeps none).
  @inlinable
  public init(limit: Int) {
    self.limit = max(limit, 0)
    keys.reserveCapacity(min(self.limit, 1024))
    entries.reserveCapacity(min(self.limit, 1024))
  }

  /// The key a match must be below to be kept, once `limit` matches are kept (the worst kept
  /// one's); `nil` while fewer are.
  @inlinable
  public var threshold: UInt64? { keys.count < limit ? nil : keys.first ?? 0 }

  /// Counts a match of the place at `index` whose rank key is `key`, and keeps it if it is
  /// among the best `limit` so far.
  @inlinable @inline(__always)
  public mutating func insert(key: UInt64, index: Int, match: Match) {
    count += 1
    if keys.count < limit {
      keys.append(key)
      entries.append((Int32(index), match))
      siftUp(keys.count - 1)
    } else if limit > 0 && key < keys[0] {
      keys[0] = key
      entries[0] = (Int32(index), match)
      siftDown(0)
    }
  }

  @inlinable
  mutating func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard keys[child] > keys[parent] else { return }
      keys.swapAt(child, parent)
      entries.swapAt(child, parent)
      child = parent
    }
  }

  @inlinable
  mutating func siftDown(_ start: Int) {
    var parent = start
    let n = keys.count
    while true {
      var largest = parent
      let left = 2 * parent + 1
      let right = left + 1
      if left < n && keys[left] > keys[largest] { largest = left }
      if right < n && keys[right] > keys[largest] { largest = right }
      if largest == parent { return }
      keys.swapAt(parent, largest)
      entries.swapAt(parent, largest)
      parent = largest
    }
  }

  /// The kept matches, best first.
  public func sortedEntries() -> [(index: Int32, match: Match)] {
    ascendingPositions().map { entries[$0] }
  }

  /// The result: the kept matches best first.
  @inlinable
  public func result(_ query: NormalizedQuery, mode: MatchMode, corpus: Corpus) -> SearchResult {
    let hits = ascendingPositions().map { i -> SearchHit in
      let index = Int(entries[i].index)
      return SearchHit(index: index, id: corpus.id(at: index), match: entries[i].match)
    }
    return SearchResult(normalized: query, mode: mode, total: total, hits: hits)
  }

  /// The positions of the kept matches in `entries`, best (lowest key) first: the heap popped
  /// on a copy of its keys, the second half of a heapsort (its first, building the heap, is
  /// done). A sort of the positions comparing their keys through a closure, as this was, cost
  /// 2,000–2,500 instructions of a walked keystroke on `cities`. The keys of different places
  /// differ (``Ranking/key(_:place:)``), so the order is the same as any sort's.
  ///
  /// - Complexity: O(k log k) for the k matches kept.
  @inlinable
  func ascendingPositions() -> [Int] {
    var positions = Array(keys.indices)
    keys.withUnsafeBufferPointer { kept in
      withUnsafeTemporaryAllocation(of: UInt64.self, capacity: kept.count) { keys in
        _ = keys.initialize(fromContentsOf: kept)
        positions.withUnsafeMutableBufferPointer { positions in
          var n = keys.count
          while n > 1 {
            // The largest key left goes last; the rest is a heap again once the new root sinks.
            n -= 1
            keys.swapAt(0, n)
            positions.swapAt(0, n)
            var parent = 0
            while true {
              let left = 2 * parent + 1
              guard left < n else { break }
              var largest = keys[left] > keys[parent] ? left : parent
              if left + 1 < n && keys[left + 1] > keys[largest] { largest = left + 1 }
              if largest == parent { break }
              keys.swapAt(parent, largest)
              positions.swapAt(parent, largest)
              parent = largest
            }
          }
        }
      }
    }
    return positions
  }
}
