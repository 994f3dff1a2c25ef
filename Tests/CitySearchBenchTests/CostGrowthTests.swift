import CitySearchTestSupport
import Foundation
import FoundationXML
import Testing

@testable import CitySearchBench

/// The cost-growth table of a multi-tier run and its reports.
@Suite(.timed) struct CostGrowthTests {
  /// The small real run of ``ReportTests`` (linear and trie), posing as a tier of `places`
  /// places: every p50 is `latency` µs and every p99 ten times that, builds take 0.01 s,
  /// linear keeps 1 kB and trie `trieHeap` bytes.
  static func tier(_ name: String, places: Int, latency: Double, trieHeap: Int) -> BenchResults {
    var results = ReportTests.run.results
    results.metadata.corpus = .init(name: name, places: places, checksum: "checksum-\(name)")
    results.backends = results.backends.filter { $0.name == "linear" || $0.name == "trie" }
    for i in results.backends.indices {
      var distribution = results.backends[i].latency!
      distribution.p50 = Estimate(value: 1_000 * latency, lower: 900 * latency, upper: 1_100 * latency)
      distribution.p99 = Estimate(value: 10_000 * latency, lower: 9_000 * latency, upper: 11_000 * latency)
      results.backends[i].latency = distribution
      results.backends[i].build.seconds = 0.01
      results.backends[i].build.heapBytes = results.backends[i].name == "trie" ? trieHeap : 1_000
      results.backends[i].conformance.divergences = 0
    }
    return results
  }

  /// Trie's latency grows in proportion to the corpus and its heap with its square; the rest stays.
  static let runs = [
    tier("large", places: 100_000, latency: 100, trieHeap: 100_000_000),
    tier("small", places: 1_000, latency: 1, trieHeap: 10_000),
    tier("medium", places: 10_000, latency: 10, trieHeap: 1_000_000),
  ]

  @Test func theTableHoldsEveryBackendOnEveryTierWithItsExponents() throws {
    let growth = try CostGrowth(runs: Self.runs)
    #expect(growth.tiers.map(\.name) == ["small", "medium", "large"])
    #expect(growth.series.map(\.backend) == ["linear", "trie"])
    let trie = try #require(growth.series.last)
    #expect(trie.points.map(\.places) == [1_000, 10_000, 100_000])
    #expect(trie.points.map(\.heapBytes) == [10_000, 1_000_000, 100_000_000])
    for (metric, expected) in [(CostGrowth.Metric.p50, 1.0), (.p99, 1), (.build, 0), (.heap, 2)] {
      let exponent = try #require(trie.exponent(metric))
      #expect(abs(exponent - expected) < 1e-9, "\(metric)")
    }
    let linear = try #require(growth.series.first)
    #expect(abs(try #require(linear.exponent(.heap))) < 1e-9)
    // The table round-trips through growth.json.
    #expect(try JSONDecoder().decode(CostGrowth.self, from: growth.jsonData()) == growth)
  }

  @Test func runsThatAreNotOneMultiTierRunAreRefused() {
    #expect(throws: CostGrowth.Mismatch.self) { try CostGrowth(runs: [Self.runs[0]]) }
    var twin = Self.runs[1]
    twin.metadata.corpus.name = "twin"
    #expect(throws: CostGrowth.Mismatch.self) { try CostGrowth(runs: [Self.runs[1], twin]) }
    var seed = Self.runs[0]
    seed.metadata.mode = "seed"
    let error = #expect(throws: CostGrowth.Mismatch.self) { try CostGrowth(runs: [Self.runs[1], seed]) }
    #expect(error?.description.contains("seed mode") == true)
  }

  @Test func aBackendMissingOnATierIsLeftOut() throws {
    var runs = Self.runs
    runs[0].backends.removeAll { $0.name == "trie" }
    #expect(try CostGrowth(runs: runs).series.map(\.backend) == ["linear"])
  }

  @Test func theReportsOpenWithTheFindingAndLinkEachTier() throws {
    let growth = try CostGrowth(runs: Self.runs)
    let sentences = GrowthReport.sentences(growth, runs: Self.runs)
    let first = try #require(sentences.first)
    #expect(first.hasPrefix("On the largest tier, large (100,000 places), the fastest conforming backend is **trie**"))
    #expect(first.contains("p50 N^1.00") && first.contains("heap N^2.00"))
    #expect(sentences.contains("Conformance: every timed answer on every tier matches the reference's."))

    let markdown = GrowthReport.markdown(growth, runs: Self.runs)
    #expect(markdown.contains("[small](small.report.md)"))
    #expect(markdown.contains("| trie | 1.00 | 1.00 | 0.00 | 2.00 |"))

    let html = GrowthReport.html(growth, runs: Self.runs)
    let parser = XMLParser(data: Data(html.utf8))
    let collector = ElementCollector()
    parser.delegate = collector
    #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
    #expect(collector.elements.filter { $0 == "svg" }.count == CostGrowth.Metric.allCases.count)
    #expect(html.contains("href=\"large.report.html\""))
    #expect(html.contains("trie (N^2.00)"))
    #expect(html.contains("<title>trie on medium: 10.0 µs</title>"))
    for title in ["Growth exponents", "Costs per tier"] {
      #expect(markdown.contains("## \(title)") && html.contains("<h2>\(title)</h2>"))
    }
  }

  @Test func aDivergenceOnAnyTierIsInTheFinding() throws {
    var runs = Self.runs
    runs[2].backends[1].conformance.divergences = 3
    let sentences = GrowthReport.sentences(try CostGrowth(runs: runs), runs: runs)
    #expect(sentences.contains { $0.hasPrefix("**Divergences:** trie on medium (3 answers)") })
  }

  @Test func theExponentIsTheSlopeOnLogLogAxes() throws {
    let linear = try #require(CostGrowth.exponent([(1_000, 2), (100_000, 200)]))
    #expect(abs(linear - 1) < 1e-12)
    let square = try #require(CostGrowth.exponent([(10, 1), (100, 100), (1_000, 10_000)]))
    #expect(abs(square - 2) < 1e-12)
    let flat = try #require(CostGrowth.exponent([(3_211, 5), (41_934, 5), (642_626, 5)]))
    #expect(abs(flat) < 1e-12)
    // Three points off a line: the least-squares slope lies between the two segments' slopes.
    let bent = try #require(CostGrowth.exponent([(10, 1), (100, 10), (1_000, 1_000)]))
    #expect(bent > 1 && bent < 2)
    #expect(CostGrowth.exponent([(1_000, 2)]) == nil)
    #expect(CostGrowth.exponent([(1_000, 2), (1_000, 3)]) == nil)
    #expect(CostGrowth.exponent([(1_000, 0), (10_000, 3)]) == nil, "a zero cost has no logarithm")
  }
}
