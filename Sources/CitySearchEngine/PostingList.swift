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

/// Intersects posting lists and calls `body` with each common place, ascending; only with the
/// places in `range` when it is given.
///
/// - Complexity: as ``PostingIntersection/forEachPlace(in:_:)``.
@inlinable
public func forEachCommonPlace(_ lists: [PostingList], in range: Range<Int>? = nil, _ body: (Int) -> Void) {
  guard !lists.isEmpty else { return }
  PostingIntersection(lists, placeCount: 0).forEachPlace(in: range, body)
}
