/// One place as a loader reads it, before ids are resolved and keys are built.
public struct PlaceRecord: Sendable {
  /// The place's id, unique in the corpus and above 0.
  public var id: PlaceID
  /// The parent's id; `nil` (or 0 in a file) for a top-level place.
  public var parentID: PlaceID?
  /// The administrative level, 1 (province) to 5 (village); see ``PlaceLevel``.
  public var level: Int
  /// The full name in Hanzi (`北京市`).
  public var name: String
  /// One token per unit, or `nil` to take it from the builder's ``PinyinSource``.
  public var pinyin: [String]?
  /// The source's short name, or `nil` for the suffix rule.
  public var shortName: String?
  /// Whether a picker lists the place under 热门 (hot) first.
  public var isHot: Bool
  /// The section a file lists the place under (a property list's A–Z heading), or `nil`.
  public var section: String?
  /// Other names the file gives the place (a district's business areas, `neighbours` of a
  /// `Cities.plist`): aliases of the place (MatchSpec §8), each also as its pinyin.
  public var aliases: [String]

  /// A record; only the id, parent, level and name are required.
  public init(
    id: PlaceID, parentID: PlaceID?, level: Int, name: String, pinyin: [String]? = nil,
    shortName: String? = nil, isHot: Bool = false, section: String? = nil, aliases: [String] = []
  ) {
    self.aliases = aliases
    self.id = id
    self.parentID = parentID
    self.level = level
    self.name = name
    self.pinyin = pinyin
    self.shortName = shortName
    self.isHot = isHot
    self.section = section
  }
}

/// Validates records one at a time and builds an immutable ``Corpus``.
///
/// Every problem is reported as a ``CorpusError`` naming the record's location: a bad id or
/// level, an empty name, pinyin that does not fit the name, a duplicate id, an unknown parent,
/// or parent links that form a cycle.
public struct CorpusBuilder {
  /// The character tables the keys are built with.
  public let tables: ReadingTables
  /// Where records without pinyin get theirs, if anywhere.
  public let pinyinSource: (any PinyinSource)?
  private let source: String

  private var syllabary = Syllabary()
  private var ids = ContiguousArray<PlaceID>()
  private var parentIDs = ContiguousArray<PlaceID>()
  private var levels = ContiguousArray<UInt8>()
  private var names = ContiguousArray<String>()
  private var hot = ContiguousArray<Bool>()
  private var shortLengths = ContiguousArray<UInt8>()
  private var unitStarts = ContiguousArray<Int32>([0])
  private var units = ContiguousArray<UInt32>()
  private var tokens = ContiguousArray<UInt16>()
  private var alternateStarts = ContiguousArray<Int32>([0])
  private var alternateTokens = ContiguousArray<UInt16>()
  /// The line (or element) each place came from, for errors found after `add`.
  private var lines = ContiguousArray<Int32>()
  /// Whether `lines` counts lines or elements (one loader feeds one builder).
  private var unit = RecordLocation.Unit.line
  private var indexByID: [PlaceID: Int32] = [:]
  private var sections: [Int32: String] = [:]
  /// The aliases records gave, as the place's facts.
  private var fileAliases: [PlaceID: PlaceFacts.Entry] = [:]

  /// The longest name a corpus accepts, in units (match ends fit in a 64-bit set with one bit spare).
  public static let maximumNameLength = 63

  /// A builder for the records of `source` (a file name, for error messages).
  public init(source: String, tables: ReadingTables, pinyinSource: (any PinyinSource)? = nil) {
    self.source = source
    self.tables = tables
    self.pinyinSource = pinyinSource
  }

  /// Reserves room for `places` records, when the count is known before the first ``add(_:at:)``.
  public mutating func reserveCapacity(_ places: Int) {
    ids.reserveCapacity(places)
    parentIDs.reserveCapacity(places)
    levels.reserveCapacity(places)
    names.reserveCapacity(places)
    hot.reserveCapacity(places)
    shortLengths.reserveCapacity(places)
    unitStarts.reserveCapacity(places + 1)
    units.reserveCapacity(places * 6)
    tokens.reserveCapacity(places * 6)
    lines.reserveCapacity(places)
    indexByID.reserveCapacity(places)
  }

  /// Validates `record` and appends it.
  public mutating func add(_ record: PlaceRecord, at location: RecordLocation) throws {
    guard record.id > 0 else {
      throw CorpusError.badValue(location, column: "id", value: String(record.id), reason: "ids are positive integers")
    }
    if let first = indexByID[record.id] {
      throw CorpusError.duplicateID(location, id: record.id, first: self.location(Int(first)))
    }
    guard let level = PlaceLevel(rawValue: UInt8(clamping: max(record.level, 0))) else {
      throw CorpusError.badValue(location, column: "level", value: String(record.level), reason: "levels are 1 to 5")
    }
    let scalars = Array(record.name.unicodeScalars)
    guard !scalars.isEmpty, scalars.count <= Self.maximumNameLength else {
      throw CorpusError.badValue(
        location, column: "name", value: record.name, reason: "names have 1 to \(Self.maximumNameLength) characters")
    }
    if let bad = scalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      throw CorpusError.badValue(
        location, column: "name", value: record.name,
        reason: "control character U+\(String(bad.value, radix: 16, uppercase: true))")
    }
    // Keys are folded as queries are (MatchSpec §2): a Traditional name (臺北) is found by its own
    // Hanzi, which a query folds to Simplified; the name is kept as written.
    let folded = tables.simplifying(scalars)
    let keyUnits = folded.map { Self.keyUnit($0.value) }
    let foldedName = String(String.UnicodeScalarView(folded))
    let readings: [String]
    if let given = record.pinyin {
      readings = given
    } else if let derived = Self.literalReadings(keyUnits) ?? pinyinSource?.pinyin(for: foldedName)
      ?? pinyinSource?.pinyin(for: record.name)
    {
      readings = derived
    } else {
      throw CorpusError.missingPinyin(location, name: record.name)
    }
    let canonical = try intern(readings, units: keyUnits, name: record.name, at: location)

    var shortLength = ShortName.length(ofUnits: keyUnits)
    if let short = record.shortName, !short.isEmpty, short != record.name {
      let shortScalars = Array(short.unicodeScalars)
      guard shortScalars.count >= 2, shortScalars.count < scalars.count,
        scalars.starts(with: shortScalars)
      else {
        throw CorpusError.badValue(
          location, column: "short", value: short,
          reason: "a short name is a proper prefix of the name with at least two characters")
      }
      shortLength = shortScalars.count
    }

    // Everything that can fail is done; from here the record is appended whole.
    let alternates = try alternateTokens(scalars: folded, canonical: readings, at: location)
    let index = Int32(ids.count)
    ids.append(record.id)
    parentIDs.append(record.parentID ?? 0)
    levels.append(level.rawValue)
    names.append(record.name)
    hot.append(record.isHot)
    shortLengths.append(UInt8(shortLength))
    units.append(contentsOf: keyUnits)
    tokens.append(contentsOf: canonical)
    unitStarts.append(Int32(units.count))
    alternateTokens.append(contentsOf: alternates)
    alternateStarts.append(Int32(alternateTokens.count))
    lines.append(Int32(clamping: location.line))
    unit = location.unit
    indexByID[record.id] = index
    if let section = record.section { sections[index] = section }
    if !record.aliases.isEmpty { fileAliases[record.id] = fileFacts(of: record) }
  }

  /// Resolves parents, rejects unknown parents and cycles, and returns the corpus.
  public func build() throws -> Corpus {
    guard !ids.isEmpty else { throw CorpusError.empty(file: source) }
    var parents = ContiguousArray<Int32>(repeating: -1, count: ids.count)
    for i in 0..<ids.count where parentIDs[i] != 0 {
      guard let p = indexByID[parentIDs[i]] else {
        throw CorpusError.unknownParent(location(i), id: ids[i], parent: parentIDs[i])
      }
      parents[i] = p
    }
    try Self.checkAcyclic(parents: parents, ids: ids, location: location)
    var tables = self.tables
    if !fileAliases.isEmpty {
      let entries = tables.facts.entries.merging(fileAliases) { known, file in
        known.name == file.name
          ? PlaceFacts.Entry(name: known.name, prominence: known.prominence, aliases: known.aliases + file.aliases)
          : file
      }
      tables = ReadingTables(
        polyphones: tables.polyphones, simplified: tables.simplified, facts: PlaceFacts(entries: entries))
    }
    return Corpus(
      source: source, tables: tables, syllabary: syllabary, ids: ids, parents: parents,
      levels: levels, names: names, hot: hot, shortLengths: shortLengths,
      unitStarts: unitStarts, units: units, tokens: tokens,
      alternateStarts: alternateStarts, alternateTokens: alternateTokens, fileSections: sections)
  }

  /// A record's own aliases as facts: each as written and, when it holds Hanzi and the pinyin
  /// source reads it, as its joined pinyin (`三里屯` and `sanlitun`).
  private func fileFacts(of record: PlaceRecord) -> PlaceFacts.Entry {
    var aliases: [String] = []
    for alias in record.aliases where !alias.isEmpty {
      aliases.append(alias)
      guard alias.unicodeScalars.contains(where: { Hanzi.isHanzi($0.value) }) else { continue }
      if let pinyin = pinyinSource?.pinyin(for: tables.simplifying(alias)) { aliases.append(pinyin.joined()) }
    }
    return PlaceFacts.Entry(name: record.name, aliases: aliases)
  }

  private func location(_ index: Int) -> RecordLocation {
    RecordLocation(file: source, line: Int(lines[index]), unit: unit)
  }

  // MARK: - Keys

  /// The unit as a key stores it: ASCII upper case folded to lower case.
  static func keyUnit(_ value: UInt32) -> UInt32 {
    (value >= 0x41 && value <= 0x5A) ? value + 0x20 : value
  }

  /// Readings for a name with no Hanzi, which need no pinyin source.
  static func literalReadings(_ units: [UInt32]) -> [String]? {
    guard !units.contains(where: Hanzi.isHanzi) else { return nil }
    return units.map { String(Unicode.Scalar($0)!) }
  }

  private mutating func intern(
    _ readings: [String], units keyUnits: [UInt32], name: String, at location: RecordLocation
  ) throws -> [UInt16] {
    guard readings.count == keyUnits.count else {
      throw CorpusError.badValue(
        location, column: "pinyin", value: readings.joined(separator: " "),
        reason: "\(readings.count) syllables for the \(keyUnits.count) characters of '\(name)'")
    }
    var result: [UInt16] = []
    result.reserveCapacity(readings.count)
    for (unit, reading) in zip(keyUnits, readings) {
      let kind: Syllabary.Kind
      if Hanzi.isHanzi(unit) {
        guard Syllabary.isSyllable(reading[...]) else {
          throw CorpusError.badValue(
            location, column: "pinyin", value: reading,
            reason: "the reading of \(Unicode.Scalar(unit)!) must be 1 to 6 letters a-z (ü written v)")
        }
        kind = .syllable
      } else {
        guard reading == String(Unicode.Scalar(unit)!) else {
          throw CorpusError.badValue(
            location, column: "pinyin", value: reading,
            reason: "a non-Hanzi character reads as itself ('\(Unicode.Scalar(unit)!)')")
        }
        kind = Hanzi.isLatin(unit) ? .literal : .opaque
      }
      guard let token = syllabary.intern(reading, kind: kind) else { throw Self.tooManyTokens(reading, at: location) }
      result.append(token)
    }
    return result
  }

  @inline(never)
  private static func tooManyTokens(_ reading: String, at location: RecordLocation) -> CorpusError {
    .badValue(
      location, column: "pinyin", value: reading,
      reason: "the corpus has more than \(Syllabary.capacity) distinct readings")
  }

  /// The alternate reading sequences of a name as tokens, flattened (MatchSpec §7).
  private mutating func alternateTokens(
    scalars: [Unicode.Scalar], canonical: [String], at location: RecordLocation
  ) throws -> [UInt16] {
    guard tables.mayHaveAlternates(units: scalars, canonical: canonical) else { return [] }
    var result: [UInt16] = []
    for sequence in tables.alternates(units: scalars, canonical: canonical) {
      for reading in sequence {
        guard let token = syllabary.intern(reading, kind: .syllable) else {
          throw Self.tooManyTokens(reading, at: location)
        }
        result.append(token)
      }
    }
    return result
  }

  private static func checkAcyclic(
    parents: ContiguousArray<Int32>, ids: ContiguousArray<PlaceID>, location: (Int) -> RecordLocation
  ) throws {
    // 0 unvisited, 1 on the current walk, 2 known to reach a root.
    var state = [UInt8](repeating: 0, count: parents.count)
    for start in 0..<parents.count where state[start] == 0 {
      var walk: [Int] = []
      var current = start
      while current >= 0 && state[current] == 0 {
        state[current] = 1
        walk.append(current)
        current = Int(parents[current])
      }
      if current >= 0 && state[current] == 1 {
        let loop = walk[walk.firstIndex(of: current)!...].map { ids[$0] } + [ids[current]]
        throw CorpusError.cycle(location(current), ids: loop)
      }
      for i in walk { state[i] = 2 }
    }
  }
}
