import CSystemShim
import CitySearch
import CitySearchExecutor

/// Allocation calls per keystroke of one backend: how many times a keystroke's answer asked the
/// C library for memory (malloc and its kin, counted by the shim's wrappers on the calling
/// thread). Like instruction counts, the figures repeat exactly from run to run of one build,
/// however busy the machine is, with `SWIFT_DETERMINISTIC_HASHING=1` (each process otherwise
/// seeds Swift's hashing anew); unlike them, they need no Valgrind and take seconds.
///
/// A keystroke that allocates pays the allocator's cost and scatters what it touches; an
/// indexed backend's session should allocate little beyond the hits it returns.
public struct AllocationSummary: KeystrokeCounts, Codable, Sendable, Equatable {
  /// The workload's keystrokes, each counted.
  public var keystrokes: Int
  /// Allocation calls over every keystroke.
  public var total: Int
  /// Calls per keystroke (``total`` ÷ ``keystrokes``).
  public var mean: Double
  /// Nearest-rank median of the per-keystroke counts.
  public var p50: Int
  /// The 90th percentile.
  public var p90: Int
  /// The 99th percentile.
  public var p99: Int
  /// The largest count.
  public var max: Int

  /// The counts the gate compares with the baseline's.
  public static let gatedMetrics = ["p99", "total"]

  /// The summary of per-keystroke `counts`.
  public init(counts: [Int]) {
    precondition(!counts.isEmpty, "a summary of no keystrokes")
    keystrokes = counts.count
    total = counts.reduce(0, +)
    mean = Double(total) / Double(counts.count)
    (p50, p90, p99, max) = Quantiles.ofCounts(counts)
  }
}

/// Counts the allocation calls of every keystroke of a workload, typed through a backend's
/// session in the executor seat, untimed.
public enum AllocationCounter {
  /// Whether this build counts allocations: on glibc, where the shim wraps the allocator.
  public static var isAvailable: Bool { CSystemShim_allocationCountingCompiledIn() == 1 }

  /// Each keystroke's allocation calls, in workload order, with `backend` typing every session
  /// of `workload` through an `InProcessExecutor` (`replay` says sessions or stateless).
  ///
  /// - Complexity: one answer per keystroke.
  public static func counts(
    _ backend: some SearchBackend, workload: Workload, mode: MatchMode, limit: Int, replay: Replay = .sessions
  ) -> [Int] {
    let executor = InProcessExecutor(backend: backend, name: "", mode: mode, limit: limit, replay: replay)
    var counts: [Int] = []
    counts.reserveCapacity(workload.keystrokeCount)
    var sink = 0
    for session in workload.sessions {
      executor.startSession()
      for text in session.keystrokes {
        let before = CSystemShim_allocationCount()
        let answer = executor.answer(text)
        let after = CSystemShim_allocationCount()
        counts.append(Int(after &- before))
        sink &+= answer.result.total
      }
    }
    precondition(sink >= 0)
    return counts
  }
}
