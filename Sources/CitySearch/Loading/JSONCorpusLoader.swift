import Foundation

/// Reads a JSON array of places:
///
///     [{"id": 1, "parent": null, "level": 2, "name": "北京市", "pinyin": ["bei", "jing", "shi"],
///       "short": "北京", "hot": true}, …]
///
/// `id`, `level` and `name` are required; `parent`, `pinyin` (an array or a space-separated
/// string), `short` and `hot` are optional (or `null`). Every field's type is checked: `true`
/// is not an id, `"yes"` is not a hot flag, and a key the format does not have is an error
/// rather than a field silently dropped.
enum JSONCorpusLoader {
  static let keys = ["id", "parent", "level", "name", "pinyin", "short", "hot"]

  static func load(_ data: Data, file: String, into builder: inout CorpusBuilder) throws {
    if let (depth, offset) = nesting(of: data, over: CorpusLoader.maximumNesting) {
      throw CorpusError.unsupportedFormat(
        file: file,
        reason: "arrays and objects nest \(depth) deep at byte \(offset); the limit is \(CorpusLoader.maximumNesting)")
    }
    let root: Any
    do {
      root = try JSONSerialization.jsonObject(with: data)
    } catch {
      let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
      throw CorpusError.unsupportedFormat(
        file: file, reason: "not valid JSON" + (detail.map { " (\(CorpusError.quoted($0)))" } ?? ""))
    }
    guard let array = root as? [Any] else {
      throw CorpusError.unsupportedFormat(file: file, reason: "the JSON corpus is an array of place objects")
    }
    for (offset, element) in array.enumerated() {
      let at = RecordLocation(file: file, line: offset + 1, unit: .element)
      guard let object = element as? [String: Any] else {
        throw CorpusError.badValue(at, column: "element", value: describe(element), reason: "expected an object")
      }
      if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
        throw CorpusError.badValue(
          at, column: "key", value: unknown, reason: "not a field of the format (\(keys.joined(separator: ", ")))")
      }
      let fields = Fields(object: object, at: at)
      let parent = try fields.integer("parent", required: false)
      let record = PlaceRecord(
        id: try fields.integer("id", required: true)!, parentID: parent == 0 ? nil : parent,
        level: Int(try fields.integer("level", required: true)!), name: try fields.string("name", required: true)!,
        pinyin: try fields.pinyin(), shortName: try fields.string("short", required: false),
        isHot: try fields.boolean("hot") ?? false)
      try builder.add(record, at: at)
    }
  }

  /// One place object's fields, each read with its type checked.
  struct Fields {
    let object: [String: Any]
    let at: RecordLocation

    /// The value, or `nil` when absent or `null`.
    func value(_ key: String, required: Bool) throws -> Any? {
      guard let value = object[key], !(value is NSNull) else {
        if required { throw CorpusError.missingColumn(at, column: key) }
        return nil
      }
      return value
    }

    func integer(_ key: String, required: Bool) throws -> Int64? {
      guard let value = try value(key, required: required) else { return nil }
      if let text = value as? String {
        guard let n = Int64(text), n >= 0 else {
          throw CorpusError.badValue(at, column: key, value: text, reason: "expected an integer")
        }
        return n
      }
      guard let number = value as? NSNumber, !isBoolean(number) else {
        throw CorpusError.badValue(at, column: key, value: describe(value), reason: "expected an integer")
      }
      let type = String(cString: number.objCType)
      guard type != "d" && type != "f" else {
        throw CorpusError.badValue(at, column: key, value: describe(value), reason: "expected an integer")
      }
      guard type != "Q" || number.uint64Value <= UInt64(TSVCorpusLoader.largestID),
        number.int64Value <= TSVCorpusLoader.largestID
      else {
        throw CorpusError.badValue(
          at, column: key, value: describe(value),
          reason: "too large: the largest accepted is \(TSVCorpusLoader.largestID)")
      }
      return number.int64Value
    }

    func string(_ key: String, required: Bool) throws -> String? {
      guard let value = try value(key, required: required) else { return nil }
      guard let text = value as? String else {
        throw CorpusError.badValue(at, column: key, value: describe(value), reason: "expected a string")
      }
      return text
    }

    func boolean(_ key: String) throws -> Bool? {
      guard let value = try value(key, required: false) else { return nil }
      guard let number = value as? NSNumber, isBoolean(number) else {
        throw CorpusError.badValue(at, column: key, value: describe(value), reason: "expected true or false")
      }
      return number.boolValue
    }

    /// An array of syllable strings, or one space-separated string.
    func pinyin() throws -> [String]? {
      guard let value = try value("pinyin", required: false) else { return nil }
      if let text = value as? String { return text.isEmpty ? nil : text.split(separator: " ").map(String.init) }
      guard let list = value as? [Any], let syllables = list as? [String] else {
        throw CorpusError.badValue(
          at, column: "pinyin", value: describe(value), reason: "expected an array of strings or a string")
      }
      return syllables
    }
  }

  /// JSON's `true` and `false` come as NSNumbers whose type is `char`; no JSON number does.
  static func isBoolean(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }

  /// A short description of a decoded value for a message.
  static func describe(_ value: Any) -> String {
    switch value {
    case let number as NSNumber: return isBoolean(number) ? (number.boolValue ? "true" : "false") : "\(number)"
    case let text as String: return text
    case is [Any]: return "an array"
    case is [String: Any]: return "an object"
    default: return "\(type(of: value))"
    }
  }

  /// The depth and byte offset at which arrays and objects first nest deeper than `limit`, or
  /// `nil`: checked before parsing, so a deep document is refused by name, not by the parser.
  static func nesting(of data: Data, over limit: Int) -> (depth: Int, offset: Int)? {
    var depth = 0
    var inString = false
    var escaped = false
    for (offset, byte) in data.enumerated() {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        if depth > limit { return (depth, offset) }
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      default: break
      }
    }
    return nil
  }
}
