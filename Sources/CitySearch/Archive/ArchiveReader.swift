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

  /// The next table (a 64-bit count and the values, little-endian).
  ///
  /// - Complexity: O(n), one copy on a little-endian machine.
  @inlinable
  public mutating func table<T: FixedWidthInteger>(_ table: String) throws(ArchiveError) -> ContiguousArray<T> {
    let count: UInt64 = try integer(table)
    let size = MemoryLayout<T>.size
    guard count <= UInt64(max(end - offset, 0)) / UInt64(size) else { throw .truncated(table) }
    let byteCount = Int(count) * size
    let start = offset - data.startIndex
    var values = data.withUnsafeBytes { source in
      ContiguousArray<T>(unsafeUninitializedCapacity: Int(count)) { target, initialized in
        UnsafeMutableRawBufferPointer(target).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: source[start..<start + byteCount]))
        initialized = Int(count)
      }
    }
    offset += byteCount
    if byteCount >= 1 << 20 { mapped?.releasePages(start..<start + byteCount) }
    if 1.littleEndian != 1 { for i in values.indices { values[i] = T(littleEndian: values[i]) } }
    return values
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

extension ContiguousArray where Element: FixedWidthInteger {
  /// Whether these are the `count` offsets of consecutive ranges of a table of `total` values:
  /// from 0, never decreasing, ending at `total`.
  ///
  /// - Complexity: O(n).
  @inlinable
  public func areOffsets(count: Int, total: Int) -> Bool {
    guard self.count == count, count > 0, first == 0, Int(self[count - 1]) == total else { return false }
    return withUnsafeBufferPointer { offsets in
      for i in 1..<offsets.count where offsets[i] < offsets[i - 1] { return false }
      return true
    }
  }

  /// Whether these and `ends` are as many ranges, each from its start here to its end there,
  /// inside a table of `total` values.
  ///
  /// - Complexity: O(n).
  @inlinable
  public func areRanges(to ends: ContiguousArray<Element>, within total: Int) -> Bool {
    count == ends.count && zip(self, ends).allSatisfy { $0 >= 0 && $0 <= $1 && Int($1) <= total }
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
    withUnsafeBufferPointer { values in
      for value in values { guard let index = Int(exactly: value), range.contains(index) else { return false } }
      return true
    }
  }
}
