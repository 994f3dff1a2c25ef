import Foundation

extension Corpus {
  /// Writes every table of the corpus, derived ones too (readings, rank order, aliases,
  /// children), so that ``init(reading:tables:)`` rebuilds it by copying, without parsing a
  /// file or reading a name: `villages` in milliseconds instead of seconds.
  ///
  /// - Complexity: O(n) in the size of the corpus's tables.
  public func archive(into writer: inout ArchiveWriter) {
    writer.text(source)
    var spellingEnds = ContiguousArray<Int32>([0])
    var spellingBytes = ContiguousArray<UInt8>()
    for spelling in syllabary.spellings {
      spellingBytes += spelling
      spellingEnds.append(Int32(spellingBytes.count))
    }
    writer.table(spellingEnds)
    writer.table(spellingBytes)
    writer.table(syllabary.kinds.map(\.rawValue))
    writer.table(ids)
    writer.table(parents)
    writer.table(levels)
    writer.table(names.ends)
    writer.table(names.bytes)
    writer.table(hot)
    writer.table(shortLengths)
    writer.table(unitStarts)
    writer.table(units)
    writer.table(readings.tokens)
    writer.table(readings.alternateStarts)
    writer.table(readings.alternateTokens)
    writer.table(readings.pinyinStarts)
    writer.table(readings.pinyinBytes)
    writer.table(readings.pinyinUnitEnds)
    writer.table(readings.letterMasks)
    writer.table(idOrder)
    let sections = fileSections.sorted { $0.key < $1.key }
    writer.table(sections.map(\.key))
    writer.integer(UInt64(sections.count))
    for (_, section) in sections { writer.text(section) }
    writer.table(rankBases)
    writer.table(prominences)
    writer.table(aliasStarts)
    writer.table(aliasEnds)
    writer.table(aliasUnits)
    writer.table(childStarts)
    writer.table(childIndices)
    writer.table(roots)
  }

  /// The corpus ``archive(into:)`` wrote, read back and checked: every table's length against
  /// the number of places, offsets that never decrease and end where their table does, indices
  /// and tokens in range, ids in ascending order, levels that exist. `tables` are the shared
  /// character tables for queries, as a loader takes them.
  ///
  /// - Throws: ``ArchiveError`` naming the first table that is cut or holds what cannot be.
  /// - Complexity: O(n) in the size of the tables: copies and one pass of checks.
  public convenience init(reading reader: inout ArchiveReader, tables: ReadingTables) throws(ArchiveError) {
    let source = try reader.text("the corpus's source")
    let spellingEnds: ContiguousArray<Int32> = try reader.table("the spellings")
    let spellingBytes: ContiguousArray<UInt8> = try reader.table("the spellings")
    let kinds: ContiguousArray<UInt8> = try reader.table("the spellings' kinds")
    try reader.require(
      spellingEnds.areOffsets(count: kinds.count + 1, total: spellingBytes.count) && kinds.count <= Syllabary.capacity,
      "the spellings")
    var syllabary = Syllabary()
    for (token, raw) in kinds.enumerated() {
      let bytes = spellingBytes[Int(spellingEnds[token])..<Int(spellingEnds[token + 1])]
      guard let kind = Syllabary.Kind(rawValue: raw), let spelling = String(validating: bytes, as: UTF8.self),
        syllabary.intern(spelling, kind: kind) == UInt16(token)
      else { throw .badTable("the spellings") }
    }

    let ids: IntegerTable<PlaceID> = try reader.integerTable("the ids")
    let n = ids.count
    let parents: IntegerTable<Int32> = try reader.integerTable("the parents")
    let levels: IntegerTable<UInt8> = try reader.integerTable("the levels")
    try reader.require(parents.count == n && parents.allLie(in: -1..<n), "the parents")
    try reader.require(levels.count == n && levels.allSatisfy { PlaceLevel(rawValue: $0) != nil }, "the levels")
    let nameEnds: IntegerTable<Int32> = try reader.integerTable("the names")
    let nameBytes: IntegerTable<UInt8> = try reader.integerTable("the names")
    try reader.require(nameEnds.areOffsets(count: n + 1, total: nameBytes.count), "the names")
    // Names are display text: a byte that is not UTF-8 (which the checksum makes a deliberate
    // change) is read as U+FFFD when the name is shown rather than refused here.
    let names = NameTable(ends: nameEnds, bytes: nameBytes)
    let hot: IntegerTable<UInt8> = try reader.integerTable("the hot marks")
    let shortLengths: IntegerTable<UInt8> = try reader.integerTable("the short names")
    let unitStarts: IntegerTable<Int32> = try reader.integerTable("the units")
    let units: IntegerTable<UInt32> = try reader.integerTable("the units")
    try reader.require(hot.count == n, "the hot marks")
    try reader.require(unitStarts.areOffsets(count: n + 1, total: units.count), "the units")
    try reader.require(
      shortLengths.count == n && (0..<n).allSatisfy { Int(shortLengths[$0]) <= unitStarts[$0 + 1] - unitStarts[$0] },
      "the short names")

    let tokens: IntegerTable<UInt16> = try reader.integerTable("the readings")
    let alternateStarts: IntegerTable<Int32> = try reader.integerTable("the alternate readings")
    let alternateTokens: IntegerTable<UInt16> = try reader.integerTable("the alternate readings")
    let pinyinStarts: IntegerTable<Int32> = try reader.integerTable("the joined pinyin")
    let pinyinBytes: IntegerTable<UInt8> = try reader.integerTable("the joined pinyin")
    let pinyinUnitEnds: IntegerTable<UInt8> = try reader.integerTable("the joined pinyin's unit ends")
    let letterMasks: IntegerTable<UInt64> = try reader.integerTable("the letter masks")
    try reader.require(tokens.count == units.count && tokens.allLie(in: 0..<syllabary.count), "the readings")
    try reader.require(
      alternateStarts.areOffsets(count: n + 1, total: alternateTokens.count)
        && alternateTokens.allLie(in: 0..<syllabary.count)
        && (0..<n).allSatisfy { place in
          let length = unitStarts[place + 1] - unitStarts[place]
          let alternates = alternateStarts[place + 1] - alternateStarts[place]
          return length == 0 ? alternates == 0 : alternates % length == 0
        }, "the alternate readings")
    try reader.require(pinyinStarts.areOffsets(count: n + 1, total: pinyinBytes.count), "the joined pinyin")
    try reader.require(
      pinyinUnitEnds.count == units.count
        && (0..<n).allSatisfy { place in
          let length = Int(pinyinStarts[place + 1] - pinyinStarts[place])
          return pinyinUnitEnds[Int(unitStarts[place])..<Int(unitStarts[place + 1])].allSatisfy { Int($0) <= length }
        }, "the joined pinyin's unit ends")
    try reader.require(letterMasks.count == n, "the letter masks")

    let idOrder: IntegerTable<Int32> = try reader.integerTable("the id order")
    try reader.require(
      idOrder.count == n && idOrder.allLie(in: 0..<n)
        && zip(idOrder, idOrder.dropFirst()).allSatisfy { ids[Int($0)] < ids[Int($1)] }, "the id order")
    let sectionPlaces: IntegerTable<Int32> = try reader.integerTable("the file's sections")
    let sectionCount: UInt64 = try reader.integer("the file's sections")
    try reader.require(sectionCount == sectionPlaces.count && sectionPlaces.allLie(in: 0..<n), "the file's sections")
    var fileSections: [Int32: String] = [:]
    for place in sectionPlaces { fileSections[place] = try reader.text("the file's sections") }
    let rankBases: IntegerTable<UInt64> = try reader.integerTable("the rank order")
    let prominences: IntegerTable<UInt64> = try reader.integerTable("the prominences")
    try reader.require(rankBases.count == n && prominences.count == n, "the rank order")
    let aliasStarts: IntegerTable<Int32> = try reader.integerTable("the aliases")
    let aliasEnds: IntegerTable<Int32> = try reader.integerTable("the aliases")
    let aliasUnits: IntegerTable<UInt32> = try reader.integerTable("the aliases")
    try reader.require(
      aliasStarts.areOffsets(count: n + 1, total: aliasEnds.count)
        && (ContiguousArray([0]) + aliasEnds).areOffsets(count: aliasEnds.count + 1, total: aliasUnits.count),
      "the aliases")
    let childStarts: IntegerTable<Int32> = try reader.integerTable("the children")
    let childIndices: IntegerTable<Int32> = try reader.integerTable("the children")
    let roots: IntegerTable<Int32> = try reader.integerTable("the roots")
    try reader.require(
      childStarts.areOffsets(count: n + 1, total: childIndices.count) && childIndices.allLie(in: 0..<n), "the children")
    try reader.require(roots.allLie(in: 0..<n), "the roots")

    self.init(
      source: source, tables: tables, syllabary: syllabary, ids: ids, parents: parents, levels: levels, names: names,
      hot: hot, shortLengths: shortLengths, unitStarts: unitStarts, units: units,
      readings: ReadingStore(
        unitStarts: unitStarts, tokens: tokens, alternateStarts: alternateStarts, alternateTokens: alternateTokens,
        pinyinStarts: pinyinStarts, pinyinBytes: pinyinBytes, pinyinUnitEnds: pinyinUnitEnds, letterMasks: letterMasks),
      idOrder: idOrder, fileSections: fileSections, rankBases: rankBases, prominences: prominences,
      aliasStarts: aliasStarts, aliasEnds: aliasEnds, aliasUnits: aliasUnits, childStarts: childStarts,
      childIndices: childIndices, roots: roots)
  }
}
