import CitySearch
import Foundation

/// The committed limits of the regression gate (`Benchmarks/thresholds.json`): how much
/// slower, relative to the baseline, each paired-ratio quantile of a backend may become, and
/// how much its counted index may grow.
///
/// A backend may be given its own ratio allowances here (`backends`), and may declare one in its
/// descriptor (`BackendDescriptor.gateRatioAllowance`), which ``applying(allowances:)`` adds
/// where the file sets none.
///
/// ```json
/// { "schemaVersion": 1, "ratio": { "p50": 0.25, "p90": 0.35, "p99": 0.6 },
///   "backends": { "sqlite-fts5": { "p50": 0.5 } }, "countedBytes": 0.1,
///   "instructions": { "p50": 0.02, "p99": 0.02, "total": 0.01 },
///   "allocations": { "p99": 0.15, "total": 0.02 } }
/// ```
public struct GateThresholds: Codable, Sendable, Equatable {
  /// The layout version of the thresholds files this build reads.
  public static let currentSchemaVersion = 1

  /// The layout version the file was written in.
  public var schemaVersion: Int
  /// Allowed relative growth of each ratio quantile (`p50`, `p90`, `p99`); 0.25 allows 25%.
  public var ratio: [String: Double]
  /// Per-backend overrides of `ratio`, quantile by quantile.
  public var backends: [String: [String: Double]]
  /// Allowed relative growth of the bytes an index counts itself.
  public var countedBytes: Double
  /// Allowed relative growth of the instruction counts (`p50`, `p99`, `total`), for every
  /// backend; absent: ``defaultInstructions``.
  public var instructions: [String: Double]?
  /// Allowed relative growth of the allocation calls (`p99`, `total`), for every backend;
  /// absent: ``defaultAllocations``.
  public var allocations: [String: Double]?

  /// Runs of one binary count exactly the same (docs/Harness.md); a change elsewhere in the
  /// binary that moves the heap can move a few keystrokes by up to 100 instructions, and with
  /// them a quantile at the edge of a cluster by up to 5.5% (trie's p50 is about 2,700).
  public static let defaultInstructions = ["p50": 0.05, "p99": 0.05, "total": 0.01]

  /// Runs of one build count exactly the same with deterministic hashing, which the counting
  /// process sets; the counts are small integers (trie's p99 is 18 calls on cities), so one
  /// more call at the 99th percentile is 5.6%.
  public static let defaultAllocations = ["p99": 0.15, "total": 0.02]

  /// The thresholds of the committed `Benchmarks/thresholds.json` (a test keeps them equal),
  /// for a binary run where the package's files are not at hand.
  public static let fallback: GateThresholds = {
    var thresholds = GateThresholds(
      ratio: ["p50": 0.3, "p90": 0.5, "p99": 0.75], countedBytes: 0.1)
    thresholds.instructions = defaultInstructions
    thresholds.allocations = defaultAllocations
    return thresholds
  }()

  /// The allowed growth of an instruction count.
  public func instructionThreshold(_ metric: String, backend: String) -> Double {
    instructions?[metric] ?? Self.defaultInstructions[metric] ?? 0.01
  }

  /// The allowed growth of an allocation count.
  public func allocationThreshold(_ metric: String) -> Double {
    allocations?[metric] ?? Self.defaultAllocations[metric] ?? 0.02
  }

  /// Thresholds for the ratio quantiles, their per-backend overrides and the counted bytes; the
  /// instruction and allocation thresholds are the defaults.
  public init(ratio: [String: Double], backends: [String: [String: Double]] = [:], countedBytes: Double) {
    self.schemaVersion = Self.currentSchemaVersion
    self.ratio = ratio
    self.backends = backends
    self.countedBytes = countedBytes
  }

  /// These thresholds with each backend's declared allowance (by name) for every ratio quantile
  /// the file does not set for that backend itself.
  public func applying(allowances: [String: Double]) -> GateThresholds {
    var thresholds = self
    for (backend, allowance) in allowances {
      for quantile in ratio.keys where thresholds.backends[backend]?[quantile] == nil {
        thresholds.backends[backend, default: [:]][quantile] = allowance
      }
    }
    return thresholds
  }

  /// The allowed growth of `quantile` for `backend`.
  public func ratioThreshold(_ quantile: ReportedQuantile, backend: String) -> Double? {
    backends[backend]?[quantile.rawValue] ?? ratio[quantile.rawValue]
  }

  /// Reads a thresholds file; throws ``ResultsFileError`` naming the file and what is wrong.
  public init(contentsOf path: String) throws {
    let data: Data
    do {
      data = try CorpusLoader.readFile(path, limit: BenchResults.maximumFileBytes)
    } catch let error as CorpusError {
      throw ResultsFileError(path: path, message: error.reason)
    }
    do {
      self = try JSONDecoder().decode(GateThresholds.self, from: data)
    } catch {
      throw ResultsFileError(path: path, message: "not a thresholds file: \(error)")
    }
    guard schemaVersion == Self.currentSchemaVersion else {
      throw ResultsFileError(path: path, message: "thresholds schema version \(schemaVersion) is not 1")
    }
    let known = Set(RatioSummary.quantiles.map(\.rawValue))
    for (key, value) in ratio.merging(backends.values.flatMap { $0 }, uniquingKeysWith: { a, _ in a }) {
      guard known.contains(key) else {
        throw ResultsFileError(path: path, message: "unknown quantile '\(key)' (use p50, p90, p99)")
      }
      guard value >= 0 && value.isFinite else {
        throw ResultsFileError(path: path, message: "threshold for '\(key)' must be a non-negative number")
      }
    }
    try Self.validate(instructions, metrics: InstructionSummary.gatedMetrics, of: "instruction", path: path)
    try Self.validate(allocations, metrics: AllocationSummary.gatedMetrics, of: "allocation", path: path)
  }

  /// Checks that every key of a count's thresholds names a gated metric and every value is a
  /// non-negative number.
  private static func validate(_ thresholds: [String: Double]?, metrics: [String], of what: String, path: String)
    throws
  {
    for (key, value) in thresholds ?? [:] {
      guard metrics.contains(key) else {
        throw ResultsFileError(
          path: path, message: "unknown \(what) metric '\(key)' (use \(metrics.joined(separator: ", ")))")
      }
      guard value >= 0 && value.isFinite else {
        throw ResultsFileError(path: path, message: "\(what) threshold for '\(key)' must be a non-negative number")
      }
    }
  }
}
