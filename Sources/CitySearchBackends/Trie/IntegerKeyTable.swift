/// A map from 64-bit keys to `Int32` values that only grows, for building a trie: one
/// open-addressed table (linear probing, a multiplicative hash), doubled at half full.
///
/// A `Dictionary<UInt64, Int32>` did the same at about twice the cost of the whole insertion:
/// it hashes every key with SipHash and checks its storage for uniqueness at every write, and a
/// suffix trie of `villages` asks it about five million times.
struct IntegerKeyTable: ~Copyable {
  /// The key of no entry: keys must be below it.
  private static let empty = UInt64.max
  private var keys: UnsafeMutableBufferPointer<UInt64>
  private var values: UnsafeMutableBufferPointer<Int32>
  /// The number of entries.
  private(set) var count = 0
  /// 64 less the bits of the capacity: the hash is the product's top bits.
  private var shift: UInt64

  /// An empty table that holds `expected` entries before it grows.
  init(expected: Int) {
    let bits = max(4, Int.bitWidth - (2 * max(expected, 1) - 1).leadingZeroBitCount)
    keys = .allocate(capacity: 1 << bits)
    keys.initialize(repeating: Self.empty)
    values = .allocate(capacity: 1 << bits)
    values.initialize(repeating: 0)
    shift = UInt64(64 - bits)
  }

  deinit {
    keys.deallocate()
    values.deallocate()
  }

  @inline(__always)
  private func slot(of key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift) }

  /// The value of `key`, or `nil` when it has none.
  ///
  /// - Complexity: O(1) expected.
  @inline(__always)
  func value(for key: UInt64) -> Int32? {
    let mask = keys.count - 1
    var i = slot(of: key)
    while true {
      let found = keys[i]
      if found == key { return values[i] }
      if found == Self.empty { return nil }
      i = (i + 1) & mask
    }
  }

  /// The value of `key`; when it has none, `make()`'s, which becomes its value.
  ///
  /// - Complexity: O(1) expected.
  @inline(__always)
  mutating func value(for key: UInt64, orInsert make: () -> Int32) -> Int32 {
    precondition(key != Self.empty, "a key of the table's own")
    let mask = keys.count - 1
    var i = slot(of: key)
    while true {
      let found = keys[i]
      if found == key { return values[i] }
      if found == Self.empty { break }
      i = (i + 1) & mask
    }
    let value = make()
    keys[i] = key
    values[i] = value
    count += 1
    if 2 * count > keys.count { grow() }
    return value
  }

  /// Doubles the capacity, placing every entry again.
  private mutating func grow() {
    let (oldKeys, oldValues) = (keys, values)
    keys = .allocate(capacity: 2 * oldKeys.count)
    keys.initialize(repeating: Self.empty)
    values = .allocate(capacity: 2 * oldKeys.count)
    values.initialize(repeating: 0)
    shift -= 1
    let mask = keys.count - 1
    for (key, value) in zip(oldKeys, oldValues) where key != Self.empty {
      var i = slot(of: key)
      while keys[i] != Self.empty { i = (i + 1) & mask }
      keys[i] = key
      values[i] = value
    }
    oldKeys.deallocate()
    oldValues.deallocate()
  }
}
