import CSystemShim
import CitySearch
import Foundation

/// Instructions per keystroke of one backend, counted under Valgrind's callgrind: a measure
/// that does not move when the machine is busy, beside the wall time that does.
///
/// Counts are exact and repeat from run to run of the same binary on the same machine (the
/// replay runs with `SWIFT_DETERMINISTIC_HASHING=1`); a different C library or CPU may pick
/// other `memcpy` variants, so compare counts from one machine.
public struct InstructionSummary: KeystrokeCounts, Codable, Sendable, Equatable {
  /// What counted them, `callgrind (valgrind-3.19.0)`.
  public var tool: String
  /// The workload's keystrokes.
  public var keystrokes: Int
  /// Instructions over every keystroke of the workload.
  public var total: Int
  /// Instructions per keystroke, over every keystroke (``total`` ÷ ``keystrokes``).
  public var mean: Double
  /// The keystrokes counted one by one (every `stride`-th), of which the quantiles are.
  public var sampled: Int
  /// One keystroke in `stride` was counted alone.
  public var stride: Int
  /// Nearest-rank quantiles of the sampled keystrokes' counts.
  public var p50: Int
  /// The 90th percentile.
  public var p90: Int
  /// The 99th percentile.
  public var p99: Int
  /// The largest count.
  public var max: Int

  /// A summary of `keystrokes` keystrokes that took `total` instructions together, with the
  /// `counts` of those counted alone, one in `stride`.
  public init(tool: String, keystrokes: Int, total: Int, sampled counts: [Int], stride: Int) {
    precondition(!counts.isEmpty && keystrokes > 0, "a summary of no keystrokes")
    self.tool = tool
    self.keystrokes = keystrokes
    self.total = total
    mean = Double(total) / Double(keystrokes)
    sampled = counts.count
    self.stride = stride
    (p50, p90, p99, max) = Quantiles.ofCounts(counts)
  }

  /// The figures the gate compares.
  public static let gatedMetrics = ["p50", "p99", "total"]
}

/// Counts instructions per keystroke under callgrind: the replay side, which runs inside
/// Valgrind, and the reading of what callgrind wrote.
///
/// Valgrind runs the replay with instrumentation and collection off at start
/// (`--instr-atstart=no --collect-atstart=no`), so loading the corpus and building the indexes
/// are neither counted nor leave cost centres behind. Collection is on only around each
/// keystroke's answer. Every keystroke is counted; a dump (one `totals:` line in the output)
/// costs milliseconds under Valgrind, so one keystroke in ``stride(keystrokes:)`` is counted
/// alone, for the quantiles, and the keystrokes between two counted ones in one dump, for the
/// exact total. The layout of the dumps is ``Layout``.
public enum InstructionCounter {
  /// The most keystrokes of a backend counted one by one.
  public static let sampledKeystrokes = 1_000
  /// Calls measured with nothing inside, first: their smallest count is the cost of measuring
  /// one keystroke alone, subtracted from each.
  public static let emptyCalls = 8
  /// Then empty keystrokes counted together, as between two sampled ones: what each adds.
  public static let emptyGroupCalls = 64
  /// Then the injected work, measured at 0 and at ``workCalibrationIterations`` iterations:
  /// what one iteration costs.
  public static let workCalibrationIterations = 4_096

  /// Whether this binary was built with Valgrind's client requests (`<valgrind/callgrind.h>`).
  public static var isCompiledIn: Bool { CSystemShim_callgrindCompiledIn() != 0 }
  /// Whether this process runs under Valgrind.
  public static var isRunningOnValgrind: Bool { CSystemShim_runningOnValgrind() != 0 }

  /// Every `stride`-th keystroke is counted alone.
  public static func stride(keystrokes: Int) -> Int {
    max(1, (keystrokes + sampledKeystrokes - 1) / sampledKeystrokes)
  }

  /// Whether the workload's `keystroke`-th keystroke (from 0) is one counted alone.
  @inline(__always)
  public static func isCountedAlone(_ keystroke: Int, stride: Int) -> Bool { keystroke % stride == 0 }

  /// The dumps a replay writes, in order: the calibration (``emptyCalls`` single calls, one
  /// group of ``emptyGroupCalls``, the work at 0 and at ``workCalibrationIterations``), then
  /// for each backend, for each keystroke k with k % stride == 0, the group of keystrokes
  /// before it and k alone, and last the group after the last sampled keystroke.
  public struct Layout: Sendable, Equatable {
    /// The workload's keystrokes.
    public var keystrokes: Int
    /// How many backends the replay counts.
    public var backends: Int
    /// One keystroke in `stride` is counted alone.
    public var stride: Int { InstructionCounter.stride(keystrokes: keystrokes) }
    /// How many keystrokes are counted alone, per backend.
    public var sampled: Int { (keystrokes + stride - 1) / stride }
    /// The calibration's dumps, before the first backend's.
    public static var preamble: Int { emptyCalls + 1 + 2 }
    /// Each backend's dumps: every sampled keystroke alone and the group before it, and the last group.
    public var dumpsPerBackend: Int { 2 * sampled + 1 }
    /// All the dumps of the replay.
    public var dumps: Int { Self.preamble + backends * dumpsPerBackend }

    /// The layout of a replay of `keystrokes` keystrokes through `backends` backends.
    public init(keystrokes: Int, backends: Int) {
      self.keystrokes = keystrokes
      self.backends = backends
    }
  }

  /// Replays `workload` through each backend in turn, session by session, in the order of
  /// ``Layout``. `extraIterations` adds that much ``injectedWork(_:)`` to every answer of
  /// the named backends (the gate's self-test).
  ///
  /// Each backend first types the workload's first session uncounted: what a process does once
  /// (the Swift runtime's metadata of an array of hits, some 11,000 instructions) was otherwise
  /// counted in the first keystroke of whichever backend came first.
  public static func replay(
    workload: Workload, backends: [(name: String, backend: any SearchBackend)], mode: MatchMode, limit: Int,
    fuzzy: FuzzyRules = [], extraIterations: [String: Int] = [:]
  ) {
    for (_, backend) in backends {
      warmUp(workload, backend, mode: mode, limit: limit, fuzzy: fuzzy)
    }
    CSystemShim_callgrindStartInstrumentation()
    for _ in 0..<emptyCalls {
      begin()
      end()
    }
    CSystemShim_callgrindZero()
    for _ in 0..<emptyGroupCalls {
      CSystemShim_callgrindToggleCollect()
      CSystemShim_callgrindToggleCollect()
    }
    CSystemShim_callgrindDump()
    for iterations in [0, workCalibrationIterations] {
      begin()
      injectedWork(iterations)
      end()
    }
    let stride = stride(keystrokes: workload.keystrokeCount)
    for (name, backend) in backends {
      replay(
        workload, backend, mode: mode, limit: limit, fuzzy: fuzzy, stride: stride, extra: extraIterations[name] ?? 0)
    }
  }

  @inline(__always) private static func begin() {
    CSystemShim_callgrindZero()
    CSystemShim_callgrindToggleCollect()
  }

  @inline(__always) private static func end() {
    CSystemShim_callgrindToggleCollect()
    CSystemShim_callgrindDump()
  }

  /// The workload's first session typed through `backend`, before anything is counted.
  private static func warmUp(
    _ workload: Workload, _ backend: some SearchBackend, mode: MatchMode, limit: Int, fuzzy: FuzzyRules
  ) {
    guard let session = workload.sessions.first else { return }
    var typing = backend.makeSession(mode: mode, limit: limit, scope: .everything, fuzzy: fuzzy)
    var sink = 0
    for text in session.keystrokes { sink &+= typing.update(text).total }
    blackHole(sink)
  }

  /// One backend's replay, specialized for its concrete type.
  private static func replay(
    _ workload: Workload, _ backend: some SearchBackend, mode: MatchMode, limit: Int, fuzzy: FuzzyRules, stride: Int,
    extra: Int
  ) {
    var sink = 0
    var k = 0
    CSystemShim_callgrindZero()
    for session in workload.sessions {
      var typing = backend.makeSession(mode: mode, limit: limit, scope: .everything, fuzzy: fuzzy)
      for text in session.keystrokes {
        let alone = isCountedAlone(k, stride: stride)
        if alone {
          CSystemShim_callgrindDump()  // the group before it
          CSystemShim_callgrindZero()
        }
        CSystemShim_callgrindToggleCollect()
        let result = typing.update(text)
        if extra > 0 { injectedWork(extra) }
        CSystemShim_callgrindToggleCollect()
        if alone {
          CSystemShim_callgrindDump()
          CSystemShim_callgrindZero()
        }
        sink &+= result.total
        k += 1
      }
    }
    CSystemShim_callgrindDump()  // the last group
    blackHole(sink)
  }

  /// Deterministic busy work: `iterations` rounds of a 64-bit mixing step.
  @inline(never)
  public static func injectedWork(_ iterations: Int) {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    // Not affine, so the compiler cannot fold iterations together.
    for _ in 0..<iterations {
      state ^= state >> 29
      state = state &* 0xBF58_476D_1CE4_E5B9
    }
    blackHole(Int(truncatingIfNeeded: state))
  }

  @inline(never)
  private static func blackHole(_ value: Int) { if value == 0x5EED_5EED { print("") } }

  /// What a replay's dumps say: the cost of measuring, the cost of one iteration of injected
  /// work, and each backend's counts.
  public struct Reading: Sendable, Equatable {
    /// Instructions of measuring one keystroke alone.
    public var overhead: Int
    /// Instructions of measuring one keystroke inside a group.
    public var groupOverhead: Double
    /// Instructions of one iteration of the injected work.
    public var instructionsPerIteration: Double
    /// What one call of the injected work costs beyond its iterations (a call with none).
    public var injectionCallCost: Int
    /// Per backend: the counts of the keystrokes counted alone.
    public var sampled: [[Int]]
    /// Per backend: the total over every keystroke.
    public var totals: [Int]
  }

  /// Splits the dumps of a replay laid out as `layout` into its parts; the cost of measuring
  /// is taken off every count.
  public static func reading(totals dumps: [Int], layout: Layout) throws -> Reading {
    // callgrind adds one more dump at exit (empty, since collection is off by then).
    guard dumps.count >= layout.dumps else {
      throw CallgrindOutputError(
        message:
          "callgrind wrote \(dumps.count) dumps; a replay of \(layout.keystrokes) keystrokes through \(layout.backends) backends writes \(layout.dumps)"
      )
    }
    let overhead = dumps[0..<emptyCalls].min()!
    let groupOverhead = Double(dumps[emptyCalls]) / Double(emptyGroupCalls)
    let work = Double(dumps[emptyCalls + 2] - dumps[emptyCalls + 1]) / Double(workCalibrationIterations)
    let callCost = Swift.max(dumps[emptyCalls + 1] - overhead, 0)
    var sampled: [[Int]] = []
    var totals: [Int] = []
    for b in 0..<layout.backends {
      let start = Layout.preamble + b * layout.dumpsPerBackend
      let part = dumps[start..<start + layout.dumpsPerBackend]
      // Odd positions are the keystrokes counted alone; even ones the groups between them.
      let alone = part.enumerated().filter { $0.offset % 2 == 1 }.map { Swift.max($0.element - overhead, 0) }
      let grouped = part.enumerated().filter { $0.offset % 2 == 0 }.map(\.element).reduce(0, +)
      let inGroups = layout.keystrokes - layout.sampled
      sampled.append(alone)
      totals.append(alone.reduce(0, +) + Swift.max(grouped - Int(groupOverhead * Double(inGroups)), 0))
    }
    return Reading(
      overhead: overhead, groupOverhead: groupOverhead, instructionsPerIteration: work, injectionCallCost: callCost,
      sampled: sampled, totals: totals)
  }

  /// The `totals:` line of every dump in a callgrind output file written with
  /// `--combine-dumps=yes`, in order (the first event, instructions, of each).
  public static func totals(callgrindOutput data: Data) throws -> [Int] {
    var totals: [Int] = []
    let prefix = Array("totals:".utf8)
    try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      let bytes = raw.bindMemory(to: UInt8.self)
      var lineStart = 0
      var lineNumber = 0
      while lineStart < bytes.count {
        var end = lineStart
        while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
        lineNumber += 1
        if end - lineStart > prefix.count && bytes[lineStart] == UInt8(ascii: "t")
          && prefix.indices.allSatisfy({ bytes[lineStart + $0] == prefix[$0] })
        {
          var i = lineStart + prefix.count
          while i < end && bytes[i] == UInt8(ascii: " ") { i += 1 }
          var value = 0
          var digits = 0
          while i < end, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9"), digits < 18 {
            value = value * 10 + Int(bytes[i] - UInt8(ascii: "0"))
            digits += 1
            i += 1
          }
          guard digits > 0, i == end || bytes[i] == UInt8(ascii: " ") else {
            throw CallgrindOutputError(message: "line \(lineNumber): a 'totals:' line without a count")
          }
          totals.append(value)
        }
        lineStart = end + 1
      }
    }
    return totals
  }
}

/// A callgrind output that is not what the replay writes.
public struct CallgrindOutputError: Error, CustomStringConvertible {
  /// What is wrong with the output.
  public let message: String
  /// An error that says `message`.
  public init(message: String) { self.message = message }
  public var description: String { message }
}
