import CitySearch
import Foundation

/// The default `cities` tier and the character tables, compiled into the binary: an app (or
/// `citybench`) gets a working corpus with no files beside it.
///
/// The bytes are those of `Corpus/cities.tsv`, `Corpus/polyphones.tsv`, `Corpus/traditional.tsv`,
/// `Corpus/prominence.tsv` and `Corpus/aliases.tsv` at build time (this target's resources are links to them).
///
/// ```swift
/// let corpus = try EmbeddedCorpus.cities()
/// let backend = LinearScanBackend(corpus: corpus)
/// ```
public enum EmbeddedCorpus {
  /// The name embedded corpora report as their source.
  public static let sourceName = "cities (embedded)"

  /// The polyphone and Traditional → Simplified tables and the place facts.
  public static func tables() throws -> ReadingTables {
    try ReadingTables(
      polyphones: Data(PackageResources.polyphones_tsv), polyphonesName: "polyphones.tsv (embedded)",
      traditional: Data(PackageResources.traditional_tsv), traditionalName: "traditional.tsv (embedded)",
      prominence: (Data(PackageResources.prominence_tsv), "prominence.tsv (embedded)"),
      aliases: (Data(PackageResources.aliases_tsv), "aliases.tsv (embedded)"))
  }

  /// The `cities` tier: provinces, prefectures and county-level units.
  public static func cities(tables: ReadingTables? = nil) throws -> Corpus {
    try CorpusLoader.load(
      data: Data(PackageResources.cities_tsv), name: sourceName, format: .tsv, tables: tables ?? self.tables())
  }
}
