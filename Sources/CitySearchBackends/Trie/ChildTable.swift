/// The edges of a trie under construction: (node, label) to child, in one open-addressed table
/// of integer keys (linear probing, a multiplicative hash), grown by doubling at half full.
///
/// A `Dictionary<UInt64, Int32>` did the same at about twice the cost of the whole insertion:
/// it hashes every key with SipHash and checks its storage for uniqueness at every write, and a
/// suffix trie of `villages` asks it about five million times.
struct ChildTable: ~Copyable {
  /// The key of no edge: no node reaches 2⁴⁰.
  private static let empty = UInt64.max
  private var keys: UnsafeMutableBufferPointer<UInt64>
  private var children: UnsafeMutableBufferPointer<Int32>
  private var count = 0
  /// 64 less the bits of the capacity: the hash is the product's top bits.
  private var shift: UInt64

  /// An empty table that holds `expected` edges before it grows.
  init(expected: Int) {
    let bits = max(4, Int.bitWidth - (2 * max(expected, 1) - 1).leadingZeroBitCount)
    keys = .allocate(capacity: 1 << bits)
    keys.initialize(repeating: Self.empty)
    children = .allocate(capacity: 1 << bits)
    children.initialize(repeating: 0)
    shift = UInt64(64 - bits)
  }

  deinit {
    keys.deallocate()
    children.deallocate()
  }

  @inline(__always)
  private static func key(_ node: Int32, _ label: Int32) -> UInt64 { UInt64(node) << 24 | UInt64(label) }

  @inline(__always)
  private func slot(of key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift) }

  /// The child of `node` by the edge labelled `label`; when there is none, `make()`'s node,
  /// which becomes that child.
  ///
  /// - Complexity: O(1) expected.
  @inline(__always)
  mutating func child(of node: Int32, label: Int32, orInsert make: () -> Int32) -> Int32 {
    let key = Self.key(node, label)
    let mask = keys.count - 1
    var i = slot(of: key)
    while true {
      let found = keys[i]
      if found == key { return children[i] }
      if found == Self.empty { break }
      i = (i + 1) & mask
    }
    let child = make()
    keys[i] = key
    children[i] = child
    count += 1
    if 2 * count > keys.count { grow() }
    return child
  }

  /// Doubles the capacity, placing every edge again.
  private mutating func grow() {
    let (oldKeys, oldChildren) = (keys, children)
    keys = .allocate(capacity: 2 * oldKeys.count)
    keys.initialize(repeating: Self.empty)
    children = .allocate(capacity: 2 * oldKeys.count)
    children.initialize(repeating: 0)
    shift -= 1
    let mask = keys.count - 1
    for (key, child) in zip(oldKeys, oldChildren) where key != Self.empty {
      var i = slot(of: key)
      while keys[i] != Self.empty { i = (i + 1) & mask }
      keys[i] = key
      children[i] = child
    }
    oldKeys.deallocate()
    oldChildren.deallocate()
  }
}
