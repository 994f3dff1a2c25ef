import Foundation

/// How each backend's costs grow with the corpus: its p50 and p99 per keystroke, build time and
/// heap on every tier of one multi-tier run (`citybench bench --corpus cities,towns,villages`),
/// with the growth exponent of each cost fitted on log–log axes.
///
/// An exponent of 1 means the cost grows in proportion to the number of places, 0 that it does
/// not grow at all. Each tier replays its own committed workload, so the latency points are of
/// typing sessions of the same design on corpora of different size.
public struct CostGrowth: Codable, Sendable, Equatable {
  /// A cost a backend pays.
  public enum Metric: String, Codable, Sendable, CaseIterable {
    /// The median per-keystroke latency.
    case p50
    /// The 99th-percentile per-keystroke latency.
    case p99
    /// The build time.
    case build
    /// The heap kept after the build.
    case heap

    /// The words for a heading: `p50 per keystroke`.
    public var title: String {
      switch self {
      case .p50: "p50 per keystroke"
      case .p99: "p99 per keystroke"
      case .build: "build time"
      case .heap: "heap kept after build"
      }
    }
  }

  /// One tier of the run.
  public struct Tier: Codable, Sendable, Equatable {
    /// The tier's name.
    public var name: String
    /// How many places it holds.
    public var places: Int
  }

  /// One backend's costs on one tier; a cost the run did not measure is `nil`.
  public struct Point: Codable, Sendable, Equatable {
    /// The tier's name.
    public var tier: String
    /// How many places it holds.
    public var places: Int
    /// The median per-keystroke latency.
    public var p50Nanoseconds: Double?
    /// The 99th-percentile per-keystroke latency.
    public var p99Nanoseconds: Double?
    /// The build time, in seconds.
    public var buildSeconds: Double
    /// The heap kept after the build, in bytes.
    public var heapBytes: Int?
    /// Whether every timed answer on this tier matched the reference's.
    public var conforms: Bool

    /// The value of `metric` here, in nanoseconds, seconds or bytes.
    public func value(_ metric: Metric) -> Double? {
      switch metric {
      case .p50: p50Nanoseconds
      case .p99: p99Nanoseconds
      case .build: buildSeconds
      case .heap: heapBytes.map(Double.init)
      }
    }
  }

  /// One backend across the tiers, smallest tier first.
  public struct Series: Codable, Sendable, Equatable {
    /// The backend's name.
    public var backend: String
    /// Its costs on each tier, smallest tier first.
    public var points: [Point]
    /// The fitted exponent of each metric by its raw value, where at least two tiers measured
    /// it above zero.
    public var exponents: [String: Double]

    /// The exponent k of `metric`'s growth as N^k, or `nil` when fewer than two tiers measured it.
    public func exponent(_ metric: Metric) -> Double? { exponents[metric.rawValue] }
  }

  /// The file a multi-tier run writes the table to.
  public static let fileName = "growth.json"

  /// The match mode of the run.
  public var mode: String
  /// The tiers, smallest first.
  public var tiers: [Tier]
  /// The backends timed on every tier, in the order of the first tier's run.
  public var series: [Series]

  /// A run's tiers refused as one growth table: they differ in a setting that changes what is
  /// timed, or share a corpus.
  public struct Mismatch: Error, CustomStringConvertible {
    public var description: String
  }

  /// The growth table of the runs of one multi-tier bench (any order; they are sorted by size).
  ///
  /// - Throws: ``Mismatch`` when fewer than two runs are given, two runs are of one corpus, or
  ///   the runs differ in mode or answers per keystroke.
  public init(runs: [BenchResults]) throws {
    guard runs.count >= 2 else { throw Mismatch(description: "a cost-growth table needs runs on two corpora or more") }
    let sorted = runs.sorted { $0.metadata.corpus.places < $1.metadata.corpus.places }
    let first = sorted[0].metadata
    for run in sorted.dropFirst() {
      let m = run.metadata
      if m.corpus.checksum == first.corpus.checksum {
        throw Mismatch(description: "\(m.corpus.name) and \(first.corpus.name) are the same corpus")
      }
      if m.mode != first.mode || m.limit != first.limit {
        throw Mismatch(
          description:
            "\(m.corpus.name) ran in \(m.mode) mode with \(m.limit) answers, \(first.corpus.name) in \(first.mode) mode with \(first.limit)"
        )
      }
    }
    mode = first.mode
    tiers = sorted.map { Tier(name: $0.metadata.corpus.name, places: $0.metadata.corpus.places) }
    series = sorted[0].backends.map(\.name).compactMap { name in
      let points = sorted.compactMap { run -> Point? in
        guard let b = run.backends.first(where: { $0.name == name }) else { return nil }
        return Point(
          tier: run.metadata.corpus.name, places: run.metadata.corpus.places, p50Nanoseconds: b.latency?.p50.value,
          p99Nanoseconds: b.latency?.p99.value, buildSeconds: b.build.seconds, heapBytes: b.build.heapBytes,
          conforms: b.conformance.divergences == 0)
      }
      guard points.count == sorted.count else { return nil }
      var exponents: [String: Double] = [:]
      for metric in Metric.allCases {
        let pairs = points.compactMap { p in p.value(metric).map { (Double(p.places), $0) } }
        exponents[metric.rawValue] = Self.exponent(pairs)
      }
      return Series(backend: name, points: points, exponents: exponents)
    }
  }

  /// The least-squares slope of log `y` against log `x` over the pairs with both above zero:
  /// `y ≈ c · x^slope`. `nil` for fewer than two such pairs or a single `x`.
  ///
  ///     CostGrowth.exponent([(1_000, 2), (100_000, 200)])  // 1.0
  public static func exponent(_ pairs: [(x: Double, y: Double)]) -> Double? {
    let logs = pairs.filter { $0.x > 0 && $0.y > 0 }.map { (log10($0.x), log10($0.y)) }
    guard logs.count >= 2 else { return nil }
    let meanX = logs.map(\.0).reduce(0, +) / Double(logs.count)
    let meanY = logs.map(\.1).reduce(0, +) / Double(logs.count)
    let spread = logs.map { ($0.0 - meanX) * ($0.0 - meanX) }.reduce(0, +)
    guard spread > 0 else { return nil }
    return logs.map { ($0.0 - meanX) * ($0.1 - meanY) }.reduce(0, +) / spread
  }

  /// The JSON of `growth.json`, keys sorted.
  public func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self)
  }
}
