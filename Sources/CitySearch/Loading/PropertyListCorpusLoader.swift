import Foundation

/// Reads the property lists of city-picker apps, in the four shapes the seed apps wrote:
///
/// - **`Cities.plist`** (a group-buying app): an array of A–Z sections
///   `{name: "B", cities: [{name, hot, districts: [{name, neighbours: [String]}]}]}` (the heading
///   may be under `title` instead, and the sections may be a dictionary keyed by heading).
///   Cities are level 2 and keep their section; districts are level 3 under their city;
///   `neighbours` are a district's business areas, not administrative places: they become the
///   district's aliases (MatchSpec §8), so `三里屯` and `sanlitun` find the district. A `热门`
///   section marks its cities hot; a city listed both there and under its letter is one place.
/// - **`cities.plist`** (a province picker): an array of provinces
///   `{name | province | state, cities: [String]}`; provinces level 1, cities level 2.
/// - **`sortednames.plist`** (an indexed table): a dictionary heading → `[String]`, a flat list
///   of level-2 places whose sections are the file's.
/// - **`provinces_cities.plist`** (tree navigation): a dictionary province → `[String]`,
///   → `[{name, url}]`, or → one name; provinces level 1 in key order, cities level 2.
///
/// A heading is one Latin letter, `#` or `热门`. Anything else is refused with the element and
/// what was expected. Ids are assigned 1, 2, 3, … in document order (dictionary keys sorted);
/// names get pinyin from the builder's ``PinyinSource``.
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
    var reader = Reader(file: file)
    switch root {
    case let array as [Any]:
      try reader.readArray(array)
    case let dictionary as [String: Any]:
      try reader.readDictionary(dictionary)
    default:
      throw CorpusError.unsupportedFormat(file: file, reason: "the root is neither an array nor a dictionary")
    }
    for place in reader.places { try builder.add(place.record, at: place.location) }
  }

  static let nameKeys = ["name", "province", "state", "city"]

  /// One Latin letter (as its capital), `#`, or `热门`; `nil` for anything else.
  static func heading(_ value: Any?) -> String? {
    guard let text = (value as? String)?.trimmingCharacters(in: .whitespaces) else { return nil }
    if text == SectionedList.hotTitle || text == "#" { return text }
    guard text.unicodeScalars.count == 1, let scalar = text.unicodeScalars.first, scalar.isASCII,
      CharacterSet.letters.contains(scalar)
    else { return nil }
    return text.uppercased()
  }

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

  /// A place read from the file, before it goes to the builder.
  struct Place {
    var record: PlaceRecord
    var location: RecordLocation
  }

  /// Walks one property list, shape by shape, collecting places in document order.
  struct Reader {
    let file: String
    private(set) var places: [Place] = []
    /// The index in `places` of each city already read by name, so that a city listed under
    /// 热门 and under its letter is one place.
    private var cityByName: [String: Int] = [:]
    /// Districts already read, as "city id/name", for the same reason.
    private var districtKeys: Set<String> = []

    init(file: String) { self.file = file }

    private var nextLocation: RecordLocation {
      RecordLocation(file: file, line: places.count + 1, unit: .element)
    }

    private func describe(_ value: Any) -> String {
      switch value {
      case let s as String: return s
      case is [Any]: return "an array"
      case is [String: Any]: return "a dictionary"
      case let number as NSNumber: return "\(number)"
      default: return "\(type(of: value))"
      }
    }

    private func refuse(_ what: String, _ value: Any, expected: String) -> CorpusError {
      .badValue(nextLocation, column: what, value: describe(value), reason: "expected \(expected)")
    }

    @discardableResult
    private mutating func add(
      _ name: String, level: Int, parent: PlaceID?, hot: Bool = false, section: String? = nil, aliases: [String] = []
    ) -> PlaceID {
      let id = PlaceID(places.count + 1)
      places.append(
        Place(
          record: PlaceRecord(
            id: id, parentID: parent, level: level, name: name, isHot: hot, section: section, aliases: aliases),
          location: nextLocation))
      return id
    }

    private func name(in dictionary: [String: Any], _ what: String) throws -> String {
      guard let name = PropertyListCorpusLoader.nameKeys.lazy.compactMap({ dictionary[$0] as? String }).first else {
        throw CorpusError.missingColumn(nextLocation, column: "name of \(what)")
      }
      return name
    }

    // MARK: Shapes

    /// `Cities.plist` (sections) or `cities.plist` (provinces), told apart by the first element.
    mutating func readArray(_ array: [Any]) throws {
      guard let first = array.first as? [String: Any] else {
        throw refuse(
          "element", array.first ?? "an empty array",
          expected: "sections {name: A–Z, cities: [...]} or provinces {name, cities: [names]}")
      }
      if PropertyListCorpusLoader.heading(first["name"] ?? first["title"]) != nil {
        for (n, item) in array.enumerated() {
          guard let section = item as? [String: Any],
            let title = PropertyListCorpusLoader.heading(section["name"] ?? section["title"])
          else {
            throw refuse("section \(n + 1)", item, expected: "{name: a heading (A–Z, #, 热门), cities: [...]}")
          }
          try readSection(title, section["cities"], what: "section '\(title)'")
        }
      } else {
        for (n, item) in array.enumerated() {
          guard let province = item as? [String: Any] else {
            throw refuse("province \(n + 1)", item, expected: "{name, cities: [names]}")
          }
          let provinceName = try name(in: province, "province \(n + 1)")
          guard let cities = province["cities"] else {
            throw refuse("province \(n + 1)", provinceName, expected: "{name, cities: [names]}: it has no cities")
          }
          let id = add(provinceName, level: 1, parent: nil)
          try readCityNames(cities, parent: id, what: "cities of '\(provinceName)'")
        }
      }
    }

    /// `sortednames.plist` or the keyed form of `Cities.plist` when every key is a heading,
    /// else `provinces_cities.plist`.
    mutating func readDictionary(_ dictionary: [String: Any]) throws {
      let keys = dictionary.keys.sorted { a, b in
        // Headings A–Z, then #; 热门 first, as a picker shows them.
        func rank(_ k: String) -> (Int, String) {
          k == SectionedList.hotTitle ? (0, k) : k == "#" ? (2, k) : (1, k)
        }
        return rank(a) < rank(b)
      }
      let headings = keys.filter { PropertyListCorpusLoader.heading($0) != nil }
      if !headings.isEmpty && headings.count == keys.count {
        for key in keys {
          try readSection(PropertyListCorpusLoader.heading(key)!, dictionary[key], what: "section '\(key)'")
        }
        return
      }
      if let heading = headings.first, let other = keys.first(where: { PropertyListCorpusLoader.heading($0) == nil }) {
        throw CorpusError.unsupportedFormat(
          file: file,
          reason:
            "key '\(heading)' is a section heading but '\(other)' is not: a file is either sections (A–Z) or provinces")
      }
      for key in keys {
        let id = add(key, level: 1, parent: nil)
        try readCityNames(dictionary[key]!, parent: id, what: "province '\(key)'")
      }
    }

    /// A section's cities: names, or `{name, hot, districts: [{name, neighbours: [String]}]}`.
    private mutating func readSection(_ title: String, _ value: Any?, what: String) throws {
      guard let cities = value as? [Any] else {
        throw refuse("cities of \(what)", value ?? "nothing", expected: "an array of cities")
      }
      for city in cities {
        guard let dictionary = city as? [String: Any] else {
          if let name = city as? String {
            addCity(name, hot: false, section: title)
            continue
          }
          throw refuse("city in \(what)", city, expected: "a city {name, hot, districts}")
        }
        let cityName = try name(in: dictionary, "a city in \(what)")
        let hot = try PropertyListCorpusLoader.hotFlag(dictionary["hot"], at: nextLocation)
        let id = addCity(cityName, hot: hot, section: title)
        guard let districts = dictionary["districts"] else { continue }
        guard let list = districts as? [Any] else {
          throw refuse("districts of '\(cityName)'", districts, expected: "an array of districts")
        }
        for district in list {
          let districtName: String
          var neighbourNames: [String] = []
          if let plain = district as? String {
            districtName = plain
          } else if let d = district as? [String: Any] {
            districtName = try name(in: d, "a district of '\(cityName)'")
            if let neighbours = d["neighbours"] {
              guard let names = neighbours as? [String] else {
                throw refuse("neighbours of '\(districtName)'", neighbours, expected: "an array of names")
              }
              neighbourNames = names.filter { !$0.isEmpty }
            }
          } else {
            throw refuse("district of '\(cityName)'", district, expected: "a district {name, neighbours}")
          }
          if districtKeys.insert("\(id)/\(districtName)").inserted {
            add(districtName, level: 3, parent: id, aliases: neighbourNames)
          }
        }
      }
    }

    /// A city of a sectioned file; it is hot when its file says so or its section is 热门. A
    /// city read before under another heading (热门 and its letter) is the same place: it
    /// becomes hot, and keeps its letter as its section.
    @discardableResult
    private mutating func addCity(_ name: String, hot flagged: Bool, section: String) -> PlaceID {
      let hot = flagged || section == SectionedList.hotTitle
      if let seen = cityByName[name] {
        places[seen].record.isHot = places[seen].record.isHot || hot
        if places[seen].record.section == SectionedList.hotTitle { places[seen].record.section = section }
        return places[seen].record.id
      }
      cityByName[name] = places.count
      return add(name, level: 2, parent: nil, hot: hot, section: section)
    }

    /// A province's cities: names, `{name, url}` dictionaries, or one name.
    private mutating func readCityNames(_ value: Any, parent: PlaceID, what: String) throws {
      let items: [Any]
      switch value {
      case let one as String: items = [one]
      case let many as [Any]: items = many
      default: throw refuse(what, value, expected: "an array of cities or one city's name")
      }
      for item in items {
        switch item {
        case let name as String:
          add(name, level: 2, parent: parent)
        case let dictionary as [String: Any]:
          add(try name(in: dictionary, "a city in \(what)"), level: 2, parent: parent)
        default:
          throw refuse("city in \(what)", item, expected: "a name or {name, url}")
        }
      }
    }
  }
}
