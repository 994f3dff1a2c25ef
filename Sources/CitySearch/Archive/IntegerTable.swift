import Foundation

/// A read-only table of fixed-width integers: either memory of its own, or a view of the bytes
/// of a mapped index file (``ArchiveReader/integerTable(_:)``), so that opening an index does
/// not copy its tables (`villages`: 140 MB) but maps them and reads them where they lie.
///
/// A table is a value: copies share one storage, which lives as long as any of them (and with
/// it the mapping of its file). Its subscript checks bounds as an array's does.
///
/// ```swift
/// let starts = IntegerTable<Int32>([0, 3, 5])
/// starts[1]  // 3
/// ```
public struct IntegerTable<Element: FixedWidthInteger>: RandomAccessCollection, @unchecked Sendable {
  /// Keeps the elements alive: memory of its own, or the file they are mapped from.
  @usableFromInline let owner: AnyObject
  @usableFromInline let base: UnsafePointer<Element>
  /// The number of elements.
  public let count: Int

  /// A table of `values`, copied into memory of its own.
  ///
  /// - Complexity: O(n).
  public init(_ values: some Collection<Element>) {
    let storage = OwnedTableStorage(byteCount: values.count * MemoryLayout<Element>.stride)
    let target = storage.pointer.bindMemory(to: Element.self, capacity: Swift.max(values.count, 1))
    let copied = values.withContiguousStorageIfAvailable { source in
      target.initialize(from: source.baseAddress!, count: source.count)
      return source.count
    }
    var written = copied ?? 0
    if copied == nil {
      for value in values {
        (target + written).initialize(to: value)
        written += 1
      }
    }
    precondition(written == values.count, "a collection that yields fewer elements than its count")
    (owner, base, count) = (storage, UnsafePointer(target), written)
  }

  /// A table of `count` elements filled by `initialize`, which must write every one.
  ///
  /// - Complexity: O(n), without a copy.
  public init(count: Int, initializingWith initialize: (UnsafeMutableBufferPointer<Element>) throws -> Void) rethrows {
    let storage = OwnedTableStorage(byteCount: count * MemoryLayout<Element>.stride)
    let target = storage.pointer.bindMemory(to: Element.self, capacity: Swift.max(count, 1))
    let buffer = UnsafeMutableBufferPointer<Element>(start: target, count: count)
    buffer.initialize(repeating: 0)
    try initialize(buffer)
    (owner, base, self.count) = (storage, UnsafePointer(target), count)
  }

  /// A view of `count` elements at `pointer`, which `owner` keeps alive and unchanged.
  init(viewing pointer: UnsafePointer<Element>, count: Int, owner: AnyObject) {
    (self.owner, base, self.count) = (owner, pointer, count)
  }

  /// An empty table.
  public init() { self.init(EmptyCollection()) }

  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { count }

  /// The element at `index`, which must lie in `0..<count`.
  @inlinable
  public subscript(index: Int) -> Element {
    precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "an index outside the table")
    return base[index]
  }

  /// The element at `index`, which must lie in `0..<count`, read without checking so in a
  /// release build: for the hot loops of a structure whose tables were checked against each
  /// other when they were built or read (a trie's edges lead to its nodes, its subtrees lie in
  /// its postings), where every index comes from another of its tables.
  @inlinable
  public subscript(unchecked index: Int) -> Element {
    assert(UInt(bitPattern: index) < UInt(bitPattern: count), "an index outside the table")
    return base[index]
  }

  /// Calls `body` with the elements as a buffer, without a copy (valid during the call: the
  /// table, and with it its owner, is borrowed for it).
  @inlinable
  public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
    try body(UnsafeBufferPointer(start: base, count: count))
  }

  /// The elements as a buffer, without a copy or a closure: valid only while this table, or a
  /// value that holds it (a corpus holds its tables), is alive, as ``PlaceMatcher/withPlaces(readings:_:)``
  /// keeps the corpus and the readings it views (a trie's walk holds the tables it views).
  @inlinable
  public var unsafeElements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

  @inlinable
  public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R? {
    try withUnsafeBufferPointer(body)
  }
}

extension IntegerTable: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.count == rhs.count && (lhs.base == rhs.base || lhs.elementsEqual(rhs))
  }
}

extension IntegerTable: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) { self.init(elements) }
}

/// Memory a table owns, freed with it.
final class OwnedTableStorage {
  let pointer: UnsafeMutableRawPointer

  init(byteCount: Int) {
    pointer = .allocate(byteCount: max(byteCount, 16), alignment: 16)
  }

  deinit { pointer.deallocate() }
}
