import Foundation

/// Reads a JSON array of places:
///
///     [{"id": 1, "parent": null, "level": 2, "name": "北京市", "pinyin": ["bei", "jing", "shi"],
///       "short": "北京", "hot": true}, …]
///
/// `id`, `level` and `name` are required; `parent`, `pinyin` (an array or a space-separated
/// string), `short` and `hot` are optional.
enum JSONCorpusLoader {
  static func load(_ data: Data, file: String, into builder: inout CorpusBuilder) throws {
    let root: Any
    do {
      root = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw CorpusError.unsupportedFormat(file: file, reason: "not valid JSON (\(error.localizedDescription))")
    }
    guard let array = root as? [Any] else {
      throw CorpusError.unsupportedFormat(file: file, reason: "the JSON corpus is an array of place objects")
    }
    for (offset, element) in array.enumerated() {
      let at = RecordLocation(file: file, line: offset + 1, unit: .element)
      guard let object = element as? [String: Any] else {
        throw CorpusError.badValue(at, column: "element", value: "\(type(of: element))", reason: "expected an object")
      }
      func int(_ key: String, required: Bool) throws -> Int64? {
        guard let value = object[key], !(value is NSNull) else {
          if required { throw CorpusError.missingColumn(at, column: key) }
          return nil
        }
        if let n = value as? Int { return Int64(n) }
        if let s = value as? String, let n = Int64(s) { return n }
        throw CorpusError.badValue(at, column: key, value: "\(value)", reason: "expected an integer")
      }
      guard let name = object["name"] as? String else { throw CorpusError.missingColumn(at, column: "name") }
      var pinyin: [String]?
      if let list = object["pinyin"] as? [String] {
        pinyin = list
      } else if let text = object["pinyin"] as? String, !text.isEmpty {
        pinyin = text.split(separator: " ").map(String.init)
      }
      let parent = try int("parent", required: false)
      let record = PlaceRecord(
        id: try int("id", required: true)!, parentID: parent == 0 ? nil : parent,
        level: Int(try int("level", required: true)!), name: name, pinyin: pinyin,
        shortName: object["short"] as? String, isHot: (object["hot"] as? Bool) ?? false)
      try builder.add(record, at: at)
    }
  }
}
