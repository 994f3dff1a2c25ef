import CitySearch
import CitySearchBench
import Foundation

/// Counts instructions per keystroke by running this binary's replay under Valgrind's
/// callgrind (`citybench instructions --replay-under-callgrind`), then reading what callgrind
/// wrote.
struct CallgrindRun {
  /// The environment variable that adds deterministic work to every answer of named backends
  /// (`trie=200`: 200 iterations), to prove the instruction gate fails; the replay reads it.
  static let injectionVariable = "CITYBENCH_INJECT_INSTRUCTIONS"
  /// The hidden flag that makes `citybench instructions` the replay itself.
  static let replayFlag = "--replay-under-callgrind"

  /// What the replay is given: everything that decides the keystrokes and the answers.
  var corpus: CorpusOptions
  var workloadPath: String?
  var backends: [String]
  var mode: String
  var limit: Int

  struct Outcome {
    var tool: String
    var reading: InstructionCounter.Reading
    var summaries: [String: InstructionSummary]
    var seconds: Double
  }

  /// Runs the replay under callgrind and summarizes each backend's counts.
  func measure(keystrokes: Int) throws -> Outcome {
    guard InstructionCounter.isCompiledIn else {
      throw CommandError(
        message:
          "this citybench was built without <valgrind/callgrind.h>, so it cannot count instructions; install Valgrind (Debian: apt-get install valgrind) and rebuild"
      )
    }
    guard let valgrind = Self.onPath("valgrind") else {
      throw CommandError(message: "counting instructions needs valgrind on PATH (Debian: apt-get install valgrind)")
    }
    let version = RunEnvironment.output(of: valgrind, ["--version"]) ?? "valgrind"
    // A name of one length: the paths are in the replay's arguments, whose length moves the
    // stack, and with it a few instructions of every string operation.
    Self.removeAbandonedScratch()
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      Self.scratchPrefix + String(format: "%010d-%08x", getpid(), UInt32.random(in: 0...UInt32.max)))
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let output = scratch.appendingPathComponent("callgrind.out").path
    let log = scratch.appendingPathComponent("replay.log").path

    // Valgrind 3.19 cannot read the DWARF 5 of a Swift binary, and no option skips it: the
    // replay runs a copy without debug information.
    let copy = scratch.appendingPathComponent("citybench").path
    guard let strip = Self.onPath("strip") else {
      throw CommandError(message: "counting instructions needs strip on PATH (Debian: apt-get install binutils)")
    }
    guard RunEnvironment.output(of: strip, ["-g", "-o", copy, Self.executable]) != nil,
      FileManager.default.isExecutableFile(atPath: copy)
    else {
      throw CommandError(message: "strip could not copy \(Self.executable) without its debug information")
    }

    // The copy lives elsewhere, so the corpus directory and workload are named, not found.
    var replay = [
      "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no", "--combine-dumps=yes", "--dump-line=no",
      "--callgrind-out-file=\(output)", "--log-file=\(log)", copy, "instructions", Self.replayFlag,
      "--corpus", corpus.corpus, "--backends", backends.joined(separator: ","), "--mode", mode, "--limit", "\(limit)",
    ]
    if corpus.explicitDirectory != nil || corpus.corpus != CorpusTier.cities.rawValue,
      let directory = CorpusDirectory.locate(explicit: corpus.explicitDirectory)
    {
      replay += ["--corpus-dir", directory.path]
    }
    if let workloadPath {
      // Copied, so that its path, like every other in the arguments, has the same length
      // wherever the checkout is.
      let copy = scratch.appendingPathComponent("workload.tsv")
      try FileManager.default.copyItem(at: URL(fileURLWithPath: workloadPath), to: copy)
      replay += ["--workload", copy.path]
    }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: valgrind)
    process.arguments = replay
    var environment = ProcessInfo.processInfo.environment
    // Swift seeds its hashing per process; fixed, the same binary counts the same.
    environment["SWIFT_DETERMINISTIC_HASHING"] = "1"
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    let start = Date()
    try process.run()
    let replayErrors = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    if Interruption.shared.isRequested { throw BenchInterrupted() }
    guard process.terminationStatus == 0 else {
      let valgrindLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      let tail = (String(decoding: replayErrors, as: UTF8.self) + valgrindLog).split(separator: "\n").suffix(6)
      throw CommandError(
        message:
          "the replay under callgrind failed (exit \(process.terminationStatus)):\n  \(tail.joined(separator: "\n  "))")
    }
    let data = try Data(contentsOf: URL(fileURLWithPath: output))
    let totals = try InstructionCounter.totals(callgrindOutput: data)
    let layout = InstructionCounter.Layout(keystrokes: keystrokes, backends: backends.count)
    let reading = try InstructionCounter.reading(totals: totals, layout: layout)
    let tool = "callgrind (\(version))"
    var summaries: [String: InstructionSummary] = [:]
    for (b, name) in backends.enumerated() {
      summaries[name] = InstructionSummary(
        tool: tool, keystrokes: keystrokes, total: reading.totals[b], sampled: reading.sampled[b],
        stride: layout.stride)
    }
    return Outcome(tool: tool, reading: reading, summaries: summaries, seconds: Date().timeIntervalSince(start))
  }

  /// `trie=200,icu=10` as iterations by backend name.
  static func injection(_ text: String) throws -> [String: Int] {
    var result: [String: Int] = [:]
    for pair in text.split(separator: ",") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      guard parts.count == 2, let count = Int(parts[1]), (0...100_000_000).contains(count) else {
        throw UsageError(message: "$\(injectionVariable) takes NAME=ITERATIONS pairs, not '\(pair)'")
      }
      result[String(parts[0])] = count
    }
    return result
  }

  /// This executable's path.
  static var executable: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
  }

  /// The first executable named `name` on PATH.
  static let scratchPrefix = "citybench-callgrind-"

  /// Removes the scratch directories of earlier replays whose process is gone (killed before
  /// its `defer` ran): each name carries the pid that made it.
  static func removeAbandonedScratch() {
    let temporary = FileManager.default.temporaryDirectory
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path) else { return }
    for name in names where name.hasPrefix(scratchPrefix) {
      let digits = name.dropFirst(scratchPrefix.count).prefix(10)
      guard digits.count == 10, let pid = Int32(digits), pid > 0 else { continue }
      // kill(pid, 0) fails with ESRCH only when no such process exists.
      if kill(pid, 0) != 0 && errno == ESRCH {
        try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
      }
    }
  }

  static func onPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }
}
