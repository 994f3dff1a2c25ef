import Foundation

extension ReadingTables {
  /// The file names of the tables inside a corpus directory.
  public static let polyphonesFile = "polyphones.tsv"
  /// Traditional characters and their simplified forms.
  public static let traditionalFile = "traditional.tsv"
  /// Each place's prominence (a population), for the ranking.
  public static let prominenceFile = "prominence.tsv"
  /// Each place's aliases (abbreviations, English and postal names).
  public static let aliasesFile = "aliases.tsv"

  /// Parses the table files (formats in Corpus/README.md). The names are used in errors. The
  /// place facts are optional: without them places rank by level, length and id, with no aliases.
  ///
  /// - Throws: ``CorpusError`` naming the file, the line and the problem.
  public init(
    polyphones: Data, polyphonesName: String, traditional: Data, traditionalName: String,
    prominence: (data: Data, name: String)? = nil, aliases: (data: Data, name: String)? = nil
  ) throws {
    var readingsByCharacter: [Unicode.Scalar: [String]] = [:]
    try Self.rows(polyphones, name: polyphonesName, header: "character\treadings\texample", required: 2) { fields, at in
      let scalars = Array(fields[0].unicodeScalars)
      let readings = fields[1].split(separator: " ").map(String.init)
      guard scalars.count == 1, Hanzi.isHanzi(scalars[0].value) else {
        throw CorpusError.badValue(at, column: "character", value: fields[0], reason: "expected one Hanzi")
      }
      guard readings.count >= 2, readings.allSatisfy({ Syllabary.isSyllable($0[...]) }) else {
        throw CorpusError.badValue(at, column: "readings", value: fields[1], reason: "expected two or more syllables")
      }
      readingsByCharacter[scalars[0]] = readings
    }
    var simplified: [UInt32: UInt32] = [:]
    try Self.rows(traditional, name: traditionalName, header: "traditional\tsimplified", required: 2) { fields, at in
      let t = Array(fields[0].unicodeScalars)
      let s = Array(fields[1].unicodeScalars)
      guard t.count == 1, s.count == 1 else {
        throw CorpusError.badValue(
          at, column: "traditional", value: fields.joined(separator: " "), reason: "expected one character each")
      }
      simplified[t[0].value] = s[0].value
    }
    var entries: [PlaceID: PlaceFacts.Entry] = [:]
    func entry(_ fields: [String], _ at: RecordLocation) throws -> PlaceID {
      guard let id = PlaceID(fields[0]), id > 0 else {
        throw CorpusError.badValue(at, column: "id", value: fields[0], reason: "expected a positive integer")
      }
      if let known = entries[id], known.name != fields[1] {
        throw CorpusError.badValue(at, column: "name", value: fields[1], reason: "id \(id) is \(known.name) above")
      }
      if entries[id] == nil { entries[id] = PlaceFacts.Entry(name: fields[1]) }
      return id
    }
    if let prominence {
      let header = "id\tname\tgeonameid\tgeonames_name\tpopulation\tprominence"
      try Self.rows(prominence.data, name: prominence.name, header: header, required: 6) { fields, at in
        let id = try entry(fields, at)
        guard let value = UInt64(fields[5]) else {
          throw CorpusError.badValue(
            at, column: "prominence", value: fields[5], reason: "expected a non-negative integer")
        }
        entries[id]!.prominence = value
      }
    }
    if let aliases {
      try Self.rows(aliases.data, name: aliases.name, header: "id\tname\talias\tkind", required: 4) { fields, at in
        let id = try entry(fields, at)
        guard !fields[2].isEmpty else {
          throw CorpusError.badValue(at, column: "alias", value: fields[2], reason: "expected a name")
        }
        entries[id]!.aliases.append(fields[2])
      }
    }
    self.init(polyphones: readingsByCharacter, simplified: simplified, facts: PlaceFacts(entries: entries))
  }

  private static func rows(
    _ data: Data, name: String, header: String, required: Int, _ body: ([String], RecordLocation) throws -> Void
  ) throws {
    guard let text = String(data: data, encoding: .utf8) else {
      throw CorpusError.invalidUTF8(RecordLocation(file: name, line: 0))
    }
    let lines = try TextLines.lines(of: text, file: name)
    guard lines.first.map(String.init) == header else {
      throw CorpusError.badHeader(file: name, expected: header, found: lines.first.map(String.init) ?? "")
    }
    let columns = header.split(separator: "\t").map(String.init)
    for (offset, line) in lines.enumerated().dropFirst() where !line.isEmpty {
      let at = RecordLocation(file: name, line: offset + 1)
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count >= required else { throw CorpusError.missingColumn(at, column: columns[fields.count]) }
      try body(fields, at)
    }
  }
}
