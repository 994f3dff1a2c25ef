/// The readings of a corpus's places, stored flat: one reading token per unit, the alternate
/// reading sequences, the joined canonical pinyin with the offset where each unit's syllable
/// ends (the `seed` mode's string), and per place the letters of every reading.
///
/// A ``Corpus`` holds the reviewed readings in one; a backend that reads the names its own way
/// (the ICU backends, through `Han-Latin`) builds another over the same places and matches
/// it through the same ``PlaceMatcher/withPlaces(readings:_:)``: the layout, the joined pinyin
/// and the letter masks are defined here once.
///
/// ```swift
/// let store = ReadingStore(
///   unitStarts: [0, 2], tokens: [bei, jing], alternateStarts: [0, 0], alternateTokens: [],
///   syllabary: syllabary)
/// store.joinedPinyin(at: 0)  // "beijing"
/// ```
public final class ReadingStore: Sendable {
  /// Place `i`'s units are `unitStarts[i]..<unitStarts[i + 1]` of the corpus: its range in
  /// `tokens` and `pinyinUnitEnds`.
  @usableFromInline let unitStarts: IntegerTable<Int32>
  @usableFromInline let tokens: IntegerTable<UInt16>
  /// `alternateStarts[i]..<alternateStarts[i + 1]` holds place `i`'s alternate sequences,
  /// each as long as its name.
  let alternateStarts: IntegerTable<Int32>
  let alternateTokens: IntegerTable<UInt16>
  /// `pinyinStarts[i]..<pinyinStarts[i + 1]` is place `i`'s joined canonical pinyin in
  /// `pinyinBytes`; `pinyinUnitEnds` holds, per unit, the offset where its syllable ends.
  @usableFromInline let pinyinStarts: IntegerTable<Int32>
  let pinyinBytes: IntegerTable<UInt8>
  @usableFromInline let pinyinUnitEnds: IntegerTable<UInt8>
  /// Per place, the letters and digits of every reading (canonical and alternate) and literal
  /// unit, as ``Hanzi/letterMask(_:)`` bits (the corpus adds its aliases' letters): a query
  /// letter outside it cannot match the place.
  let letterMasks: IntegerTable<UInt64>

  /// The readings of places whose units start at `unitStarts` (one more entry than places):
  /// `tokens` holds one token of `syllabary` per unit, `alternateStarts` and
  /// `alternateTokens` each place's alternate sequences, whole sequences as long as its name.
  /// The joined pinyin and the letter masks are derived from them; `extraLetters`, when given
  /// (one mask per place), adds letters a place matches by other means (the corpus's aliases).
  ///
  /// - Precondition: `tokens.count == unitStarts.last` and `alternateStarts.count ==
  ///   unitStarts.count`.
  public convenience init(
    unitStarts: ContiguousArray<Int32>, tokens: ContiguousArray<UInt16>, alternateStarts: ContiguousArray<Int32>,
    alternateTokens: ContiguousArray<UInt16>, syllabary: Syllabary, extraLetters: ContiguousArray<UInt64>? = nil
  ) {
    precondition(tokens.count == Int(unitStarts.last ?? 0), "one token per unit")
    precondition(alternateStarts.count == unitStarts.count, "one alternate range per place")
    precondition(extraLetters.map { $0.count == unitStarts.count - 1 } ?? true, "one extra mask per place")
    let places = unitStarts.count - 1

    var pinyinStarts = ContiguousArray<Int32>()
    pinyinStarts.reserveCapacity(places + 1)
    var pinyinBytes = ContiguousArray<UInt8>()
    pinyinBytes.reserveCapacity(tokens.count * 4)
    var pinyinUnitEnds = ContiguousArray<UInt8>()
    pinyinUnitEnds.reserveCapacity(tokens.count)
    for place in 0..<places {
      let start = pinyinBytes.count
      pinyinStarts.append(Int32(start))
      for t in Int(unitStarts[place])..<Int(unitStarts[place + 1]) {
        let token = Int(tokens[t])
        if syllabary.kinds[token] != .opaque { pinyinBytes.append(contentsOf: syllabary.spellings[token]) }
        pinyinUnitEnds.append(UInt8(clamping: pinyinBytes.count - start))
      }
    }
    pinyinStarts.append(Int32(pinyinBytes.count))

    var tokenMasks = syllabary.spellings.map { Hanzi.letterMask($0.lazy.map(UInt32.init)) }
    for (token, kind) in syllabary.kinds.enumerated() where kind == .opaque { tokenMasks[token] = 0 }
    var letterMasks = extraLetters ?? ContiguousArray<UInt64>(repeating: 0, count: places)
    for place in 0..<places {
      var mask: UInt64 = 0
      for t in Int(unitStarts[place])..<Int(unitStarts[place + 1]) { mask |= tokenMasks[Int(tokens[t])] }
      for t in Int(alternateStarts[place])..<Int(alternateStarts[place + 1]) {
        mask |= tokenMasks[Int(alternateTokens[t])]
      }
      letterMasks[place] |= mask
    }
    self.init(
      unitStarts: IntegerTable(unitStarts), tokens: IntegerTable(tokens),
      alternateStarts: IntegerTable(alternateStarts),
      alternateTokens: IntegerTable(alternateTokens), pinyinStarts: IntegerTable(pinyinStarts),
      pinyinBytes: IntegerTable(pinyinBytes), pinyinUnitEnds: IntegerTable(pinyinUnitEnds),
      letterMasks: IntegerTable(letterMasks))
  }

  /// A store of tables already derived, as an archive holds them (`Corpus+Archive.swift`).
  init(
    unitStarts: IntegerTable<Int32>, tokens: IntegerTable<UInt16>, alternateStarts: IntegerTable<Int32>,
    alternateTokens: IntegerTable<UInt16>, pinyinStarts: IntegerTable<Int32>,
    pinyinBytes: IntegerTable<UInt8>, pinyinUnitEnds: IntegerTable<UInt8>, letterMasks: IntegerTable<UInt64>
  ) {
    self.unitStarts = unitStarts
    self.tokens = tokens
    self.alternateStarts = alternateStarts
    self.alternateTokens = alternateTokens
    self.pinyinStarts = pinyinStarts
    self.pinyinBytes = pinyinBytes
    self.pinyinUnitEnds = pinyinUnitEnds
    self.letterMasks = letterMasks
  }

  /// The number of places.
  public var count: Int { unitStarts.count - 1 }

  /// The canonical reading tokens of place `index`, one per unit.
  public func canonicalTokens(at index: Int) -> Slice<IntegerTable<UInt16>> {
    tokens[Int(unitStarts[index])..<Int(unitStarts[index + 1])]
  }

  /// The place's alternate reading sequences, flattened, each as long as the name.
  public func alternateTokens(at index: Int) -> Slice<IntegerTable<UInt16>> {
    alternateTokens[Int(alternateStarts[index])..<Int(alternateStarts[index + 1])]
  }

  /// The joined canonical pinyin (`beijingshi`), the `seed` mode's pinyin string.
  public func joinedPinyin(at index: Int) -> Slice<IntegerTable<UInt8>> {
    pinyinBytes[Int(pinyinStarts[index])..<Int(pinyinStarts[index + 1])]
  }

  /// For each unit, the offset in ``joinedPinyin(at:)`` where its syllable ends.
  public func pinyinUnitEnds(at index: Int) -> Slice<IntegerTable<UInt8>> {
    pinyinUnitEnds[Int(unitStarts[index])..<Int(unitStarts[index + 1])]
  }

  /// The letters and digits of the place's readings and literal units (and, in a corpus's
  /// store, its aliases), as ``Hanzi/letterMask(_:)`` bits.
  public func letterMask(at index: Int) -> UInt64 { letterMasks[index] }

  /// The bytes of its arrays, for an index's statistics.
  public var countedBytes: Int {
    tokens.count * 2 + alternateStarts.count * 4 + alternateTokens.count * 2 + pinyinStarts.count * 4
      + pinyinBytes.count + pinyinUnitEnds.count + letterMasks.count * 8
  }
}
