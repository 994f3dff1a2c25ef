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

  /// Forgets every match, keeping the memory: one `TopK` then ranks keystroke after keystroke
  /// of a typing session without allocating (`Narrowing`).
  @inlinable
  public mutating func removeAll() {
    count = 0
    keys.removeAll(keepingCapacity: true)
    entries.removeAll(keepingCapacity: true)
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
      keys.withUnsafeMutableBufferPointer { keys in
        entries.withUnsafeMutableBufferPointer { entries in Self.siftUp(keys, entries, from: keys.count - 1) }
      }
    } else if limit > 0 && key < keys[0] {
      keys.withUnsafeMutableBufferPointer { keys in
        entries.withUnsafeMutableBufferPointer { entries in
          keys[0] = key
          entries[0] = (Int32(index), match)
          Self.siftDown(keys, entries, count: keys.count, from: 0)
        }
      }
    }
  }

  /// Moves the key at `start` up the max-heap `keys` until its parent's is larger, its payload
  /// beside it.
  @inlinable @inline(__always)
  static func siftUp<Payload>(
    _ keys: UnsafeMutableBufferPointer<UInt64>, _ payload: UnsafeMutableBufferPointer<Payload>, from start: Int
  ) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard keys[child] > keys[parent] else { return }
      keys.swapAt(child, parent)
      payload.swapAt(child, parent)
      child = parent
    }
  }

  /// Moves the key at `start` down the max-heap of the first `n` keys until no child's is
  /// larger, its payload beside it: the one sift-down of both the bounded heap's insertion and
  /// the heapsort of ``withAscendingEntries(_:)``. Unsafe views, read once, since an array's every
  /// swap would check its uniqueness and bounds.
  @inlinable @inline(__always)
  static func siftDown<Payload>(
    _ keys: UnsafeMutableBufferPointer<UInt64>, _ payload: UnsafeMutableBufferPointer<Payload>, count n: Int,
    from start: Int
  ) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      guard left < n else { return }
      var largest = keys[left] > keys[parent] ? left : parent
      if left + 1 < n && keys[left + 1] > keys[largest] { largest = left + 1 }
      if largest == parent { return }
      keys.swapAt(parent, largest)
      payload.swapAt(parent, largest)
      parent = largest
    }
  }

  /// The kept matches, best first.
  public func sortedEntries() -> [(index: Int32, match: Match)] {
    withAscendingEntries { Array($0) }
  }

  /// The result: the kept matches best first.
  @inlinable
  public func result(_ query: NormalizedQuery, mode: MatchMode, corpus: Corpus) -> SearchResult {
    let hits = withAscendingEntries { sorted in
      sorted.map { SearchHit(index: Int($0.index), id: corpus.id(at: Int($0.index)), match: $0.match) }
    }
    return SearchResult(normalized: query, mode: mode, total: total, hits: hits)
  }

  /// Calls `body` with the kept matches, best (lowest key) first: the heap popped on copies of
  /// its keys and entries, the second half of a heapsort (its first, building the heap, is
  /// done), in temporary memory. A sort of the positions comparing their keys through a
  /// closure, as this was, cost 2,000–2,500 instructions of a walked keystroke on `cities`; a
  /// heapsort of positions, then a map through them, about 1,500. The keys of different places
  /// differ (``Ranking/key(_:place:)``), so the order is the same as any sort's.
  ///
  /// - Complexity: O(k log k) for the k matches kept.
  @inlinable
  func withAscendingEntries<R>(_ body: (UnsafeBufferPointer<(index: Int32, match: Match)>) -> R) -> R {
    keys.withUnsafeBufferPointer { keptKeys in
      entries.withUnsafeBufferPointer { keptEntries in
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: keptKeys.count) { keys in
          withUnsafeTemporaryAllocation(of: (index: Int32, match: Match).self, capacity: keptEntries.count) {
            entries in
            _ = keys.initialize(fromContentsOf: keptKeys)
            _ = entries.initialize(fromContentsOf: keptEntries)
            // The largest key left goes last; the rest is a heap again once the new root sinks.
            for n in stride(from: keys.count - 1, to: 0, by: -1) {
              keys.swapAt(0, n)
              entries.swapAt(0, n)
              Self.siftDown(keys, entries, count: n, from: 0)
            }
            return body(UnsafeBufferPointer(entries))
          }
        }
      }
    }
  }
}
