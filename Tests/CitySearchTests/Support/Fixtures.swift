import CitySearch
import CitySearchBackends
import CitySearchTestSupport
import Foundation

/// Paths and shared, lazily loaded corpora for the tests.
enum Fixtures {
  /// The package root, found from this file's path.
  static let packageRoot: URL = TestPaths.packageRoot

  static let corpusDirectory = TestTiers.directory
  static let testsDirectory = packageRoot.appendingPathComponent("Tests/CitySearchTests")

  static func fixturePath(_ name: String) -> String {
    testsDirectory.appendingPathComponent("Fixtures").appendingPathComponent(name).path
  }

  static var tables: ReadingTables { TestTiers.tables }
  static var cities: Corpus { TestTiers.cities }
  static var towns: Corpus { TestTiers.towns }
  static let latinDigits: Corpus = try! CorpusLoader.load(path: fixturePath("latin-digits.tsv"), tables: tables)

  static let citiesReference = LinearScanBackend(corpus: cities)

  /// A corpus built from TSV text, for loader tests.
  static func corpus(tsv: String, name: String = "inline.tsv", pinyin: (any PinyinSource)? = nil) throws -> Corpus {
    try CorpusLoader.load(data: Data(tsv.utf8), name: name, tables: tables, pinyinSource: pinyin)
  }

  /// The index of the place with `name`, which must be unique in `corpus`.
  static func index(of name: String, in corpus: Corpus = cities) -> Int {
    let found = (0..<corpus.count).filter { corpus.name(at: $0) == name }
    precondition(found.count == 1, "\(name) names \(found.count) places")
    return found[0]
  }
}
