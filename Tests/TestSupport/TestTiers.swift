import CitySearch

/// The corpus tiers every test target reads, each loaded once per test process from the
/// package's `Corpus/` (the files the embedded tier is compiled from), whichever target asks
/// first.
public enum TestTiers {
  /// The package's `Corpus/` directory.
  public static let directory = CorpusDirectory(path: TestPaths.file("Corpus").path)
  /// The shared reading tables (polyphones, Traditional forms, place facts).
  public static let tables: ReadingTables = try! directory.loadTables()
  /// The `cities` tier.
  public static let cities: Corpus = try! directory.load(.cities)
  /// The `towns` tier.
  public static let towns: Corpus = try! directory.load(.towns)
}
