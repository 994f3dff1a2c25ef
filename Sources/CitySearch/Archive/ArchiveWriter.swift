import Foundation

/// Writes a binary file of this package: a header (8 magic bytes, the format, the file's
/// length), then integers and tables of integers little-endian and texts as UTF-8 with their
/// length, and, at ``finished()``, a checksum of every byte. ``ArchiveReader`` checks the
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

  /// Appends the number of `values` (64 bits) and each, little-endian.
  ///
  /// - Complexity: O(n), one copy on a little-endian machine.
  @inlinable
  public mutating func table<T: FixedWidthInteger>(_ values: some Collection<T>) {
    integer(UInt64(values.count))
    let written = values.withContiguousStorageIfAvailable { buffer in
      if 1.littleEndian == 1 { data.append(contentsOf: UnsafeRawBufferPointer(buffer)) } else { appendSwapped(buffer) }
    }
    if written == nil { ContiguousArray(values).withUnsafeBufferPointer { appendSwapped($0) } }
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
/// differs changes it; it reads memory at its bandwidth (a 100 MB index in a few
/// milliseconds), not a byte at a time. A check against accident, not against an adversary.
public enum ArchiveChecksum {
  /// The checksum of `bytes`.
  ///
  /// - Complexity: O(n), one pass.
  public static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    // Four lanes in one vector register: the loop is two vector adds per 32 bytes.
    var sums = SIMD4<UInt64>(1, 2, 3, 4)
    var weighted = SIMD4<UInt64>(repeating: 0)
    let words = bytes.count / 32 * 32
    var offset = 0
    while offset < words {
      var word = bytes.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt64>.self)
      if 1.littleEndian != 1 {
        word = SIMD4(word[0].littleEndian, word[1].littleEndian, word[2].littleEndian, word[3].littleEndian)
      }
      sums &+= word
      weighted &+= sums
      offset += 32
    }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
    func mix(_ word: UInt64) { hash = (hash ^ word) &* 0x0000_0100_0000_01B3 ^ (hash >> 29) }
    for lane in 0..<4 { mix(sums[lane]) }
    for lane in 0..<4 { mix(weighted[lane]) }
    for byte in bytes[words...] { mix(UInt64(byte)) }
    return hash
  }
}
