import Foundation

/// Reads the property lists of city-picker apps. Three shapes are recognized:
///
/// - `Cities.plist`: sections (an array of dictionaries, or a dictionary keyed by section
///   title) whose arrays hold cities `{name, hot, districts: [{name}]}`; cities are level 2,
///   districts level 3.
/// - `cities.plist`: an array of provinces `{name | province | state, cities: [names]}`;
///   provinces are level 1, cities level 2.
/// - `provinces_cities.plist`: a dictionary province → [city names] (provinces in key order).
///
/// Ids are assigned 1, 2, 3, … in document order. Names get pinyin from the builder's
/// ``PinyinSource``.
enum PropertyListCorpusLoader {
  static func load(_ data: Data, file: String, into builder: inout CorpusBuilder) throws {
    if let (depth, offset) = xmlNesting(of: data, over: CorpusLoader.maximumNesting) {
      throw CorpusError.unsupportedFormat(
        file: file,
        reason:
          "arrays and dictionaries nest \(depth) deep at byte \(offset); the limit is \(CorpusLoader.maximumNesting)")
    }
    let root: Any
    do {
      root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    } catch {
      throw CorpusError.unsupportedFormat(file: file, reason: "not a valid property list")
    }
    var loader = Walker(file: file)
    if let sections = root as? [Any], sections.allSatisfy(isSection) {
      for section in sections { try loader.places(in: sectionItems(section)!, level: 2, parent: nil, into: &builder) }
    } else if let array = root as? [Any] {
      try loader.places(in: array, level: 1, parent: nil, into: &builder)
    } else if let dictionary = root as? [String: Any] {
      let keys = dictionary.keys.sorted()
      if keys.allSatisfy({ (dictionary[$0] as? [Any])?.allSatisfy({ $0 is [String: Any] }) ?? false }) {
        for key in keys { try loader.places(in: dictionary[key] as! [Any], level: 2, parent: nil, into: &builder) }
      } else {
        // A province whose value is one name (`{"广东": "广州"}`) has that one city.
        let provinces: [Any] = try keys.map { key in
          let value = dictionary[key]!
          guard value is [Any] || value is String else {
            throw CorpusError.badValue(
              RecordLocation(file: file, line: 0), column: "province '\(key)'", value: "\(type(of: value))",
              reason: "expected an array of cities or one city's name")
          }
          return ["name": key, "cities": value is String ? [value] : value] as [String: Any]
        }
        try loader.places(in: provinces, level: 1, parent: nil, into: &builder)
      }
    } else {
      throw CorpusError.unsupportedFormat(file: file, reason: "the root is neither an array nor a dictionary")
    }
  }

  static let nameKeys = ["name", "province", "state", "city"]

  /// In an XML property list, the depth and byte offset at which `<array>` and `<dict>` first
  /// nest deeper than `limit`, or `nil` (a binary property list is bounded by its size).
  static func xmlNesting(of data: Data, over limit: Int) -> (depth: Int, offset: Int)? {
    let bytes = [UInt8](data)
    func starts(_ word: String, at i: Int) -> Bool {
      let w = Array(word.utf8)
      return i + w.count <= bytes.count && Array(bytes[i..<i + w.count]) == w
    }
    var depth = 0
    var i = 0
    while i < bytes.count {
      if bytes[i] == UInt8(ascii: "<") {
        if starts("<array>", at: i) || starts("<dict>", at: i) {
          depth += 1
          if depth > limit { return (depth, i) }
        } else if starts("</array>", at: i) || starts("</dict>", at: i) {
          depth -= 1
        }
      }
      i += 1
    }
    return nil
  }

  /// `hot` as the apps write it: a boolean, or the string or integer 0 or 1; anything else is
  /// refused rather than read as "not hot".
  static func hotFlag(_ value: Any?, at: RecordLocation) throws -> Bool {
    switch value {
    case nil: return false
    case let flag as Bool where !(value is String): return flag
    case let text as String where text == "0" || text == "1": return text == "1"
    default:
      throw CorpusError.badValue(at, column: "hot", value: "\(value!)", reason: "expected a boolean, 0 or 1")
    }
  }

  /// A section is a dictionary with no name of its own (a `title` at most) and an array of places.
  static func isSection(_ value: Any) -> Bool {
    guard let d = value as? [String: Any], !nameKeys.contains(where: { d[$0] != nil }) else { return false }
    return sectionItems(d) != nil
  }

  static func sectionItems(_ value: Any) -> [Any]? {
    guard let d = value as? [String: Any] else { return nil }
    return d.keys.sorted().lazy.compactMap { d[$0] as? [Any] }.first
  }

  struct Walker {
    let file: String
    var nextID: PlaceID = 1
    var element = 0

    mutating func places(in items: [Any], level: Int, parent: PlaceID?, into builder: inout CorpusBuilder) throws {
      for item in items {
        element += 1
        let at = RecordLocation(file: file, line: element, unit: .element)
        let name: String
        var hot = false
        var children: [Any] = []
        if let s = item as? String {
          name = s
        } else if let d = item as? [String: Any] {
          guard let n = PropertyListCorpusLoader.nameKeys.lazy.compactMap({ d[$0] as? String }).first else {
            throw CorpusError.missingColumn(at, column: "name")
          }
          name = n
          hot = try PropertyListCorpusLoader.hotFlag(d["hot"], at: at)
          children = d.keys.sorted().lazy.compactMap { d[$0] as? [Any] }.first ?? []
        } else {
          throw CorpusError.badValue(
            at, column: "element", value: "\(type(of: item))", reason: "expected a name or a dictionary")
        }
        let id = nextID
        nextID += 1
        try builder.add(
          PlaceRecord(id: id, parentID: parent, level: min(level, 5), name: name, isHot: hot), at: at)
        try places(in: children, level: level + 1, parent: id, into: &builder)
      }
    }
  }
}
