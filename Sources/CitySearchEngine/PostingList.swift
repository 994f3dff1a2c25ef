import CitySearch

/// One key's places, ascending without repeats: a slice of a sorted table of place indices, or
/// a bitset over every place of the corpus when that takes fewer bytes (``PostingLists``: a key
/// that more than one place in 32 holds).
///
/// A dense key costs `placeCount / 8` bytes however many places hold it (80 KB on `villages`
/// against 4 bytes a place as a sorted list: the 244 lists there that hold more than one place
/// in 32 took 86 MB, their bitsets take 20 MB), and a place is tested for it in O(1).
public struct PostingList: Sequence, Sendable {
  @usableFromInline enum Storage: Sendable {
    case sorted(Slice<IntegerTable<Int32>>)
    /// Bit `p % 64` of word `p / 64` is set for each place `p` that holds the key.
    case bits(Slice<IntegerTable<UInt64>>)
  }

  @usableFromInline let storage: Storage
  /// How many places it holds.
  public let count: Int

  /// The places of `sorted`, ascending without repeats.
  @inlinable
  public init(_ sorted: Slice<IntegerTable<Int32>>) {
    storage = .sorted(sorted)
    count = sorted.count
  }

  /// The places whose bits are set in `bits`, `count` of them.
  @inlinable
  init(bits: Slice<IntegerTable<UInt64>>, count: Int) {
    storage = .bits(bits)
    self.count = count
  }

  /// The places whose bits are set in `bits` (bit `p % 64` of word `p / 64` for place `p`).
  ///
  /// - Complexity: O(w) to count the w words' bits.
  public init(bits: IntegerTable<UInt64>) {
    self.init(bits: bits[...], count: bits.reduce(0) { $0 + $1.nonzeroBitCount })
  }

  /// Whether it holds no place.
  @inlinable
  public var isEmpty: Bool { count == 0 }

  /// The places in ascending order.
  public struct Iterator: IteratorProtocol {
    @usableFromInline let storage: Storage
    @usableFromInline var position: Int
    /// The bits of the current word not yet returned (bitsets only).
    @usableFromInline var word: UInt64 = 0

    @inlinable
    init(_ storage: Storage) {
      self.storage = storage
      switch storage {
      case .sorted(let places): position = places.startIndex
      case .bits(let words): position = words.startIndex - 1
      }
    }

    /// The next place, or `nil` after the last.
    @inlinable
    public mutating func next() -> Int32? {
      switch storage {
      case .sorted(let places):
        guard position < places.endIndex else { return nil }
        defer { position += 1 }
        return places[position]
      case .bits(let words):
        while word == 0 {
          position += 1
          guard position < words.endIndex else { return nil }
          word = words[position]
        }
        let bit = word.trailingZeroBitCount
        word &= word - 1
        return Int32((position - words.startIndex) * 64 + bit)
      }
    }
  }

  /// An iterator over the places, ascending.
  @inlinable
  public func makeIterator() -> Iterator { Iterator(storage) }

  /// The exact count: every place is iterated.
  @inlinable
  public var underestimatedCount: Int { count }
}

/// Intersects posting lists and calls `body` with each common place, ascending.
///
/// - Complexity: with a sorted list among them, O(s · (b + log L)) for the shortest sorted list's
///   length s, b bitsets and the longest sorted list L (a galloping search from a cursor in each
///   other sorted list, one bit test in each bitset); with bitsets only, O(b · P / 64) for P
///   places, their words ANDed. One list is walked in place without copying.
@inlinable
public func forEachCommonPlace(_ lists: [PostingList], _ body: (Int) -> Void) {
  guard !lists.isEmpty else { return }
  var sorted: [Slice<IntegerTable<Int32>>] = []
  var bitsets: [Slice<IntegerTable<UInt64>>] = []
  for list in lists {
    switch list.storage {
    case .sorted(let places): sorted.append(places)
    case .bits(let words): bitsets.append(words)
    }
  }
  guard !sorted.isEmpty else {
    let first = bitsets[0]
    for w in 0..<first.count {
      var word = first[first.startIndex + w]
      for other in bitsets.dropFirst() where word != 0 { word &= other[other.startIndex + w] }
      while word != 0 {
        body(w * 64 + word.trailingZeroBitCount)
        word &= word - 1
      }
    }
    return
  }
  sorted.sort { $0.count < $1.count }
  if sorted.count == 1 && bitsets.isEmpty {
    for place in sorted[0] { body(Int(place)) }
    return
  }
  var cursors = sorted.map(\.startIndex)
  outer: for place in sorted[0] {
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
