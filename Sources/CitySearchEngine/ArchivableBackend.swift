import CitySearch

/// A backend whose index can be written to a file and opened again instead of built
/// (`IndexFile`): an app builds it once, ships the file, and is ready at launch.
///
/// A conforming backend writes its own structures and reads them back checked; `IndexFile`
/// adds the header (backend, match contract, corpus) and the corpus's tables, so that the
/// file alone holds everything a search reads.
public protocol ArchivableBackend: SearchBackend {
  /// Writes the backend's structures (not its corpus).
  func archive(into writer: inout ArchiveWriter)
  /// The backend ``archive(into:)`` wrote for `corpus`, checked so that no search can read
  /// outside its arrays.
  ///
  /// - Throws: `ArchiveError` naming the first table that is cut or holds what cannot be.
  init(reading reader: inout ArchiveReader, corpus: Corpus) throws(ArchiveError)
}
