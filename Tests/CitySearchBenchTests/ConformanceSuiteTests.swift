import CitySearch
import CitySearchBackends
import CitySearchConformance
import CitySearchCorpus
import CitySearchTestSupport
import Testing

@testable import CitySearchBench

/// The conformance check as a library (`ConformanceSuite`), without the command line: a
/// conforming backend passes, a double that drops the last hit fails with a reproduction, and
/// the run's lines and progress go to the hooks.
@Suite(.timed) struct ConformanceSuiteTests {
  @Test func aConformingBackendPassesAndADoubleFailsWithItsReproduction() throws {
    var settings = ConformanceSuite.Settings()
    settings.every = 400
    settings.modes = [.syllable]
    settings.goldenQueries = ["bj", "xi'an"]
    var lines: [String] = []
    var steps: [String] = []
    let hooks = ConformanceSuite.Hooks(
      loadTier: { tier in
        #expect(tier == .cities)
        return BenchFixtures.cities
      }, emit: { lines.append($0) },
      progress: { label in
        steps.append(label)
        return ({ _, _ in }, {})
      })
    let outcome = try ConformanceSuite.run(
      settings, candidates: [.init(type: TrieBackend.self), .init(type: DropsLastHitBackend.self)], hooks: hooks)
    let checks = Dictionary(uniqueKeysWithValues: outcome.result.checks.map { ($0.backend, $0) })
    #expect(checks["trie"]?.unexpectedCount == 0)
    #expect((checks["trie"]?.statelessChecked ?? 0) > 0)
    #expect((checks[DropsLastHitBackend.name]?.unexpectedCount ?? 0) > 0)
    #expect(outcome.result.failed)
    #expect(outcome.result.settings.tiers.map(\.name) == ["cities"])
    #expect(lines.first?.hasPrefix("\n== cities: 3211 places; exhaustive over one place in 400") == true)
    #expect(
      lines.contains {
        $0.contains("reproduce: citybench search --corpus cities --backends \(DropsLastHitBackend.name)")
      })
    #expect(
      steps == ["cities syllable reference", "cities syllable trie", "cities syllable \(DropsLastHitBackend.name)"])
    #expect(outcome.lastCorpus?.count == BenchFixtures.cities.count)
  }

  /// On a keyboard the places are typed by their keys: the trie conforms on every text the layout
  /// reads (stateless and in sessions), the double that drops a hit does not, and the result
  /// records the layout.
  @Test(arguments: ["xiaohe", "daqian"])
  func placesTypedOnAKeyboard(_ name: String) throws {
    var settings = ConformanceSuite.Settings()
    settings.every = 200
    settings.modes = [.syllable]
    settings.keyboard = try #require(try EmbeddedCorpus.keyboard(named: name))
    var lines: [String] = []
    let hooks = ConformanceSuite.Hooks(
      loadTier: { _ in BenchFixtures.cities }, emit: { lines.append($0) }, progress: { _ in ({ _, _ in }, {}) })
    let outcome = try ConformanceSuite.run(
      settings, candidates: [.init(type: TrieBackend.self), .init(type: DropsLastHitBackend.self)], hooks: hooks)
    let checks = Dictionary(uniqueKeysWithValues: outcome.result.checks.map { ($0.backend, $0) })
    #expect(checks["trie"]?.unexpectedCount == 0)
    #expect((checks["trie"]?.keystrokesChecked ?? 0) > 0)
    #expect((checks[DropsLastHitBackend.name]?.unexpectedCount ?? 0) > 0)
    #expect(outcome.result.settings.keyboard == name)
    #expect(
      lines.first?.hasPrefix("\n== cities: 3211 places; typed on \(name): the keys of 17 places (one in 200), ") == true
    )
  }
}
