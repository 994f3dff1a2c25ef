import CitySearch

/// A ``Match`` packed into 17 bits whose integer order is the match order (MatchSpec §5.3):
/// spelling class (1 bit), class (2), reading class (1), start (6), end (7). Names have at
/// most 63 units.
package struct PackedMatch: Comparable, Sendable {
  package var bits: UInt32

  package init(_ match: Match) {
    self.init(
      matchClass: match.matchClass, readingClass: match.readingClass, start: match.start, end: match.end,
      spellingClass: match.spellingClass)
  }

  package init(matchClass: Int, readingClass: Int, start: Int, end: Int, spellingClass: Int = 0) {
    bits =
      UInt32(spellingClass) << 16 | UInt32(matchClass) << 14 | UInt32(readingClass) << 13 | UInt32(start) << 7
      | UInt32(end)
  }

  /// Larger than every real match: the "none yet" value of a running minimum.
  package static let none = PackedMatch(bits: .max)
  package init(bits: UInt32) { self.bits = bits }

  package var match: Match {
    Match(
      start: Int(bits >> 7 & 0x3F), end: Int(bits & 0x7F), matchClass: Int(bits >> 14 & 3),
      readingClass: Int(bits >> 13 & 1), spellingClass: Int(bits >> 16 & 1))
  }
  /// Spelling, match and reading class, the part of the rank key that depends on the match.
  var rankPrefix: UInt64 { UInt64(bits >> 13) }

  package static func < (a: PackedMatch, b: PackedMatch) -> Bool { a.bits < b.bits }
}

/// ``RankKey`` as one integer: the match's classes above the place's rank ordinal
/// (``Corpus/rankOrdinal(at:)``), copied once per corpus into a flat table.
package struct RankingTable: Sendable {
  private let ordinals: ContiguousArray<UInt32>

  package init(corpus: Corpus) {
    ordinals = ContiguousArray((0..<corpus.count).lazy.map { UInt32(corpus.rankOrdinal(at: $0)) })
  }

  /// The rank key of `place` matched as `match`; keys order places exactly as ``RankKey`` does.
  @inline(__always)
  package func key(_ match: PackedMatch, place: Int) -> UInt64 { match.rankPrefix << 32 | UInt64(ordinals[place]) }
}

/// Counts matches and keeps the best `limit` by rank key in a bounded max-heap, so that ranking
/// costs O(n log limit) for n matches rather than a sort of all of them.
package struct TopK {
  package let limit: Int
  package private(set) var total = 0
  private var keys: [UInt64] = []
  private var entries: [(index: Int32, match: PackedMatch)] = []

  package init(limit: Int) {
    self.limit = max(limit, 0)
    keys.reserveCapacity(min(self.limit, 1024))
    entries.reserveCapacity(min(self.limit, 1024))
  }

  @inline(__always)
  package mutating func insert(key: UInt64, index: Int, match: PackedMatch) {
    total += 1
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

  private mutating func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard keys[child] > keys[parent] else { return }
      keys.swapAt(child, parent)
      entries.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ start: Int) {
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
  package func sortedEntries() -> [(index: Int32, match: PackedMatch)] {
    keys.indices.sorted { keys[$0] < keys[$1] }.map { entries[$0] }
  }

  /// The result: the kept matches best first.
  package func result(_ query: NormalizedQuery, mode: MatchMode, corpus: Corpus) -> SearchResult {
    let order = keys.indices.sorted { keys[$0] < keys[$1] }
    let hits = order.map { i -> SearchHit in
      let index = Int(entries[i].index)
      return SearchHit(index: index, id: corpus.id(at: index), match: entries[i].match.match)
    }
    return SearchResult(normalized: query, mode: mode, total: total, hits: hits)
  }
}
