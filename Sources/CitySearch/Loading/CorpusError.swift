/// Where a record of a corpus came from, for error messages: `cities.tsv:12` for a line of a
/// text file, `places.json: element 3` for an element of a JSON array or property list.
public struct RecordLocation: Sendable, Hashable, CustomStringConvertible {
  /// What ``line`` counts.
  public enum Unit: Sendable, Hashable {
    /// Lines of a text file.
    case line
    /// Elements (places) of a JSON array or property list, in document order.
    case element
  }

  /// The file's name as given to the loader.
  public var file: String
  /// 1-based line or element number, or 0 when unknown.
  public var line: Int
  /// Whether ``line`` counts lines or elements.
  public var unit: Unit

  /// The location `line` (1-based, 0 when unknown) of `file`.
  public init(file: String, line: Int, unit: Unit = .line) {
    self.file = file
    self.line = line
    self.unit = unit
  }

  public var description: String {
    guard line > 0 else { return file }
    switch unit {
    case .line: return "\(file):\(line)"
    case .element: return "\(file): element \(line)"
    }
  }
}

/// Why a corpus could not be loaded. Each case names the file, the line and the problem.
public enum CorpusError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file could not be read (the system's reason).
  case unreadable(file: String, reason: String)
  /// A line is not valid UTF-8.
  case invalidUTF8(RecordLocation)
  /// The first line is not the format's header.
  case badHeader(file: String, expected: String, found: String)
  /// A record lacks a required column or key.
  case missingColumn(RecordLocation, column: String)
  /// A value is malformed or out of range: an id, a level, a name, pinyin that does not fit the name.
  case badValue(RecordLocation, column: String, value: String, reason: String)
  /// Two records share an id; `first` is where it was first seen.
  case duplicateID(RecordLocation, id: PlaceID, first: RecordLocation)
  /// A record names a parent id that no record has.
  case unknownParent(RecordLocation, id: PlaceID, parent: PlaceID)
  /// Parent links form a cycle through these ids.
  case cycle(RecordLocation, ids: [PlaceID])
  /// A record has no pinyin and no ``PinyinSource`` could give it.
  case missingPinyin(RecordLocation, name: String)
  /// The file is of no format the loader reads (``CorpusFormat``).
  case unsupportedFormat(file: String, reason: String)
  /// The file holds no places.
  case empty(file: String)
  /// The text cannot be split into lines: a CR-only line end, or a line over the limit.
  case badText(RecordLocation, reason: String)
  /// The file is over a documented size limit (``CorpusLoader/maximumFileBytes``).
  case tooLarge(file: String, bytes: Int, limit: Int)

  public var description: String {
    switch self {
    case .unreadable(let file, let reason): return "\(file): cannot read: \(reason)"
    case .invalidUTF8(let at): return "\(at): invalid UTF-8"
    case .badHeader(let file, let expected, let found):
      return "\(file):1: bad header: expected '\(expected)', found \(Self.quoted(found))"
    case .missingColumn(let at, let column): return "\(at): missing column '\(column)'"
    case .badValue(let at, let column, let value, let reason):
      return "\(at): bad \(column) \(Self.quoted(value)): \(reason)"
    case .duplicateID(let at, let id, let first): return "\(at): duplicate id \(id) (first at \(first))"
    case .unknownParent(let at, let id, let parent): return "\(at): place \(id) has unknown parent \(parent)"
    case .cycle(let at, let ids):
      return "\(at): parent links form a cycle: \(ids.map(String.init).joined(separator: " → "))"
    case .missingPinyin(let at, let name):
      return "\(at): no pinyin for \(Self.quoted(name)) and no pinyin source knows it"
    case .unsupportedFormat(let file, let reason): return "\(file): unsupported corpus format: \(reason)"
    case .empty(let file): return "\(file): the corpus has no places"
    case .badText(let at, let reason): return "\(at): \(reason)"
    case .tooLarge(let file, let bytes, let limit):
      return "\(file): the file is \(bytes) bytes; the limit is \(limit) bytes"
    }
  }

  /// The problem without the file's name, for a reader of another format that reuses
  /// ``CorpusLoader/readFile(_:limit:)`` and names the file itself.
  public var reason: String {
    switch self {
    case .unreadable(_, let reason): return reason
    case .tooLarge(_, let bytes, let limit): return "the file is \(bytes) bytes; the limit is \(limit) bytes"
    default: return description
    }
  }

  /// The longest echo of a value from the input, in characters: a message about a huge value
  /// stays one short line.
  public static let excerptLength = 48

  /// `value` in quotes, cut to ``excerptLength`` characters with its whole length said when
  /// cut, and control characters shown as escapes so that a message stays on one line:
  /// `'北京'`, `'bbbb…' (1000000 bytes)`.
  public static func quoted(_ value: String) -> String {
    var shown = ""
    var count = 0
    for scalar in value.unicodeScalars {
      if count == excerptLength { return "'\(shown)…' (\(value.utf8.count) bytes)" }
      shown += scalar.value < 0x20 || scalar.value == 0x7F ? scalar.escaped(asASCII: true) : String(scalar)
      count += 1
    }
    return "'\(shown)'"
  }
}
