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
  var workload: Workload
  var backends: [String]
  var mode: String
  var limit: Int
  /// The fuzzy rules every keystroke is read with; none by default.
  var fuzzy: FuzzyRules = []
  /// The options every backend is built with (`--options`); the defaults unless given.
  var backendOptions = BackendOptions()

  struct Outcome {
    var tool: String
    var reading: InstructionCounter.Reading
    var summaries: [String: InstructionSummary]
    var seconds: Double
  }

  /// Why instructions cannot be counted here, or `nil` when they can.
  static var unavailable: String? {
    guard InstructionCounter.isCompiledIn else {
      return
        "this citybench was built without <valgrind/callgrind.h>, so it cannot count instructions; install Valgrind (Debian: apt-get install valgrind) and rebuild"
    }
    guard onPath("valgrind") != nil else {
      return "counting instructions needs valgrind on PATH (Debian: apt-get install valgrind)"
    }
    return nil
  }

  /// Runs the replay under callgrind and summarizes each backend's counts.
  func measure() throws -> Outcome {
    if let reason = Self.unavailable { throw CommandError(message: reason) }
    guard let valgrind = Self.onPath("valgrind") else {
      throw CommandError(message: "counting instructions needs valgrind on PATH (Debian: apt-get install valgrind)")
    }
    let version = RunEnvironment.output(of: valgrind, ["--version"]) ?? "valgrind"
    Self.removeAbandonedScratch()
    let scratch = URL(fileURLWithPath: Self.scratchPath())
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    func inScratch(_ name: String) -> String { scratch.appendingPathComponent(name).path }

    // Valgrind 3.19 cannot read the DWARF 5 of a Swift binary, and no option skips it: the
    // replay runs a copy without debug information.
    guard let strip = Self.onPath("strip") else {
      throw CommandError(message: "counting instructions needs strip on PATH (Debian: apt-get install binutils)")
    }
    guard RunEnvironment.output(of: strip, ["-g", "-o", inScratch("citybench"), Self.executable]) != nil,
      FileManager.default.isExecutableFile(atPath: inScratch("citybench"))
    else {
      throw CommandError(message: "strip could not copy \(Self.executable) without its debug information")
    }
    try AtomicFile.write(workload.fileText, to: inScratch("workload.tsv"))

    // The replay's arguments and environment are the same bytes in every run: paths relative
    // to the scratch directory (whose own path has one length), the corpus behind a link, and
    // a fixed environment. Their bytes sit on the replay's initial stack, and a different
    // length or content there moves the counts of some keystrokes by up to 100 instructions
    // (3% of the median keystroke's): enough to move a quantile from one run to the next.
    var corpusArguments = ["--corpus", corpus.corpus]
    if CorpusTier(rawValue: corpus.corpus) == nil {
      let suffix = URL(fileURLWithPath: corpus.corpus).pathExtension
      let name = suffix.isEmpty ? "corpus" : "corpus.\(suffix)"
      try Self.link(inScratch(name), to: corpus.corpus)
      corpusArguments[1] = name
    }
    if corpus.explicitDirectory != nil || corpus.corpus != CorpusTier.cities.rawValue,
      let directory = CorpusDirectory.locate(explicit: corpus.explicitDirectory)
    {
      try Self.link(inScratch("corpus-dir"), to: directory.path)
      corpusArguments += ["--corpus-dir", "corpus-dir"]
    }
    let replay =
      [
        "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no", "--combine-dumps=yes", "--dump-line=no",
        "--callgrind-out-file=callgrind.out", "--log-file=replay.log", "./citybench", "instructions", Self.replayFlag,
      ] + corpusArguments + [
        "--workload", "workload.tsv", "--backends", backends.joined(separator: ","), "--mode", mode, "--limit",
        "\(limit)",
      ] + (fuzzy.isEmpty ? [] : ["--fuzzy", fuzzy.description])
      + (backendOptions.description.isEmpty ? [] : ["--options", backendOptions.description])

    let process = Process()
    process.executableURL = URL(fileURLWithPath: valgrind)
    process.arguments = replay
    process.currentDirectoryURL = scratch
    process.environment = Self.replayEnvironment(ProcessInfo.processInfo.environment)
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    let start = Date()
    try process.run()
    let replayErrors = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    if Interruption.shared.isRequested { throw BenchInterrupted() }
    guard process.terminationStatus == 0 else {
      let valgrindLog = (try? String(contentsOfFile: inScratch("replay.log"), encoding: .utf8)) ?? ""
      let tail = (String(decoding: replayErrors, as: UTF8.self) + valgrindLog).split(separator: "\n").suffix(6)
      throw CommandError(
        message:
          "the replay under callgrind failed (exit \(process.terminationStatus)):\n  \(tail.joined(separator: "\n  "))")
    }
    let data = try Data(contentsOf: URL(fileURLWithPath: inScratch("callgrind.out")))
    let totals = try InstructionCounter.totals(callgrindOutput: data)
    let layout = InstructionCounter.Layout(keystrokes: workload.keystrokeCount, backends: backends.count)
    let reading = try InstructionCounter.reading(totals: totals, layout: layout)
    let tool = "callgrind (\(version))"
    var summaries: [String: InstructionSummary] = [:]
    for (b, name) in backends.enumerated() {
      summaries[name] = InstructionSummary(
        tool: tool, keystrokes: workload.keystrokeCount, total: reading.totals[b], sampled: reading.sampled[b],
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

  /// The environment of the replay: always the same variables with the same values, whatever
  /// the caller's. Swift's hashing seed is fixed (it is per process otherwise);
  /// `LD_LIBRARY_PATH` is kept where the Swift runtime is found through it; the injection
  /// variable is always there, empty unless the gate's self-test sets it. Its presence alone,
  /// empty, moved `trie`'s count on `cities` by 2.8 % (61.38 M → 63.08 M: the C library's heap
  /// lies otherwise, and more of the keystrokes' allocations take its slow path), which the
  /// self-test read as part of the work it injected; its value's length moves it by a few
  /// hundred instructions in all.
  static func replayEnvironment(_ caller: [String: String]) -> [String: String] {
    var environment = [
      "PATH": "/usr/bin:/bin", "SWIFT_DETERMINISTIC_HASHING": "1", injectionVariable: caller[injectionVariable] ?? "",
    ]
    if let value = caller["LD_LIBRARY_PATH"] { environment["LD_LIBRARY_PATH"] = value }
    return environment
  }

  /// The length of every scratch directory's path, where the temporary directory's own path
  /// leaves room (the replay's executable is in it, and its path is on the replay's stack).
  static let scratchPathLength = 120

  /// A new scratch directory's path: the temporary directory, then the prefix, this process's
  /// pid and a random number, padded to ``scratchPathLength``.
  static func scratchPath() -> String {
    let path =
      FileManager.default.temporaryDirectory.appendingPathComponent(scratchPrefix).path
      + String(format: "%010d-%08x", getpid(), UInt32.random(in: 0...UInt32.max))
    return path + String(repeating: "0", count: max(0, scratchPathLength - path.utf8.count))
  }

  private static func link(_ path: String, to destination: String) throws {
    let absolute = URL(fileURLWithPath: destination).standardizedFileURL.path
    guard symlink(absolute, path) == 0 else {
      throw CommandError(message: "cannot link \(path) to \(absolute): \(String(cString: strerror(errno)))")
    }
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
