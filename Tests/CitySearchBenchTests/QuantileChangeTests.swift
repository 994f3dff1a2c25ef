import CitySearchConformance
import CitySearchTestSupport
import Foundation
import Testing

@testable import CitySearchBench

/// The bootstrap of a quantile's change between two runs, the samples it reads back, and
/// `compare` using them.
@Suite(.timed) struct QuantileChangeTests {
  /// Skewed, latency-like samples: most fast, a tail of slow ones.
  static func samples(_ n: Int, seed: UInt64) -> [Double] {
    var random = SplitMix64(seed: seed)
    return (0..<n).map { _ in
      let u = Double(random.next() % 1_000_000) / 1_000_000
      return 1_000 + 50_000 * u * u * u
    }
  }

  @Test func selectionFindsTheNearestRankQuantile() {
    let values = Self.samples(1_001, seed: 7)
    let sorted = values.sorted()
    for q in [0.0, 0.01, 0.5, 0.9, 0.99, 1.0] {
      #expect(QuantileChange.select(values, q) == Quantiles.quantile(q, sorted: sorted), "\(q)")
    }
  }

  /// Paired samples that differ by a constant factor change by exactly it, with no width;
  /// the same samples do not change at all.
  @Test func pairedSamplesCancelWhatTheKeystrokesShare() {
    let a = Self.samples(2_000, seed: 1)
    let same = QuantileChange.estimate(a: a, b: a, quantile: 0.99, paired: true, resamples: 200)
    #expect(same.value == 1 && same.lower == 1 && same.upper == 1)
    let doubled = QuantileChange.estimate(a: a, b: a.map { $0 * 2 }, quantile: 0.5, paired: true, resamples: 200)
    #expect(doubled.value == 2 && doubled.lower == 2 && doubled.upper == 2)
  }

  /// Independent runs of one distribution: the interval holds 1; a run 1.5× slower: the
  /// interval holds 1.5 and not 1.
  @Test func independentSamplesFindAChangeBeyondTheirNoise() {
    let a = Self.samples(3_000, seed: 1)
    let b = Self.samples(3_000, seed: 2)
    let none = QuantileChange.estimate(a: a, b: b, quantile: 0.5, paired: false, resamples: 300)
    #expect(none.lower < 1 && none.upper > 1)
    let slower = QuantileChange.estimate(a: a, b: b.map { $0 * 1.5 }, quantile: 0.5, paired: false, resamples: 300)
    #expect(slower.lower > 1 && slower.lower < 1.5 && slower.upper > 1.5)
  }

  /// samples.csv is read back per backend and keystroke, the median of the rounds, quoted
  /// fields included; a malformed row is an error that names it.
  @Test func samplesAreReadBackPerKeystroke() throws {
    let text =
      SamplesCSV.header + "\n"
      + "trie,1,1,s1,1,pinyin,0,1,b,100\ntrie,2,1,s1,1,pinyin,0,1,b,300\ntrie,3,1,s1,1,pinyin,0,1,b,200\n"
      + "\"a,b\",1,2,s1,2,mixed,0,4,\"b\"\"j,x\",50\n"
    let medians = try SamplesCSV.keystrokeMedians(text)
    #expect(medians["trie"] == [1: 200])
    #expect(medians["a,b"] == [2: 50])
    #expect(throws: SamplesCSV.ReadError.self) {
      try SamplesCSV.keystrokeMedians(SamplesCSV.header + "\ntrie,1,x,s,1,pinyin,0,1,b,100\n")
    }
    #expect(throws: SamplesCSV.ReadError.self) {
      try SamplesCSV.keystrokeMedians(SamplesCSV.header + "\ntrie,1,1,s,1,pinyin,0,1,\"b,100\n")
    }
  }

  /// A run compared with itself through its own samples: every latency is compared by a
  /// paired bootstrap and none changed; the chart draws a row per latency and ratio figure.
  @Test func compareUsesTheSamplesOfARun() throws {
    let (results, raw) = try BenchFixtures.quickRun()
    let csv = SamplesCSV.text(raw: raw, workload: BenchFixtures.smallWorkload)
    let samples = try SamplesCSV.keystrokeMedians(csv)
    let comparison = RunComparison(
      a: results, b: results, aPath: "a", bPath: "b", aSamples: samples, bSamples: samples)
    let latency = comparison.rows.filter { $0.metric.hasPrefix("latency.") }
    #expect(!latency.isEmpty)
    #expect(latency.allSatisfy { $0.method == .paired && $0.finding == .same && $0.change.value == 1 })
    let chart = comparison.chart
    #expect(chart.hasPrefix("<svg"))
    let drawn = comparison.rows.filter { $0.method != .exact }.count
    #expect(chart.components(separatedBy: "<circle").count - 1 == drawn)
  }
}
