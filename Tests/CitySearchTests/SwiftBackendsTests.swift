import CitySearch
import CitySearchBackends
import CitySearchCatalog
import CitySearchCorpus
import CitySearchTestSupport
import Testing

/// The pure-Swift backends by name, for an app that links neither ICU nor SQLite.
@Suite(.timed) struct SwiftBackendsTests {
  @Test func theCatalogStartsWithThisModulesBackends() {
    let names = SwiftBackends.all.map { $0.name }
    #expect(names == ["linear", "trie", "inverted-index"])
    #expect(BackendCatalog.all.prefix(names.count).map { $0.name } == names)
    #expect(SwiftBackends.backend(named: "inverted-index") == InvertedIndexBackend.self)
    #expect(SwiftBackends.backend(named: "sqlite-fts5") == nil, "SQLite is not in this module")
  }

  @Test func theFastestAnswersAsTheReference() throws {
    let corpus = try EmbeddedCorpus.cities()
    let fastest = SwiftBackends.fastest(corpus: corpus)
    let reference = LinearScanBackend(corpus: corpus)
    for text in ["bj", "xian", "重庆", "shang"] {
      #expect(fastest.search(text) == reference.search(text), "\(text)")
    }
  }
}
