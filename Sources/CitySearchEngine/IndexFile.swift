import CitySearch
import Foundation

/// A backend's whole index as one file: the header (format, match contract, backend, corpus),
/// the corpus's tables, the backend's structures and a checksum. An app builds it once
/// (`citybench index build`), ships it, and opens it at launch in milliseconds instead of
/// loading a corpus and building (`villages`: seconds).
///
/// A file that is cut, altered, of another format or contract, or of a backend other than
/// the one asked for is refused with an `ArchiveError` naming the problem; nothing is
/// half-read, and every table is checked so that no search can read outside an array.
///
/// ```swift
/// let data = IndexFile.data(of: TrieBackend(corpus: corpus))
/// let trie = try IndexFile.open(data, as: TrieBackend.self, tables: EmbeddedCorpus.tables())
/// ```
public enum IndexFile {
  /// The version of the layout ``data(of:)`` writes: 2 since `trie` keeps a second trie, of
  /// readings; 3 since each table's values are aligned to 8 bytes, so that an opened file's
  /// tables are used where they lie (`ArchiveReader.integerTable(_:)`); 4 since a posting list
  /// that more than one place in 32 holds is a bitset (`PostingLists`); 5 since `inverted-index`
  /// keeps the long keys of every three-letter key of more than 32 places, not 256 (its search
  /// takes a long key's list for granted there); 6 since it keeps six-letter keys too
  /// (`InvertedIndexBackend.longerLists`); 7 since the precomputed answers keep every answer
  /// computed, each with as many hits as it has (``ShortQueryAnswers/fileFormat`` 4); 8 since
  /// `trie` numbers its nodes breadth first, so that an edge's target is its number plus one and
  /// is not stored.
  public static let format: UInt32 = 8
  static let magic = Array("CSBINDX\0".utf8)
  static let kind = "an index file"

  /// What a file's header says: enough to choose the backend type that opens it.
  public struct Header: Sendable, Equatable {
    /// The name of the backend whose index it holds.
    public var backend: String
    /// The match contract it answers.
    public var contract: String
    /// Where its corpus came from (a tier or a file's path when it was built).
    public var corpusSource: String
    /// How many places its corpus holds.
    public var places: Int
    /// Its corpus's `Corpus.fingerprint`.
    public var fingerprint: UInt64
  }

  /// The file of `backend`'s index and its corpus.
  ///
  /// - Complexity: O(n) in the size of the corpus's and the index's tables.
  public static func data<B: ArchivableBackend>(of backend: B) -> Data {
    var writer = ArchiveWriter(magic: magic, format: format)
    writer.text(MatchContract.version)
    writer.text(B.name)
    writer.text(backend.corpus.source)
    writer.integer(UInt64(backend.corpus.count))
    writer.integer(backend.corpus.fingerprint)
    backend.corpus.archive(into: &writer)
    backend.archive(into: &writer)
    return writer.finished()
  }

  /// The header of the file `data`, read without the rest (its length checked, not its checksum).
  ///
  /// - Throws: `ArchiveError` when it is not an index file of this format and contract.
  public static func header(of data: Data) throws(ArchiveError) -> Header {
    var reader = try ArchiveReader(data: data, magic: magic, format: format, kind: kind, verify: false)
    return try header(&reader)
  }

  private static func header(_ reader: inout ArchiveReader) throws(ArchiveError) -> Header {
    let contract = try reader.text("the header")
    guard contract == MatchContract.version else { throw .contract(found: contract) }
    let backend = try reader.text("the header")
    let source = try reader.text("the header")
    let places: UInt64 = try reader.integer("the header")
    let fingerprint: UInt64 = try reader.integer("the header")
    try reader.require(places <= UInt64(Int32.max), "the header")
    return Header(
      backend: backend, contract: contract, corpusSource: source, places: Int(places), fingerprint: fingerprint)
  }

  /// The backend of type `type` the file `data` holds, with its corpus (whose queries are
  /// folded with `tables`, as a loader's are), checked whole.
  ///
  /// - Throws: `ArchiveError`: not an index file, another format or contract, another
  ///   backend's index, a table cut or holding what cannot be, a checksum that does not match.
  /// - Complexity: O(b) in the file's bytes: copies and one pass of checks.
  public static func open<B: ArchivableBackend>(_ data: Data, as type: B.Type, tables: ReadingTables)
    throws(ArchiveError) -> B
  {
    var reader = try ArchiveReader(data: data, magic: magic, format: format, kind: kind)
    return try open(&reader, as: type, tables: tables)
  }

  private static func open<B: ArchivableBackend>(_ reader: inout ArchiveReader, as type: B.Type, tables: ReadingTables)
    throws(ArchiveError) -> B
  {
    let header = try header(&reader)
    guard header.backend == B.name else { throw .otherBackend(header.backend) }
    let corpus = try Corpus(reading: &reader, tables: tables)
    try reader.require(corpus.count == header.places, "the header")
    let backend = try B(reading: &reader, corpus: corpus)
    try reader.finish()
    return backend
  }

  /// The backend of type `type` the file at `path` holds, as ``open(_:as:tables:)`` reads it
  /// from bytes, but mapped rather than read: after the checksum and the checks, the corpus's
  /// and the index's tables are used where they lie in the mapping, not copied (`villages`:
  /// 140 MB opened in about 45 ms instead of 150 ms, the pages the file's, shared and clean).
  ///
  /// The file must not change while the backend lives (the checks were made of its bytes at
  /// the open): replace it by writing a new file and renaming it over the old one, as
  /// `citybench index build` does, never by writing into it.
  ///
  /// - Throws: `ArchiveError`: a file that cannot be read, or as ``open(_:as:tables:)``.
  /// - Complexity: O(b) in the file's bytes: the checksum and one pass of checks, no copy.
  public static func open<B: ArchivableBackend>(contentsOf path: String, as type: B.Type, tables: ReadingTables)
    throws(ArchiveError) -> B
  {
    let file = try MappedFile(path: path)
    var reader = try ArchiveReader(mapped: file, magic: magic, format: format, kind: kind)
    defer { file.adviseRandomReads() }
    return try open(&reader, as: type, tables: tables)
  }

  /// The backend the file at `path` holds, of whichever of `types` its header names, read as
  /// ``open(contentsOf:as:tables:)`` reads it.
  public static func open(contentsOf path: String, among types: [any SearchBackend.Type], tables: ReadingTables)
    throws(ArchiveError) -> any ArchivableBackend
  {
    let file = try MappedFile(path: path)
    let type = try archivable(named: try header(of: file.data).backend, among: types)
    var reader = try ArchiveReader(mapped: file, magic: magic, format: format, kind: kind)
    defer { file.adviseRandomReads() }
    return try open(&reader, as: type, tables: tables)
  }

  private static func archivable(named name: String, among types: [any SearchBackend.Type]) throws(ArchiveError)
    -> any ArchivableBackend.Type
  {
    guard let type = types.first(where: { $0.name == name }) as? any ArchivableBackend.Type else {
      throw .otherBackend(name)
    }
    return type
  }

  /// The backend the file `data` holds, of whichever of `types` its header names.
  ///
  /// - Throws: `ArchiveError.otherBackend` when none of `types` is that backend or can
  ///   open an index; otherwise as ``open(_:as:tables:)``.
  public static func open(_ data: Data, among types: [any SearchBackend.Type], tables: ReadingTables)
    throws(ArchiveError) -> any ArchivableBackend
  {
    try open(data, as: try archivable(named: try header(of: data).backend, among: types), tables: tables)
  }
}
