/// Where a record of a corpus came from, for error messages.
public struct RecordLocation: Sendable, Hashable, CustomStringConvertible {
  public var file: String
  /// 1-based line (TSV), element (JSON, property list) or 0 when unknown.
  public var line: Int

  public init(file: String, line: Int) {
    self.file = file
    self.line = line
  }

  public var description: String { line > 0 ? "\(file):\(line)" : file }
}

/// Why a corpus could not be loaded. Each case names the file, the line and the problem.
public enum CorpusError: Error, Sendable, Equatable, CustomStringConvertible {
  case unreadable(file: String, reason: String)
  case invalidUTF8(RecordLocation)
  case badHeader(file: String, expected: String, found: String)
  case missingColumn(RecordLocation, column: String)
  case badValue(RecordLocation, column: String, value: String, reason: String)
  case duplicateID(RecordLocation, id: PlaceID, first: RecordLocation)
  case unknownParent(RecordLocation, id: PlaceID, parent: PlaceID)
  case cycle(RecordLocation, ids: [PlaceID])
  case missingPinyin(RecordLocation, name: String)
  case unsupportedFormat(file: String, reason: String)
  case empty(file: String)

  public var description: String {
    switch self {
    case .unreadable(let file, let reason): return "\(file): cannot read: \(reason)"
    case .invalidUTF8(let at): return "\(at): invalid UTF-8"
    case .badHeader(let file, let expected, let found):
      return "\(file):1: bad header: expected '\(expected)', found '\(found)'"
    case .missingColumn(let at, let column): return "\(at): missing column '\(column)'"
    case .badValue(let at, let column, let value, let reason):
      return "\(at): bad \(column) '\(value)': \(reason)"
    case .duplicateID(let at, let id, let first): return "\(at): duplicate id \(id) (first at \(first))"
    case .unknownParent(let at, let id, let parent): return "\(at): place \(id) has unknown parent \(parent)"
    case .cycle(let at, let ids):
      return "\(at): parent links form a cycle: \(ids.map(String.init).joined(separator: " → "))"
    case .missingPinyin(let at, let name):
      return "\(at): no pinyin for '\(name)' and no pinyin source knows it"
    case .unsupportedFormat(let file, let reason): return "\(file): unsupported corpus format: \(reason)"
    case .empty(let file): return "\(file): the corpus has no places"
    }
  }
}
