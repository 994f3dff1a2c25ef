import Foundation

/// Writes a binary file of this package: a header (8 magic bytes, the format, the file's
/// length), then integers and tables of integers little-endian and texts as UTF-8 with their
/// length, and, at ``finished()``, a checksum of every byte. A table's values begin at a
/// multiple of 8 bytes from the file's start (zeros pad the gap), so that a reader of a mapped
/// file can use them where they lie (``ArchiveReader/integerTable(_:)``). ``ArchiveReader`` checks the
/// header and the checksum before anything else is read, then reads the rest in the same order.
///
/// ```swift
/// var writer = ArchiveWriter(magic: Array("MYKIND\0\0".utf8), format: 1)
/// writer.table(ContiguousArray<Int32>([3, 1, 2]))
/// let data = writer.finished()
/// ```
public struct ArchiveWriter {
  @usableFromInline var data = Data()
  /// Where the header holds the file's length: after the magic and the format.
  static let lengthOffset = 12
  /// The header's size: magic, format, length.
  static let headerSize = 20

  /// A file of the kind `magic` (8 bytes) names, in layout `format`.
  public init(magic: [UInt8], format: UInt32) {
    precondition(magic.count == 8, "an archive's magic is 8 bytes")
    bytes(magic)
    integer(format)
    integer(UInt64(0))  // the length, written by finished()
  }

  /// The bytes written so far.
  public var count: Int { data.count }

  /// Appends `bytes` as they are.
  public mutating func bytes(_ bytes: [UInt8]) { data.append(contentsOf: bytes) }

  /// Appends `value`, little-endian.
  @inlinable
  public mutating func integer<T: FixedWidthInteger>(_ value: T) {
    withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
  }

  /// Appends `value`'s UTF-8 length (32 bits) and bytes.
  public mutating func text(_ value: String) {
    integer(UInt32(value.utf8.count))
    bytes(Array(value.utf8))
  }

  /// The alignment of a table's values in the file.
  public static let tableAlignment = 8

  /// Appends the number of `values` (64 bits), zeros up to the next multiple of
  /// ``tableAlignment`` bytes, and each value, little-endian.
  ///
  /// - Complexity: O(n), one copy on a little-endian machine.
  @inlinable
  public mutating func table<T: FixedWidthInteger>(_ values: some Collection<T>) {
    integer(UInt64(values.count))
    let padding = (Self.tableAlignment - data.count % Self.tableAlignment) % Self.tableAlignment
    data.append(contentsOf: repeatElement(0 as UInt8, count: padding))
    let contiguous: Bool? = values.withContiguousStorageIfAvailable { buffer in
      if 1.littleEndian == 1 { data.append(contentsOf: UnsafeRawBufferPointer(buffer)) } else { appendSwapped(buffer) }
      return true
    }
    if contiguous == nil { ContiguousArray(values).withUnsafeBufferPointer { appendSwapped($0) } }
  }

  @usableFromInline mutating func appendSwapped<T: FixedWidthInteger>(_ values: UnsafeBufferPointer<T>) {
    for value in values { integer(value) }
  }

  /// Appends whether `value` is there (one byte) and, when it is, what `write` writes of it
  /// (``ArchiveReader/optional(_:_:)`` reads it back).
  public mutating func optional<T>(_ value: T?, _ write: (T, inout ArchiveWriter) -> Void) {
    integer(UInt8(value == nil ? 0 : 1))
    if let value { write(value, &self) }
  }

  /// The file: what was written, its length in the header, and its checksum
  /// (``ArchiveChecksum``, 64 bits) at the end. Completes the bytes in place (an index of
  /// hundreds of megabytes is not copied); write nothing after it.
  public mutating func finished() -> Data {
    withUnsafeBytes(of: UInt64(data.count + 8).littleEndian) { length in
      data.replaceSubrange(Self.lengthOffset..<Self.lengthOffset + 8, with: length)
    }
    let checksum = data.withUnsafeBytes { ArchiveChecksum.of($0) }
    withUnsafeBytes(of: checksum.littleEndian) { data.append(contentsOf: $0) }
    return data
  }
}

/// The checksum an archive ends with: two running sums of 64-bit words in four lanes (a
/// Fletcher sum), so that a flipped bit, a changed, swapped or missing word or a length that
/// differs changes it; it reads memory at its bandwidth, not a byte at a time, and a large
/// file in parts on every core (the parts' sums combine exactly: the same checksum either way).
/// A check against accident, not against an adversary.
public enum ArchiveChecksum {
  /// Files from this size up are summed in parts smaller than it, shared among the cores
  /// (parts rather than one per core: a fresh process's worker threads start late, and
  /// the parts left then are shared again).
  static let partSize = 8 << 20

  /// The checksum of `bytes`.
  ///
  /// - Complexity: O(n), one pass, shared among the cores for a large file.
  public static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    of(bytes, parts: ProcessInfo.processInfo.activeProcessorCount > 1 ? bytes.count / partSize + 1 : 1)
  }

  /// The checksum of `bytes`, its words summed in `parts` parts at once: the same for any
  /// number of parts.
  ///
  /// - Complexity: O(n), one pass shared among `parts` threads.
  public static func of(_ bytes: UnsafeRawBufferPointer, parts: Int) -> UInt64 {
    let words = bytes.count / 32
    let parts = max(1, min(parts, words))
    nonisolated(unsafe) let shared = bytes
    let partial = ConcurrentResults.map(count: parts, concurrently: parts > 1) { part in
      partSums(of: shared, words: words * part / parts..<words * (part + 1) / parts)
    }
    // A part of n words whose sums start from `sums` adds n × sums to the weighted sums.
    var sums = SIMD4<UInt64>(1, 2, 3, 4)
    var weighted = SIMD4<UInt64>(repeating: 0)
    for part in partial {
      weighted &+= part.weighted &+ SIMD4(repeating: UInt64(truncatingIfNeeded: part.words)) &* sums
      sums &+= part.sums
    }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
    func mix(_ word: UInt64) { hash = (hash ^ word) &* 0x0000_0100_0000_01B3 ^ (hash >> 29) }
    for lane in 0..<4 { mix(sums[lane]) }
    for lane in 0..<4 { mix(weighted[lane]) }
    for byte in bytes[(words * 32)...] { mix(UInt64(byte)) }
    return hash
  }

  /// The sums of the 32-byte words `words` of `bytes`, from zero: their sum per lane, and the
  /// sum of the running sums.
  private static func partSums(of bytes: UnsafeRawBufferPointer, words: Range<Int>) -> (
    sums: SIMD4<UInt64>, weighted: SIMD4<UInt64>, words: Int
  ) {
    // Four lanes in one vector register: the loop is two vector adds per 32 bytes.
    var sums = SIMD4<UInt64>(repeating: 0)
    var weighted = SIMD4<UInt64>(repeating: 0)
    var offset = words.lowerBound * 32
    let end = words.upperBound * 32
    while offset < end {
      var word = bytes.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt64>.self)
      if 1.littleEndian != 1 {
        word = SIMD4(word[0].littleEndian, word[1].littleEndian, word[2].littleEndian, word[3].littleEndian)
      }
      sums &+= word
      weighted &+= sums
      offset += 32
    }
    return (sums, weighted, words.count)
  }
}
