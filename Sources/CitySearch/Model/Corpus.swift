/// An immutable, indexed set of places: the model every backend builds from.
///
/// Places are addressed by a dense index `0..<count` (their order in the source) and carry a
/// stable ``PlaceID``. Per-place data lives in flat contiguous arrays so that a backend can scan
/// or index it without allocating: the name's units (Unicode scalars), one reading token per unit,
/// the alternate reading sequences, and the joined pinyin used by the `seed` mode.
///
/// A corpus is built by ``CorpusBuilder`` or loaded by ``CorpusLoader``.
public final class Corpus: Sendable {
  /// The tables shared by every corpus: polyphones and Traditional → Simplified folding.
  public let tables: ReadingTables
  /// The reading tokens that the keys refer to.
  public let syllabary: Syllabary
  /// A human-readable description of where the corpus came from (a path or tier name).
  public let source: String

  let ids: IntegerTable<PlaceID>
  let parents: IntegerTable<Int32>
  let levels: IntegerTable<UInt8>
  let names: NameTable
  /// 1 for a place listed under 热门.
  let hot: IntegerTable<UInt8>
  @usableFromInline let shortLengths: IntegerTable<UInt8>
  /// `unitStarts[i]..<unitStarts[i + 1]` is place `i`'s range in `units` and `tokens`.
  @usableFromInline let unitStarts: IntegerTable<Int32>
  @usableFromInline let units: IntegerTable<UInt32>
  /// The reviewed readings of the places (``ReadingStore``): tokens, alternates, joined pinyin
  /// and letter masks, the last with each place's aliases' letters added.
  public let readings: ReadingStore
  /// The places in ascending order of id, for ``index(of:)`` (a binary search: a tenth of a
  /// hash table's memory, and an archive stores it as it is).
  let idOrder: IntegerTable<Int32>
  /// The section each place is listed under in its file, for the few formats that have them.
  let fileSections: [Int32: String]
  /// Per place, `(Ranking.scaleCeiling - scale) << 32 | ordinal`: its prominence scale and its
  /// position in the prominence order (MatchSpec §5.4, 0 for the first), as ``Ranking`` adds
  /// them to a match's penalty.
  let rankBases: IntegerTable<UInt64>
  /// Per place, the prominence value of ``PlaceFacts`` (0 when unknown).
  let prominences: IntegerTable<UInt64>
  /// `aliasStarts[i]..<aliasStarts[i + 1]` are place `i`'s aliases; alias `k` is
  /// `aliasUnits[aliasEnds[k - 1]..<aliasEnds[k]]` (from 0 for the first), as query tokens
  /// without boundary marks (MatchSpec §8).
  let aliasStarts: IntegerTable<Int32>
  let aliasEnds: IntegerTable<Int32>
  let aliasUnits: IntegerTable<UInt32>
  let childStarts: IntegerTable<Int32>
  let childIndices: IntegerTable<Int32>
  let roots: IntegerTable<Int32>

  /// A corpus of the places' own tables: the readings' derived tables, the prominence, the
  /// rank order, the aliases and the children are computed from them and the facts of `tables`.
  convenience init(
    source: String, tables: ReadingTables, syllabary: Syllabary,
    ids: ContiguousArray<PlaceID>, parents: ContiguousArray<Int32>,
    levels: ContiguousArray<UInt8>, names: ContiguousArray<String>, hot: ContiguousArray<Bool>,
    shortLengths: ContiguousArray<UInt8>, unitStarts: ContiguousArray<Int32>,
    units: ContiguousArray<UInt32>, tokens: ContiguousArray<UInt16>,
    alternateStarts: ContiguousArray<Int32>, alternateTokens: ContiguousArray<UInt16>,
    fileSections: [Int32: String] = [:]
  ) {
    let idOrder = ContiguousArray((0..<Int32(ids.count)).sorted { ids[Int($0)] < ids[Int($1)] })
    // Prominence, the rank order, and the aliases, from the facts of places known by id and name.
    var prominences = ContiguousArray<UInt64>(repeating: 0, count: ids.count)
    var aliasStarts = ContiguousArray<Int32>([0])
    var aliasEnds = ContiguousArray<Int32>()
    var aliasUnits = ContiguousArray<UInt32>()
    var aliasLetters = ContiguousArray<UInt64>(repeating: 0, count: ids.count)
    let normalizer = QueryNormalizer(tables: tables)
    for place in 0..<ids.count {
      if let entry = tables.facts.entry(id: ids[place], name: names[place]) {
        prominences[place] = entry.prominence
        for alias in entry.aliases {
          let needle = normalizer.normalize(alias).tokens.filter { $0 != NormalizedQuery.boundary }
          guard !needle.isEmpty else { continue }
          aliasUnits += needle
          aliasEnds.append(Int32(aliasUnits.count))
          aliasLetters[place] |= Hanzi.letterMask(needle)
        }
      }
      aliasStarts.append(Int32(aliasEnds.count))
    }
    let readings = ReadingStore(
      unitStarts: unitStarts, tokens: tokens, alternateStarts: alternateStarts, alternateTokens: alternateTokens,
      syllabary: syllabary, extraLetters: aliasLetters)
    // Most prominent first, then level, name length and id (MatchSpec §5.4).
    func rankKey(_ place: Int) -> (UInt64, UInt8, Int32, PlaceID) {
      (UInt64.max - prominences[place], levels[place], unitStarts[place + 1] - unitStarts[place], ids[place])
    }
    let order = (0..<ids.count).sorted { rankKey($0) < rankKey($1) }
    var rankBases = ContiguousArray<UInt64>(repeating: 0, count: ids.count)
    for (ordinal, place) in order.enumerated() {
      let scale = Ranking.scale(prominence: prominences[place])
      rankBases[place] = UInt64(Ranking.scaleCeiling - scale) << 32 | UInt64(ordinal)
    }

    // Children in source order (compressed rows).
    var counts = ContiguousArray<Int32>(repeating: 0, count: ids.count + 1)
    var roots = ContiguousArray<Int32>()
    for (i, parent) in parents.enumerated() {
      if parent < 0 { roots.append(Int32(i)) } else { counts[Int(parent) + 1] += 1 }
    }
    for i in 0..<ids.count { counts[i + 1] += counts[i] }
    var fill = counts
    var children = ContiguousArray<Int32>(repeating: 0, count: Int(counts[ids.count]))
    for (i, parent) in parents.enumerated() where parent >= 0 {
      children[Int(fill[Int(parent)])] = Int32(i)
      fill[Int(parent)] += 1
    }
    self.init(
      source: source, tables: tables, syllabary: syllabary, ids: IntegerTable(ids), parents: IntegerTable(parents),
      levels: IntegerTable(levels), names: NameTable(names), hot: IntegerTable(hot.lazy.map { $0 ? 1 : 0 }),
      shortLengths: IntegerTable(shortLengths), unitStarts: IntegerTable(unitStarts), units: IntegerTable(units),
      readings: readings, idOrder: IntegerTable(idOrder), fileSections: fileSections,
      rankBases: IntegerTable(rankBases),
      prominences: IntegerTable(prominences), aliasStarts: IntegerTable(aliasStarts),
      aliasEnds: IntegerTable(aliasEnds),
      aliasUnits: IntegerTable(aliasUnits), childStarts: IntegerTable(counts), childIndices: IntegerTable(children),
      roots: IntegerTable(roots))
  }

  /// A corpus of tables already derived, as an archive holds them (`Corpus+Archive.swift`).
  init(
    source: String, tables: ReadingTables, syllabary: Syllabary, ids: IntegerTable<PlaceID>,
    parents: IntegerTable<Int32>, levels: IntegerTable<UInt8>, names: NameTable,
    hot: IntegerTable<UInt8>, shortLengths: IntegerTable<UInt8>, unitStarts: IntegerTable<Int32>,
    units: IntegerTable<UInt32>, readings: ReadingStore, idOrder: IntegerTable<Int32>,
    fileSections: [Int32: String], rankBases: IntegerTable<UInt64>, prominences: IntegerTable<UInt64>,
    aliasStarts: IntegerTable<Int32>, aliasEnds: IntegerTable<Int32>, aliasUnits: IntegerTable<UInt32>,
    childStarts: IntegerTable<Int32>, childIndices: IntegerTable<Int32>, roots: IntegerTable<Int32>
  ) {
    self.source = source
    self.tables = tables
    self.syllabary = syllabary
    self.ids = ids
    self.parents = parents
    self.levels = levels
    self.names = names
    self.hot = hot
    self.shortLengths = shortLengths
    self.unitStarts = unitStarts
    self.units = units
    self.readings = readings
    self.idOrder = idOrder
    self.fileSections = fileSections
    self.rankBases = rankBases
    self.prominences = prominences
    self.aliasStarts = aliasStarts
    self.aliasEnds = aliasEnds
    self.aliasUnits = aliasUnits
    self.childStarts = childStarts
    self.childIndices = childIndices
    self.roots = roots
  }

  /// The number of places.
  public var count: Int { ids.count }

  /// The stable id of the place at `index`.
  public func id(at index: Int) -> PlaceID { ids[index] }

  /// The index of the place with `id`, if the corpus has one.
  ///
  /// - Complexity: O(log n).
  public func index(of id: PlaceID) -> Int? {
    var (low, high) = (0, idOrder.count)
    while low < high {
      let middle = (low + high) / 2
      if ids[Int(idOrder[middle])] < id { low = middle + 1 } else { high = middle }
    }
    return low < idOrder.count && ids[Int(idOrder[low])] == id ? Int(idOrder[low]) : nil
  }

  /// The full name of the place at `index`.
  public func name(at index: Int) -> String { names[index] }
  /// The administrative level of the place at `index`.
  public func level(at index: Int) -> PlaceLevel { PlaceLevel(rawValue: levels[index])! }
  /// Whether the place at `index` is listed under 热门.
  public func isHot(at index: Int) -> Bool { hot[index] != 0 }
  /// The section the corpus file lists the place under (a property list's A–Z heading), or
  /// `nil` when the file has no sections (every shipped tier).
  public func fileSection(at index: Int) -> String? { fileSections[Int32(index)] }
  /// The number of units (characters) of the place's name.
  @inlinable
  public func unitCount(at index: Int) -> Int { Int(unitStarts[index + 1] - unitStarts[index]) }
  /// The number of units of the place's short name (MatchSpec §5.1).
  @inlinable
  public func shortNameUnitCount(at index: Int) -> Int { Int(shortLengths[index]) }
  /// The parent's index, or `nil` for a top-level place.
  public func parentIndex(at index: Int) -> Int? {
    let p = parents[index]
    return p < 0 ? nil : Int(p)
  }

  /// The units of the place's name as Unicode scalar values.
  public func units(at index: Int) -> Slice<IntegerTable<UInt32>> {
    units[Int(unitStarts[index])..<Int(unitStarts[index + 1])]
  }

  /// Unit `unit` of the place's name: one element of ``units(at:)``, read without making a
  /// slice (a builder's loop over every place).
  @inlinable
  public func unit(at index: Int, _ unit: Int) -> UInt32 { units[Int(unitStarts[index]) + unit] }

  /// The canonical reading tokens, one per unit.
  public func canonicalTokens(at index: Int) -> Slice<IntegerTable<UInt16>> { readings.canonicalTokens(at: index) }

  /// The number of alternate reading sequences of the place (at most 8).
  public func alternateCount(at index: Int) -> Int {
    let n = unitCount(at: index)
    return n == 0 ? 0 : readings.alternateTokens(at: index).count / n
  }

  /// The `k`-th alternate reading sequence, one token per unit.
  public func alternateTokens(at index: Int, _ k: Int) -> Slice<IntegerTable<UInt16>> {
    let n = unitCount(at: index)
    let start = Int(readings.alternateStarts[index]) + k * n
    return readings.alternateTokens[start..<start + n]
  }

  /// The joined canonical pinyin (`beijingshi`), the `seed` mode's pinyin string.
  public func joinedPinyin(at index: Int) -> Slice<IntegerTable<UInt8>> { readings.joinedPinyin(at: index) }

  /// The canonical initials (MatchSpec §4.3): the first letter of each unit's reading, units
  /// without one skipped (`bjs` for 北京市).
  public func initials(at index: Int) -> [UInt8] {
    canonicalTokens(at: index).compactMap {
      MatchRules.initial(firstByte: syllabary.spellings[Int($0)][0], kind: syllabary.kinds[Int($0)])
    }
  }

  /// The canonical initial of each unit (MatchSpec §4.3), `nil` for a unit without one (an
  /// opaque unit such as `·`).
  public func unitInitials(at index: Int) -> [UInt8?] {
    canonicalTokens(at: index).map {
      MatchRules.initial(firstByte: syllabary.spellings[Int($0)][0], kind: syllabary.kinds[Int($0)])
    }
  }

  /// For each unit, the offset in ``joinedPinyin(at:)`` where its syllable ends.
  public func pinyinUnitEnds(at index: Int) -> Slice<IntegerTable<UInt8>> { readings.pinyinUnitEnds(at: index) }

  /// The offset in ``joinedPinyin(at:)`` where the syllable of unit `unit` ends: one element of
  /// ``pinyinUnitEnds(at:)``, read without making a slice (a backend's loop over postings).
  @inlinable
  public func pinyinUnitEnd(at index: Int, unit: Int) -> Int {
    Int(readings.pinyinUnitEnds[Int(unitStarts[index]) + unit])
  }

  /// Where the place's units begin in the corpus-wide tables of units: with
  /// ``pinyinUnitEnd(atPosition:)``, a loop over postings reads one unit's end with one read.
  @inlinable
  public func unitStart(at index: Int) -> Int { Int(unitStarts[index]) }

  /// ``pinyinUnitEnd(at:unit:)`` of the unit at `position` of the corpus-wide tables of units
  /// (``unitStart(at:)`` of its place, plus its unit).
  @inlinable
  public func pinyinUnitEnd(atPosition position: Int) -> Int { Int(readings.pinyinUnitEnds[position]) }

  /// The length of ``joinedPinyin(at:)``, without making a slice.
  @inlinable
  public func joinedPinyinCount(at index: Int) -> Int {
    Int(readings.pinyinStarts[index + 1] - readings.pinyinStarts[index])
  }

  /// The canonical reading token of unit `unit`: one element of ``canonicalTokens(at:)``,
  /// read without making a slice.
  @inlinable
  public func canonicalToken(at index: Int, unit: Int) -> UInt16 { readings.tokens[Int(unitStarts[index]) + unit] }

  /// The letters and digits of the place's readings, literal units and aliases, as
  /// ``Hanzi/letterMask(_:)`` bits.
  public func letterMask(at index: Int) -> UInt64 { readings.letterMask(at: index) }

  /// The place's position in the rank order of places (MatchSpec §5.4): by prominence, most
  /// prominent first, then level, name length and id. 0 is the first place. The ranking of
  /// every backend reads it.
  public func rankOrdinal(at index: Int) -> Int { Int(UInt32(truncatingIfNeeded: rankBases[index])) }

  /// The place's prominence value (Corpus/README.md, "Prominence"); 0 when unknown.
  public func prominence(at index: Int) -> UInt64 { prominences[index] }

  /// The number of aliases of the place (MatchSpec §8).
  public func aliasCount(at index: Int) -> Int { Int(aliasStarts[index + 1] - aliasStarts[index]) }

  /// Whether the place has any alias.
  @inline(__always)
  public func hasAliases(at index: Int) -> Bool { aliasStarts[index + 1] != aliasStarts[index] }

  /// The place's `k`-th alias as query tokens without boundary marks (`沪`, `hongkong`).
  public func aliasTokens(at index: Int, _ k: Int) -> Slice<IntegerTable<UInt32>> {
    let a = Int(aliasStarts[index]) + k
    return aliasUnits[(a == 0 ? 0 : Int(aliasEnds[a - 1]))..<Int(aliasEnds[a])]
  }

  /// The place's aliases flattened, with their ends relative to the slice's start: what the
  /// matcher's ``PlaceMatcher/Subject`` holds.
  public func aliases(at index: Int) -> (units: Slice<IntegerTable<UInt32>>, ends: Slice<IntegerTable<Int32>>) {
    let first = Int(aliasStarts[index])
    let last = Int(aliasStarts[index + 1])
    let start = first == 0 ? 0 : Int(aliasEnds[first - 1])
    let end = last == 0 ? 0 : Int(aliasEnds[last - 1])
    return (aliasUnits[start..<end], aliasEnds[first..<last])
  }

  /// The place's alternate reading sequences, flattened (``alternateCount(at:)`` sequences, each
  /// as long as the name).
  public func alternateTokens(at index: Int) -> Slice<IntegerTable<UInt16>> { readings.alternateTokens(at: index) }

  /// The canonical reading of each unit as text (`["bei", "jing", "shi"]`).
  public func pinyin(at index: Int) -> [String] { canonicalTokens(at: index).map { syllabary.spelling($0) } }

  /// The place's short name (MatchSpec §5.1); the name itself when it has none.
  public func shortName(at index: Int) -> String {
    String(String.UnicodeScalarView(names[index].unicodeScalars.prefix(shortNameUnitCount(at: index))))
  }

  /// The place at `index` as a value.
  public func place(at index: Int) -> Place {
    Place(
      id: ids[index], parentID: parentIndex(at: index).map { ids[$0] }, level: level(at: index),
      name: names[index], pinyin: pinyin(at: index), shortName: shortName(at: index), isHot: hot[index] != 0)
  }
}
