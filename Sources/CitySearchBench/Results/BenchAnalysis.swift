import CitySearch
import CitySearchExecutor

/// Turns raw samples into ``BenchResults``: per-keystroke medians over the rounds, their
/// quantiles overall, by query length and by input style, session totals and paired ratios.
public enum BenchAnalysis {
  /// The query-length groups of the reports, in characters.
  public static let lengthGroups: [(label: String, range: ClosedRange<Int>)] = [
    ("1", 1...1), ("2", 2...2), ("3", 3...3), ("4", 4...4), ("5", 5...5), ("6-8", 6...8), ("9+", 9...Int.max),
  ]

  /// The group label of a query of `length` characters.
  public static func lengthGroup(_ length: Int) -> String {
    lengthGroups.first { $0.range.contains(length) }?.label ?? "0"
  }

  /// A distribution of `values` (any order); `nil` when empty.
  public static func distribution(_ values: [Double]) -> Distribution? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    func estimate(_ q: ReportedQuantile) -> Estimate { Quantiles.estimate(q.fraction, sorted: sorted) }
    return Distribution(
      count: sorted.count, mean: sorted.reduce(0, +) / Double(sorted.count), p50: estimate(.p50),
      p90: estimate(.p90), p99: estimate(.p99), p999: estimate(.p999), max: estimate(.max))
  }

  /// The latency curve of `values` (any order); empty when `values` is.
  public static func curve(_ values: [Double]) -> [CurvePoint] {
    guard !values.isEmpty else { return [] }
    let sorted = values.sorted()
    return CurvePoint.fractions.map { CurvePoint(fraction: $0, nanoseconds: Quantiles.quantile($0, sorted: sorted)) }
  }

  /// Ratio quantiles of `ratios`; `nil` when empty.
  public static func ratioSummary(_ ratios: [Double]) -> RatioSummary? {
    guard !ratios.isEmpty else { return nil }
    let sorted = ratios.sorted()
    return RatioSummary(
      count: sorted.count, p50: Quantiles.estimate(0.5, sorted: sorted), p90: Quantiles.estimate(0.9, sorted: sorted),
      p99: Quantiles.estimate(0.99, sorted: sorted))
  }

  /// Each keystroke's latency: the nearest-rank median of its timed rounds, `nil` if untimed.
  public static func keystrokeLatencies(_ series: RawMeasurements.Series, rounds: Int, keystrokes: Int) -> [Double?] {
    keystrokeMedians(series.samples, rounds: rounds, keystrokes: keystrokes)
  }

  /// Each keystroke's median over its rounds of `samples` (`samples[round * keystrokes + k]`,
  /// `nil` where untimed): the series' own times, or an executor's round trips.
  static func keystrokeMedians(_ samples: [UInt64?], rounds: Int, keystrokes: Int) -> [Double?] {
    var values = [UInt64](repeating: 0, count: rounds)
    return (0..<keystrokes).map { k in
      var n = 0
      for round in 0..<rounds {
        if let sample = samples[round * keystrokes + k] {
          values[n] = sample
          n += 1
        }
      }
      guard n > 0 else { return nil }
      values[..<n].sort()
      return Double(values[Quantiles.rank(0.5, count: n) - 1])
    }
  }

  /// The results of a run.
  ///
  /// The series of `raw` after the in-process backends (one per build) are the `external`
  /// executors', in order; an external one that never started (``ExternalStart/failure``) has
  /// no series and is listed last, with its failure.
  public static func results(
    raw: RawMeasurements, workload: Workload, builds: [MeasuredBuild], external: [ExternalStart] = [],
    corpus: Corpus, metadata: RunMetadata
  ) -> BenchResults {
    // The flat keystroke table: session, length group and style of each keystroke.
    var sessionOf: [Int] = []
    var lengthOf: [String] = []
    var styleOf: [String] = []
    for (s, session) in workload.sessions.enumerated() {
      for text in session.keystrokes {
        sessionOf.append(s)
        lengthOf.append(lengthGroup(text.count))
        styleOf.append(session.style)
      }
    }
    let latencies = raw.series.map { keystrokeLatencies($0, rounds: raw.rounds, keystrokes: raw.keystrokes) }
    let reference = latencies[0]

    func ratios(_ values: [Double?]) -> [Double] {
      zip(values, reference).compactMap { pair in
        guard let value = pair.0, let base = pair.1, base > 0 else { return nil }
        return value / base
      }
    }

    // Series 1 is the A/A twin of the reference; builds line up with series 0, 2, 3, …, then
    // the external executors that started.
    let started = external.filter { $0.executor != nil }
    var backends: [BackendResults] = []
    for (p, series) in raw.series.enumerated() where p != 1 {
      let slot = p == 0 ? 0 : p - 1
      let values = latencies[p]
      let timed = values.compactMap { $0 }
      let byLength = lengthGroups.compactMap { group -> GroupDistribution? in
        let subset = values.indices.compactMap { lengthOf[$0] == group.label ? values[$0] : nil }
        return distribution(subset).map { GroupDistribution(group: group.label, latency: $0) }
      }
      let byStyle = workload.styles.compactMap { style -> GroupDistribution? in
        let subset = values.indices.compactMap { styleOf[$0] == style ? values[$0] : nil }
        return distribution(subset).map { GroupDistribution(group: style, latency: $0) }
      }
      var sessionTotals: [Double]?
      if series.stride == 1 {
        var totals = [Double](repeating: 0, count: workload.sessions.count)
        for (k, value) in values.enumerated() { totals[sessionOf[k]] += value ?? 0 }
        sessionTotals = totals
      }
      let first = series.firstDivergence.map { d in
        BackendResults.Conformance.FirstDivergence(
          round: d.round, session: workload.sessions[sessionOf[d.keystroke]].label, typedBefore: d.typedBefore,
          text: d.text, difference: d.difference.description, sideBySide: d.difference.sideBySide(corpus: corpus))
      }
      let summary: String
      let build: BackendResults.Build
      var outside: BackendResults.External?
      if slot < builds.count {
        let measured = builds[slot]
        summary = type(of: measured.backend).summary
        build = .init(
          seconds: measured.seconds, heapBytes: measured.heapBytes,
          countedBytes: measured.backend.statistics.countedBytes, notes: measured.backend.statistics.notes)
      } else {
        let start = started[slot - builds.count]
        let reply = start.executor!.reply
        summary = "external: \(reply.name) \(reply.implementationVersion)"
        build = .init(
          seconds: Double(reply.buildNanoseconds) / 1e9, heapBytes: reply.memoryBytes > 0 ? reply.memoryBytes : nil,
          countedBytes: 0, notes: ["measured by": "the executor"])
        let roundTrips = series.roundTrips.map {
          keystrokeMedians($0, rounds: raw.rounds, keystrokes: raw.keystrokes)
        }
        outside = .init(
          command: start.spec.command, implementationVersion: reply.implementationVersion,
          capabilities: reply.capabilities, roundTrip: roundTrips.flatMap { distribution($0.compactMap { $0 }) },
          failedQueries: series.failedQueries, firstFailedQuery: series.firstFailedQuery, failure: series.failure)
      }
      var backend = BackendResults(
        name: series.name, summary: summary, build: build,
        sampling: .init(
          keystrokes: raw.keystrokes, timedKeystrokes: timed.count, stride: series.stride,
          warmUpMeanNanoseconds: series.warmUpMean),
        latency: distribution(timed), curve: curve(timed), byLength: byLength, byStyle: byStyle,
        sessions: sessionTotals.flatMap(distribution),
        ratioToReference: p == 0 ? nil : ratioSummary(ratios(values)),
        conformance: .init(checked: series.checked, divergences: series.divergences, first: first))
      backend.external = outside
      backend.aloneLatency = series.alone.flatMap {
        distribution(
          keystrokeMedians($0, rounds: BenchRunner.alonePasses, keystrokes: raw.keystrokes).compactMap { $0 })
      }
      backends.append(backend)
    }
    for start in external where start.executor == nil {
      var backend = BackendResults(
        name: start.spec.name, summary: "external: did not start",
        build: .init(seconds: 0, countedBytes: 0, notes: [:]),
        sampling: .init(keystrokes: raw.keystrokes, timedKeystrokes: 0, stride: 1, warmUpMeanNanoseconds: 0),
        latency: nil, curve: [], byLength: [], byStyle: [], sessions: nil, ratioToReference: nil,
        conformance: .init(checked: 0, divergences: 0, first: nil))
      backend.external = .init(
        command: start.spec.command, implementationVersion: "",
        capabilities: ExecutorCapabilities(
          ranked: false, matchRanges: false, exactTotals: false, sessions: false, modes: []),
        roundTrip: nil, failedQueries: 0, firstFailedQuery: nil, failure: start.failure)
      backends.append(backend)
    }
    let floor = raw.floor.flatMap { keystrokeMedians($0, rounds: raw.rounds, keystrokes: raw.keystrokes) }
    return BenchResults(
      schemaVersion: BenchResults.currentSchemaVersion, metadata: metadata, reference: raw.series[0].name,
      noiseFloor: ratioSummary(ratios(latencies[1])), backends: backends, relevance: nil,
      floor: floor.flatMap { distribution($0.compactMap { $0 }) })
  }
}
