import CitySearchConformance
import CitySearchTestSupport
import Testing

@testable import CitySearchBench

@Suite(.timed) struct QuantileTests {
  @Test func nearestRank() {
    let values = (1...100).map(Double.init)
    #expect(Quantiles.quantile(0.5, sorted: values) == 50)
    #expect(Quantiles.quantile(0.9, sorted: values) == 90)
    #expect(Quantiles.quantile(0.99, sorted: values) == 99)
    #expect(Quantiles.quantile(0.999, sorted: values) == 100)
    #expect(Quantiles.quantile(1, sorted: values) == 100)
    #expect(Quantiles.quantile(0, sorted: values) == 1)
    // Rank ⌈q·n⌉: the median of four values is the second.
    #expect(Quantiles.quantile(0.5, sorted: [1, 2, 3, 4]) == 2)
    #expect(Quantiles.quantile(0.5, sorted: [7]) == 7)
  }

  @Test func binomialTailByHand() {
    // P(Bin(4, 1/4) ≥ 2) = 1 − (3/4)^4 − 4·(1/4)·(3/4)^3 = 67/256.
    #expect(abs(Quantiles.binomialUpperTail(n: 4, p: 0.25, atLeast: 2) - 67.0 / 256) < 1e-12)
    // P(Bin(4, 1/2) ≥ 2) = 11/16; P(Bin(4, 3/4) ≥ 2) = 243/256.
    #expect(abs(Quantiles.binomialUpperTail(n: 4, p: 0.5, atLeast: 2) - 11.0 / 16) < 1e-12)
    #expect(abs(Quantiles.binomialUpperTail(n: 4, p: 0.75, atLeast: 2) - 243.0 / 256) < 1e-12)
    #expect(Quantiles.binomialUpperTail(n: 4, p: 0.5, atLeast: 0) == 1)
    #expect(Quantiles.binomialUpperTail(n: 4, p: 0.5, atLeast: 5) == 0)
    // Large n: the median of Bin(10,000, 1/2) sits at the mean.
    let half = Quantiles.binomialUpperTail(n: 10_000, p: 0.5, atLeast: 5_000)
    #expect(half > 0.5 && half < 0.51)
  }

  @Test func exactBootstrapIntervalByHand() {
    // Median of [1, 2, 3, 4] (rank 2): the bootstrap CDF at ranks 1…4 is 67/256, 11/16,
    // 243/256, 1; 2.5% is first reached at rank 1 and 97.5% only at rank 4.
    let median = Quantiles.estimate(0.5, sorted: [1, 2, 3, 4])
    #expect(median == Estimate(value: 2, lower: 1, upper: 4))
    // The maximum of [1, 2] (rank 2): P(max ≤ 1) = 1/4, so the interval is [1, 2].
    #expect(Quantiles.estimate(1, sorted: [1, 2]) == Estimate(value: 2, lower: 1, upper: 2))
    // The minimum of 10 values: P(min ≤ x₁) = 1 − 0.9^10 ≈ 0.65 ≥ 2.5%; 97.5% needs rank 4
    // (1 − 0.7^10 ≈ 0.97175 < 0.975 at rank 3, 1 − 0.6^10 ≈ 0.99395 at rank 4).
    let values = (1...10).map(Double.init)
    #expect(Quantiles.estimate(0, sorted: values) == Estimate(value: 1, lower: 1, upper: 4))
  }

  @Test func exactBootstrapAgreesWithResampling() {
    var random = SplitMix64(seed: 42)
    let sample = (0..<400).map { _ in Double(random.next() % 1_000_000) }.sorted()
    for q in [0.5, 0.9, 0.99] {
      let exact = Quantiles.estimate(q, sorted: sample)
      // A plain resampling bootstrap with 4,000 resamples.
      var statistics: [Double] = []
      for _ in 0..<4_000 {
        let resample = (0..<sample.count).map { _ in sample[Int(random.next() % UInt64(sample.count))] }.sorted()
        statistics.append(Quantiles.quantile(q, sorted: resample))
      }
      statistics.sort()
      let lower = Quantiles.quantile(0.025, sorted: statistics)
      let upper = Quantiles.quantile(0.975, sorted: statistics)
      // The resampled bounds land within two ranks of the exact ones.
      let rank = { (v: Double) in sample.firstIndex(of: v)! }
      #expect(abs(rank(lower) - rank(exact.lower)) <= 2, "q \(q): resampled \(lower), exact \(exact.lower)")
      #expect(abs(rank(upper) - rank(exact.upper)) <= 2, "q \(q): resampled \(upper), exact \(exact.upper)")
    }
  }

  @Test func intervalsContainTheValueAndNarrowWithMoreSamples() {
    let small = Quantiles.estimate(0.9, sorted: (1...100).map(Double.init))
    let large = Quantiles.estimate(0.9, sorted: (1...10_000).map { Double($0) / 100 })
    for e in [small, large] { #expect(e.lower <= e.value && e.value <= e.upper) }
    #expect((large.upper - large.lower) < (small.upper - small.lower))
  }
}

@Suite(.timed) struct AnalysisTests {
  /// A series from per-round samples (`nil` where not timed).
  func series(_ name: String, _ rounds: [[UInt64?]], stride: Int = 1) -> RawMeasurements.Series {
    RawMeasurements.Series(name: name, stride: stride, samples: rounds.flatMap { $0 }, warmUpMean: 0)
  }

  @Test func keystrokeLatencyIsTheMedianOfItsRounds() {
    let s = series("a", [[10, 300, nil], [30, 100, nil], [20, 200, 5]])
    let latencies = BenchAnalysis.keystrokeLatencies(s, rounds: 3, keystrokes: 3)
    #expect(latencies == [20, 200, 5])
  }

  @Test func pairedRatiosAndGroups() throws {
    let workload = Workload(sessions: [
      .init(label: "a", place: "1", style: "pinyin", hasTypo: false, keystrokes: ["b", "be", "bei"]),
      .init(label: "b", place: "2", style: "hanzi", hasTypo: false, keystrokes: ["北"]),
    ])
    // Reference 100, 200, 300, 400 ns; A/A identical; a backend at 50, 100, 600, 200.
    let raw = RawMeasurements(
      series: [
        series("linear", [[100, 200, 300, 400]]), series("linear (A/A)", [[100, 200, 300, 400]]),
        series("fast", [[50, 100, 600, 200]]),
      ], rounds: 1, keystrokes: 4)
    let corpus = BenchFixtures.cities
    let builds = try [BenchFixtures.linearBuild(), BenchFixtures.linearBuild()]
    let results = BenchAnalysis.results(
      raw: raw, workload: workload, builds: builds, corpus: corpus, metadata: BenchFixtures.metadata())
    let fast = try #require(results.backend(named: "fast"))
    // Ratios 0.5, 0.5, 2, 0.5: median 0.5, p90 and p99 2.
    #expect(fast.ratioToReference?.p50.value == 0.5)
    #expect(fast.ratioToReference?.p90.value == 2)
    #expect(results.noiseFloor?.p50.value == 1)
    #expect(results.noiseFloor?.p99.value == 1)
    #expect(fast.latency?.p50.value == 100)
    #expect(fast.latency?.max.value == 600)
    // Session totals: 50 + 100 + 600 and 200.
    #expect(fast.sessions?.max.value == 750)
    #expect(fast.sessions?.p50.value == 200)
    #expect(fast.byStyle.map(\.group) == ["pinyin", "hanzi"])
    #expect(fast.byStyle[1].latency.p50.value == 200)
    #expect(fast.byLength.map(\.group) == ["1", "2", "3"])
    #expect(fast.byLength[0].latency.count == 2)
    #expect(results.backends.map(\.name) == ["linear", "fast"])
    #expect(results.backend(named: "linear")?.ratioToReference == nil)
  }
}
