import CitySearch
import CitySearchTestSupport
import Foundation
import Testing

/// The tables an index is read into (`IntegerTable`): of their own memory or where they lie in
/// a mapped file, the same values either way; and the checksum that guards them, the same
/// whether it is summed in one pass or in parts on several cores.
@Suite(.timed) struct IntegerTableTests {
  @Test func aTableHoldsWhatItWasMadeOf() {
    let values: [Int32] = [0, 3, 3, 9, -4]
    let table = IntegerTable<Int32>(values)
    #expect(table.count == 5)
    #expect(Array(table) == values)
    #expect(table[3] == 9)
    #expect(table.last == -4)
    let middle: Slice<IntegerTable<Int32>> = table[1..<3]
    #expect(Array(middle) == [3, 3])
    #expect(middle.startIndex == 1)
    let same = IntegerTable<Int32>([0, 3, 3, 9, -4])
    let shorter = IntegerTable<Int32>([0, 3, 3, 9])
    #expect(table == same)
    #expect(table != shorter)
    #expect(IntegerTable<UInt8>().isEmpty)
    #expect(IntegerTable<UInt64>([]).count == 0)
    let filled = IntegerTable<UInt16>(count: 4) { $0[2] = 7 }
    #expect(Array(filled) == [0, 0, 7, 0])
    let large = IntegerTable<UInt32>((1...100_000).lazy.map { UInt32($0) })
    #expect(large.reduce(UInt64(0)) { $0 + UInt64($1) } == 5_000_050_000)
    let viewed: [Int32] = table.withUnsafeBufferPointer { Array($0) }
    #expect(viewed == values)
  }

  /// Every table of a file, read where it lies from the mapped file and copied from its bytes:
  /// the same values, whatever the alignment of what comes before it.
  @Test func aMappedFilesTablesAreTheValuesWritten() throws {
    var writer = ArchiveWriter(magic: Array("TABLETST".utf8), format: 1)
    let bytes = ContiguousArray((0..<1_001).map { UInt8(truncatingIfNeeded: $0 * 7) })
    let words = ContiguousArray((0..<333).map { UInt64($0) * 0x0101_0101_0101 })
    let halves = ContiguousArray((0..<77).map { Int16($0 - 40) })
    for skew in 0..<8 {
      writer.bytes([UInt8](repeating: 0xAB, count: skew))
      writer.table(bytes)
      writer.table(words)
      writer.table(halves)
      writer.text("after \(skew)")
    }
    let data = writer.finished()
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tables-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("tables").path
    try data.write(to: URL(fileURLWithPath: path))

    let magic = Array("TABLETST".utf8)
    var mapped = try ArchiveReader(mapped: MappedFile(path: path), magic: magic, format: 1, kind: "a test file")
    var copied = try ArchiveReader(data: data, magic: magic, format: 1, kind: "a test file")
    var kept: [IntegerTable<UInt64>] = []
    for skew in 0..<8 {
      #expect(mapped.bytes(skew) == [UInt8](repeating: 0xAB, count: skew))
      _ = copied.bytes(skew)
      let (b, w, h): (IntegerTable<UInt8>, IntegerTable<UInt64>, IntegerTable<Int16>) = try (
        mapped.integerTable("bytes"), mapped.integerTable("words"), mapped.integerTable("halves")
      )
      #expect(Array(b) == Array(bytes))
      #expect(Array(w) == Array(words))
      #expect(Array(h) == Array(halves))
      let (cb, cw, ch): (ContiguousArray<UInt8>, ContiguousArray<UInt64>, ContiguousArray<Int16>) = try (
        copied.table("bytes"), copied.table("words"), copied.table("halves")
      )
      #expect(cb == bytes)
      #expect(cw == words)
      #expect(ch == halves)
      let texts = try (mapped.text("text"), copied.text("text"))
      #expect(texts.0 == "after \(skew)")
      #expect(texts.1 == "after \(skew)")
      kept.append(w)
    }
    try mapped.finish()
    // The tables keep the mapping alive once the reader and the file are gone.
    mapped = try ArchiveReader(data: data, magic: magic, format: 1, kind: "a test file")
    for table in kept { #expect(Array(table) == Array(words)) }
  }

  @Test func theChecksumIsTheSameInOnePassAndInParts() {
    var random = SystemRandomNumberGenerator()
    for count in [0, 1, 31, 32, 33, 1_000, 65_537, 1 << 20] {
      let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
      bytes.withUnsafeBytes { buffer in
        let whole = ArchiveChecksum.of(buffer, parts: 1)
        for parts in [2, 3, 7, 64] {
          let parted: UInt64 = ArchiveChecksum.of(buffer, parts: parts)
          #expect(parted == whole, "\(count) bytes in \(parts) parts")
        }
        let chosen: UInt64 = ArchiveChecksum.of(buffer)
        #expect(chosen == whole)
      }
    }
    // A flipped bit in any part changes it.
    var bytes = [UInt8](repeating: 5, count: 1 << 16)
    let before: UInt64 = bytes.withUnsafeBytes { ArchiveChecksum.of($0, parts: 4) }
    bytes[40_000] ^= 0x10
    let after: UInt64 = bytes.withUnsafeBytes { ArchiveChecksum.of($0, parts: 4) }
    #expect(after != before)
  }
}
