import Foundation

/// Reads what ``ArchiveWriter`` wrote, in the same order, never past the end: the header and
/// the checksum are checked before anything else is read, and a read that does not fit in what
/// is left throws ``ArchiveError/truncated(_:)`` naming the table.
public struct ArchiveReader {
  @usableFromInline let data: Data
  @usableFromInline var offset: Int
  /// Where the checksum begins: nothing at or past it is read as a table.
  @usableFromInline let end: Int
  /// The mapping of ``data`` when the reader owns it: each large table's pages are given back
  /// once copied.
  @usableFromInline let mapped: MappedFile?

  /// A reader of the file `data` of the kind `magic` names (`kind` says it in words) in
  /// layout `format`, after its header; unless `verify` is false, only once its length and
  /// checksum have been checked.
  ///
  /// - Throws: ``ArchiveError``: another kind or format, a file shorter than its header says
  ///   (cut), longer, or whose bytes do not add up to its checksum.
  /// - Complexity: O(b) in the file's bytes, at memory bandwidth (``ArchiveChecksum``).
  public init(data: Data, magic: [UInt8], format: UInt32, kind: String, verify: Bool = true) throws(ArchiveError) {
    try self.init(data: data, mapped: nil, magic: magic, format: format, kind: kind, verify: verify)
  }

  /// A reader of the mapped file `file`, as ``init(data:magic:format:kind:verify:)``; the pages
  /// of each large table are given back once it is copied (``MappedFile/releasePages(_:)``).
  public init(mapped file: MappedFile, magic: [UInt8], format: UInt32, kind: String, verify: Bool = true)
    throws(ArchiveError)
  {
    try self.init(data: file.data, mapped: file, magic: magic, format: format, kind: kind, verify: verify)
  }

  private init(data: Data, mapped: MappedFile?, magic: [UInt8], format: UInt32, kind: String, verify: Bool)
    throws(ArchiveError)
  {
    self.mapped = mapped
    self.data = data
    offset = data.startIndex
    end = data.endIndex - 8
    guard data.count >= ArchiveWriter.headerSize + 8, bytes(8) == magic else {
      if data.count >= 8 && Array(data.prefix(8)) == magic { throw .truncated("the header") }
      throw .notThisKind(kind)
    }
    let found: UInt32 = try integer("the header")
    guard found == format else { throw .format(found: found, reads: format) }
    let length: UInt64 = try integer("the header")
    guard length <= UInt64(data.count) else { throw .cut(found: data.count, expected: Int(clamping: length)) }
    guard length == UInt64(data.count) else { throw .corrupted }
    guard verify else { return }
    let stored = data.suffix(8).enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }
    let computed = data.withUnsafeBytes {
      ArchiveChecksum.of(UnsafeRawBufferPointer(rebasing: $0[..<(data.count - 8)]))
    }
    guard stored == computed else { throw .corrupted }
  }

  /// Whether every byte has been read.
  public var isAtEnd: Bool { offset == end }

  /// The next `count` bytes, or fewer at the end of the file.
  public mutating func bytes(_ count: Int) -> [UInt8] {
    let last = min(offset + max(count, 0), data.endIndex)
    defer { offset = last }
    return Array(data[offset..<last])
  }

  /// The next little-endian integer; `table` names what is read, for the error.
  @inlinable
  public mutating func integer<T: FixedWidthInteger>(_ table: String) throws(ArchiveError) -> T {
    let size = MemoryLayout<T>.size
    guard end - offset >= size else { throw .truncated(table) }
    var value: T = 0
    for (i, byte) in data[offset..<offset + size].enumerated() { value |= T(truncatingIfNeeded: byte) << (8 * i) }
    offset += size
    return value
  }

  /// The next text (a 32-bit length and UTF-8 bytes).
  public mutating func text(_ table: String) throws(ArchiveError) -> String {
    let count: UInt32 = try integer(table)
    guard end - offset >= Int(count) else { throw .truncated(table) }
    guard let text = String(bytes: bytes(Int(count)), encoding: .utf8) else { throw .badTable(table) }
    return text
  }

  /// The next table (a 64-bit count, the padding to its alignment and the values,
  /// little-endian), copied into an array.
  ///
  /// - Complexity: O(n), one copy on a little-endian machine.
  @inlinable
  public mutating func table<T: FixedWidthInteger>(_ table: String) throws(ArchiveError) -> ContiguousArray<T> {
    let (count, start) = try tableBounds(of: T.self, table)
    return copiedTable(count: count, start: start)
  }

  /// The next table, as ``table(_:)`` reads it, but where it lies when the reader's file is
  /// mapped (``init(mapped:magic:format:kind:verify:)``) and the machine little-endian: a view
  /// that keeps the mapping alive, without a copy. Otherwise a copy of its own.
  ///
  /// - Complexity: O(1) for a view of a mapped file; O(n) for a copy.
  public mutating func integerTable<T: FixedWidthInteger>(_ table: String) throws(ArchiveError) -> IntegerTable<T> {
    let (count, start) = try tableBounds(of: T.self, table)
    if let mapped, 1.littleEndian == 1, let pointer = mapped.pointer(at: start, aligned: T.self) {
      offset += count * MemoryLayout<T>.size
      return IntegerTable(viewing: pointer, count: count, owner: mapped)
    }
    return IntegerTable(copiedTable(count: count, start: start) as ContiguousArray<T>)
  }

  /// The `count` values at byte `start` of ``data`` (from its start), copied; the reader moves
  /// past them, and a mapped file's pages under a large table are given back.
  @usableFromInline
  mutating func copiedTable<T: FixedWidthInteger>(count: Int, start: Int) -> ContiguousArray<T> {
    let byteCount = count * MemoryLayout<T>.size
    var values = data.withUnsafeBytes { source in
      ContiguousArray<T>(unsafeUninitializedCapacity: count) { target, initialized in
        UnsafeMutableRawBufferPointer(target).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: source[start..<start + byteCount]))
        initialized = count
      }
    }
    offset += byteCount
    if byteCount >= 1 << 20 { mapped?.releasePages(start..<start + byteCount) }
    if 1.littleEndian != 1 { for i in values.indices { values[i] = T(littleEndian: values[i]) } }
    return values
  }

  /// Reads a table's count and skips its padding: the count and the values' byte offset in
  /// ``data`` (from its start), the values checked to fit before the checksum.
  @usableFromInline
  mutating func tableBounds<T: FixedWidthInteger>(of type: T.Type, _ table: String) throws(ArchiveError) -> (
    count: Int, start: Int
  ) {
    let count: UInt64 = try integer(table)
    let alignment = ArchiveWriter.tableAlignment
    let padding = (alignment - (offset - data.startIndex) % alignment) % alignment
    guard end - offset >= padding else { throw .truncated(table) }
    offset += padding
    let size = MemoryLayout<T>.size
    guard count <= UInt64(max(end - offset, 0)) / UInt64(size) else { throw .truncated(table) }
    return (Int(count), offset - data.startIndex)
  }

  /// What ``ArchiveWriter/optional(_:_:)`` wrote: `nil` when the value is not there, else
  /// what `read` reads of it; `table` names it in an error.
  public mutating func optional<T>(_ table: String, _ read: (inout ArchiveReader) throws(ArchiveError) -> T)
    throws(ArchiveError) -> T?
  {
    let kept: UInt8 = try integer(table)
    try require(kept <= 1, table)
    return kept == 1 ? try read(&self) : nil
  }

  /// Throws ``ArchiveError/badTable(_:)`` naming `table` unless `condition` holds.
  public func require(_ condition: Bool, _ table: String) throws(ArchiveError) {
    if !condition { throw .badTable(table) }
  }

  /// Checks that every table was read: what is left is the checksum.
  ///
  /// - Throws: ``ArchiveError/badTable(_:)`` when more follows the last table.
  public func finish() throws(ArchiveError) {
    guard offset == end else { throw .badTable("the file's end (bytes after the last table)") }
  }
}

/// The checks a reader makes of the tables it reads, on arrays and ``IntegerTable``s alike:
/// one pass over contiguous storage each.
extension RandomAccessCollection where Element: FixedWidthInteger, Index == Int {
  /// Whether these are the `count` offsets of consecutive ranges of a table of `total` values:
  /// from 0, never decreasing, ending at `total`.
  ///
  /// - Complexity: O(n).
  @inlinable
  public func areOffsets(count: Int, total: Int) -> Bool {
    guard self.count == count, count > 0, self[startIndex] == 0, Int(self[endIndex - 1]) == total else {
      return false
    }
    return withValues { values in
      var previous = values[0]
      var ordered = true
      for value in values {
        ordered = ordered && value >= previous
        previous = value
      }
      return ordered
    }
  }

  /// Whether these and `ends` are as many ranges, each from its start here to its end there,
  /// inside a table of `total` values.
  ///
  /// - Complexity: O(n).
  @inlinable
  public func areRanges(to ends: Self, within total: Int) -> Bool {
    guard count == ends.count else { return false }
    return withValues { starts in
      ends.withValues { ends in
        var inside = true
        for i in starts.indices {
          inside = inside && starts[i] >= 0 && starts[i] <= ends[i] && Int(ends[i]) <= total
        }
        return inside
      }
    }
  }

  /// Whether each value is greater than the one before it.
  ///
  /// - Complexity: O(n).
  @inlinable
  public var isStrictlyIncreasing: Bool { zip(self, dropFirst()).allSatisfy { $0 < $1 } }

  /// Whether every value lies in `range`.
  ///
  /// - Complexity: O(n).
  @inlinable
  public func allLie(in range: Range<Int>) -> Bool {
    withValues { values in
      // The smallest and the largest, without a branch per value: the loop vectorizes.
      guard var low = values.first else { return true }
      var high = low
      for value in values {
        low = Swift.min(low, value)
        high = Swift.max(high, value)
      }
      guard let first = Int(exactly: low), let last = Int(exactly: high) else { return false }
      return range.contains(first) && range.contains(last)
    }
  }

  /// Calls `body` with the values as a buffer: without a copy when they are contiguous.
  @inlinable
  func withValues<R>(_ body: (UnsafeBufferPointer<Element>) -> R) -> R {
    if let result = withContiguousStorageIfAvailable(body) { return result }
    return ContiguousArray(self).withUnsafeBufferPointer(body)
  }
}
