import CitySearch
import Foundation

extension ShortQueryAnswers {
  /// The version of the file layout ``fileData(for:)`` writes (2: the length in the header and a
  /// word-wise checksum; 3: each table's values aligned to 8 bytes; 4: every answer of three
  /// characters or more computed is kept, with as many hits as it has, up to ``depth``).
  public static let fileFormat: UInt32 = 4
  static let magic = Array("CSBANSW\0".utf8)
  /// What the file is, for ``ArchiveError/notThisKind(_:)``.
  static let fileKind = "a file of precomputed answers"

  /// The answers as a file an app ships beside its corpus and loads in milliseconds
  /// (``init(fileData:corpus:)``) instead of computing them at build: the magic bytes, the
  /// format, the match contract, the corpus's `Corpus.fingerprint`, the tables (little-endian),
  /// and a checksum of all of it.
  public func fileData(for corpus: Corpus) -> Data {
    var writer = ArchiveWriter(magic: Self.magic, format: Self.fileFormat)
    writer.text(MatchContract.version)
    writer.integer(corpus.fingerprint)
    archive(into: &writer)
    return writer.finished()
  }

  /// Answers read from `fileData`, checked to be whole, of this format and contract, and for
  /// `corpus`.
  ///
  /// - Throws: `ArchiveError` naming what is wrong; nothing is half-read.
  /// - Complexity: O(*b*) in the file's bytes, plus the corpus's `Corpus.fingerprint`.
  public init(fileData: Data, corpus: Corpus) throws(ArchiveError) {
    var reader = try ArchiveReader(data: fileData, magic: Self.magic, format: Self.fileFormat, kind: Self.fileKind)
    let contract = try reader.text("the header")
    guard contract == MatchContract.version else { throw .contract(found: contract) }
    let fingerprint: UInt64 = try reader.integer("the header")
    guard fingerprint == corpus.fingerprint else { throw .otherCorpus }
    self = try ShortQueryAnswers(reading: &reader, placeCount: corpus.count)
    try reader.finish()
  }

  /// Writes a backend's answers without rules and with every rule, each when it keeps them
  /// (``readPair(from:placeCount:)`` reads them back): for a backend's index file.
  public static func archive(
    _ answers: ShortQueryAnswers?, fuzzy: ShortQueryAnswers?, into writer: inout ArchiveWriter
  ) {
    for kept in [answers, fuzzy] { writer.optional(kept) { $0.archive(into: &$1) } }
  }

  /// The answers ``archive(_:fuzzy:into:)`` wrote, checked: the first without rules, the
  /// second with some.
  public static func readPair(from reader: inout ArchiveReader, placeCount: Int) throws(ArchiveError) -> (
    answers: ShortQueryAnswers?, fuzzy: ShortQueryAnswers?
  ) {
    var pair: [ShortQueryAnswers?] = []
    for _ in 0..<2 {
      pair.append(
        try reader.optional("the precomputed answers") { (reader) throws(ArchiveError) in
          try ShortQueryAnswers(reading: &reader, placeCount: placeCount)
        })
    }
    try reader.require(
      pair[0].map { $0.fuzzy.isEmpty } ?? true && pair[1].map { !$0.fuzzy.isEmpty } ?? true, "the precomputed answers")
    return (pair[0], pair[1])
  }

  /// Writes the tables (``init(reading:placeCount:)`` reads them back), for a file of answers
  /// or a backend's index.
  public func archive(into writer: inout ArchiveWriter) {
    writer.integer(UInt32(Self.depth))
    writer.integer(fuzzy.rawValue)
    writer.table(tables.totals)
    writer.table(tables.places)
    writer.table(tables.matches)
    writer.table(tables.longerKeys)
    writer.table(tables.longerTotals)
    writer.table(tables.longerStarts)
    writer.table(tables.longerPlaces)
    writer.table(tables.longerMatches)
  }

  /// The tables ``archive(into:)`` wrote, checked against each other and against a corpus of
  /// `placeCount` places.
  ///
  /// - Throws: `ArchiveError` naming the first table that is cut or holds what cannot be.
  public init(reading reader: inout ArchiveReader, placeCount: Int) throws(ArchiveError) {
    let depth: UInt32 = try reader.integer("the header")
    guard depth == Self.depth else { throw .badTable("the header's depth") }
    let fuzzy = FuzzyRules(rawValue: try reader.integer("the header"))
    let totals: IntegerTable<Int32> = try reader.integerTable("totals")
    let places: IntegerTable<Int32> = try reader.integerTable("places")
    let matches: IntegerTable<UInt32> = try reader.integerTable("matches")
    let longerKeys: IntegerTable<UInt64> = try reader.integerTable("longer keys")
    let longerTotals: IntegerTable<Int32> = try reader.integerTable("longer totals")
    let longerStarts: IntegerTable<Int32> = try reader.integerTable("longer starts")
    let longerPlaces: IntegerTable<Int32> = try reader.integerTable("longer places")
    let longerMatches: IntegerTable<UInt32> = try reader.integerTable("longer matches")

    let depthCount = Int(depth)
    try reader.require(
      totals.count == MatchMode.allCases.count * Self.keyCount && places.count == totals.count * depthCount
        && matches.count == places.count, "the short answers")
    // The longer answers: keys strictly ascending (a binary search finds each), and answer i's
    // min(total, depth) hits from longerStarts[i] on.
    try reader.require(
      longerKeys.isStrictlyIncreasing && longerTotals.count == longerKeys.count
        && longerStarts.count == longerKeys.count + 1 && longerStarts.first == 0
        && longerStarts.last.map { Int($0) == longerPlaces.count } == true
        && longerMatches.count == longerPlaces.count
        && longerTotals.indices.allSatisfy { i in
          Int(longerStarts[i + 1]) - Int(longerStarts[i]) == min(max(Int(longerTotals[i]), 0), depthCount)
        }, "the longer answers")
    try reader.require(
      places.allLie(in: -1..<placeCount) && longerPlaces.allLie(in: 0..<placeCount)
        && totals.allLie(in: 0..<Int(Int32.max)) && longerTotals.allLie(in: 0..<Int(Int32.max)),
      "the answers' places")
    // A short answer reads the first min(total, depth) slots of its key: each must name a place.
    try reader.require(
      totals.indices.allSatisfy { slot in
        places[slot * depthCount..<slot * depthCount + min(Int(totals[slot]), depthCount)].allSatisfy { $0 >= 0 }
      }, "the answers' places")
    self.init(
      fuzzy: fuzzy, totals: totals, places: places, matches: matches, longerKeys: longerKeys,
      longerTotals: longerTotals, longerStarts: longerStarts, longerPlaces: longerPlaces,
      longerMatches: longerMatches)
  }
}

/// A backend whose precomputed answers can be handed to it rather than computed at build
/// (`trie`, `inverted-index`): an app ships the answers file beside its corpus, and
/// `citybench index` writes and checks one, without naming a backend.
public protocol ShortAnswersBackend: MatchSource, SearchBackend {
  /// The backend over `corpus` with `shortAnswers` as its precomputed answers.
  init(corpus: Corpus, options: BackendOptions, shortAnswers: ShortQueryAnswers)
}
