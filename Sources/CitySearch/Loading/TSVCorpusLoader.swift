import Foundation

/// Reads the corpus TSV format (Corpus/README.md):
///
///     id	parent	level	name	pinyin	short	hot
///     110000	0	1	北京市	bei jing shi	北京	1
///
/// `parent` is 0 for a top-level place; `pinyin` (space-separated, one token per character),
/// `short` and `hot` may be empty.
enum TSVCorpusLoader {
  static let header = "id\tparent\tlevel\tname\tpinyin\tshort\thot"
  static let columns = ["id", "parent", "level", "name", "pinyin", "short", "hot"]
  /// The largest id or level a corpus accepts (18 digits; ids are Int64).
  static let largestID: Int64 = 999_999_999_999_999_999

  static func load(_ bytes: [UInt8], file: String, into builder: inout CorpusBuilder) throws {
    try bytes.withUnsafeBufferPointer { buffer in
      var lineNumber = 0
      var lineStart = 0
      builder.reserveCapacity(bytes.count / 48)
      var fields: [Range<Int>] = []
      fields.reserveCapacity(8)
      while lineStart < buffer.count {
        var lineEnd = lineStart
        lineNumber += 1
        let at = RecordLocation(file: file, line: lineNumber)
        // The rules of TextLines, on bytes: LF or CRLF, no CR alone, bounded lines.
        let limit = min(buffer.count, lineStart + TextLines.maximumLineBytes + 1)
        while lineEnd < limit && buffer[lineEnd] != 0x0A {
          if buffer[lineEnd] == 0x0D && (lineEnd + 1 == buffer.count || buffer[lineEnd + 1] != 0x0A) {
            throw CorpusError.badText(at, reason: TextLines.crAloneMessage)
          }
          lineEnd += 1
        }
        if lineEnd == limit && limit < buffer.count || lineEnd - lineStart > TextLines.maximumLineBytes {
          throw CorpusError.badText(
            at, reason: "the line is over \(TextLines.maximumLineBytes) bytes long, the limit")
        }
        var contentEnd = lineEnd
        if contentEnd > lineStart && buffer[contentEnd - 1] == 0x0D { contentEnd -= 1 }
        defer { lineStart = lineEnd + 1 }
        if lineNumber == 1 {
          let hasBOM =
            contentEnd - lineStart >= 3 && buffer[lineStart] == 0xEF && buffer[lineStart + 1] == 0xBB
            && buffer[lineStart + 2] == 0xBF
          let found = try string(buffer, (hasBOM ? lineStart + 3 : lineStart)..<contentEnd, at: at)
          guard found == header else { throw CorpusError.badHeader(file: file, expected: header, found: found) }
          continue
        }
        if contentEnd == lineStart { continue }  // blank line
        fields.removeAll(keepingCapacity: true)
        var fieldStart = lineStart
        for i in lineStart..<contentEnd where buffer[i] == 0x09 {
          fields.append(fieldStart..<i)
          fieldStart = i + 1
        }
        fields.append(fieldStart..<contentEnd)
        guard fields.count >= columns.count else { throw CorpusError.missingColumn(at, column: columns[fields.count]) }
        guard fields.count == columns.count else {
          throw CorpusError.badValue(
            at, column: "line", value: "\(fields.count) fields",
            reason: "expected \(columns.count) tab-separated fields")
        }
        let id = try integer(buffer, fields[0], column: "id", at: at)
        let parent = try integer(buffer, fields[1], column: "parent", at: at)
        let level = try integer(buffer, fields[2], column: "level", at: at)
        let name = try string(buffer, fields[3], at: at)
        let pinyin = try tokens(buffer, fields[4], at: at)
        let short = try string(buffer, fields[5], at: at)
        let hotField = try string(buffer, fields[6], at: at)
        guard ["", "0", "1"].contains(hotField) else {
          throw CorpusError.badValue(at, column: "hot", value: hotField, reason: "expected 0, 1 or empty")
        }
        let record = PlaceRecord(
          id: id, parentID: parent == 0 ? nil : parent, level: Int(level), name: name,
          pinyin: pinyin,
          shortName: short.isEmpty ? nil : short, isHot: hotField == "1")
        try builder.add(record, at: at)
      }
      if lineNumber == 0 { throw CorpusError.badHeader(file: file, expected: header, found: "") }
    }
  }

  private static func string(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, at: RecordLocation) throws
    -> String
  {
    let slice = UnsafeBufferPointer(rebasing: buffer[range])
    // Plain ASCII needs no validation.
    if !slice.contains(where: { $0 >= 0x80 }) { return String(decoding: slice, as: UTF8.self) }
    guard let s = String(validating: slice, as: UTF8.self) else { throw CorpusError.invalidUTF8(at) }
    return s
  }

  /// The space-separated tokens of a pinyin field, split on bytes; `nil` when it is empty.
  private static func tokens(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, at: RecordLocation) throws
    -> [String]?
  {
    guard !range.isEmpty else { return nil }
    var result: [String] = []
    var start = range.lowerBound
    for i in range where buffer[i] == 0x20 {
      result.append(try string(buffer, start..<i, at: at))
      start = i + 1
    }
    result.append(try string(buffer, start..<range.upperBound, at: at))
    return result
  }

  private static func integer(
    _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, column: String, at: RecordLocation
  ) throws -> Int64 {
    var value: Int64 = 0
    guard !range.isEmpty else {
      throw CorpusError.badValue(at, column: column, value: "", reason: "expected a non-negative integer")
    }
    for i in range {
      let b = buffer[i]
      guard b >= 0x30 && b <= 0x39 else {
        throw CorpusError.badValue(
          at, column: column, value: (try? string(buffer, range, at: at)) ?? "?",
          reason: "expected a non-negative integer")
      }
      let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
      guard !overflow, times10 <= Self.largestID - Int64(b - 0x30) else {
        throw CorpusError.badValue(
          at, column: column, value: (try? string(buffer, range, at: at)) ?? "?",
          reason: "too large: the largest accepted is \(Self.largestID)")
      }
      value = times10 + Int64(b - 0x30)
    }
    return value
  }
}
