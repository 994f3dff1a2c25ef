import CitySearch
import CitySearchBench
import CitySearchCatalog
import CitySearchConformance
import CitySearchEngine
import CitySearchExecutor
import Foundation

/// The options `bench`, `gate` and the default suite share: what to replay, through which
/// backends, and how.
struct BenchOptions {
  /// The options, declared once for `bench` and `gate`.
  static var options: [CommandOption] {
    CorpusOptions.options
      + [
        .value(
          "--workload", "FILE",
          "the typing sessions to replay (default: Benchmarks/TIER.workload.tsv; for a corpus file of your own, sessions generated from it)"
        ),
        .value(
          "--backends", "A,B",
          "the backends to time (default: all); the reference (linear) is always timed too, and a second time against itself (A/A)"
        ),
        .value("--mode", "syllable|seed", "(default: syllable)"),
      ]
      + FuzzyArgument.options
      + TwoLevelArgument.options
      + [
        .note(
          "(the backends add each keystroke's two-level matches inside the timed answer; not with --executor, --instructions or --allocations)"
        ),
        .value(
          "--keyboard", "NAME",
          "replay sessions typed on a double-pinyin or Zhuyin keyboard, generated from the corpus (seed 1, the tier's number of places; each keystroke asks what the keyboard reads): \(KeyboardArgument.names.dropFirst().joined(separator: ", "))"
        ),
        .value(
          "--confuse", "RULES",
          "replay sessions of people who confuse what these fuzzy rules pair (zou for zhou under zh-z), generated from the corpus (seed 1), one per target whose spelling they change; give --fuzzy too to search with the rules"
        ),
        .value(
          "--replay", "sessions|stateless|both",
          "how the backends other than the reference answer: typing into their sessions, each keystroke afresh from the index (reported as 'NAME (stateless)'), or both, side by side; 'both' adds the stateless replay of each backend whose session keeps state (default: sessions)"
        ),
        .value("--rounds", "N", "measured passes over the workload (default: 3)"),
        .value("--warm-up", "N", "unmeasured keystrokes first (default: 1500)"),
        .value(
          "--budget", "SECONDS",
          "the most a backend other than the reference may spend on the measured rounds; a slower one is timed on an even sample of keystrokes (default: 20)"
        ),
        .value(
          "--budget-ms", "MS",
          "the time one keystroke may take in your product: the headline says which backends' p99 fit it (default: 16.7, one 60 Hz frame)"
        ),
        .value("--seed", "N", "seeds the order in which backends answer (default: 1)"),
        .value("--limit", "N", "answers per keystroke (default: 20)"),
        .value(
          "--relevance", "on|off",
          "also measure the reference's ranking (docs/Relevance.md) for the reports (default: on for corpora of up to 10,000 places)"
        ),
        .value(
          "--instructions", "A,B|off",
          "also count the instructions per keystroke of these backends under Valgrind's callgrind, deterministic however busy the machine is ('citybench instructions'; about 40 s for trie,inverted-index on cities) (default: off)"
        ),
        .value(
          "--allocations", "A,B|off",
          "also count the allocation calls per keystroke of these backends, in a child process with deterministic hashing: exact from run to run ('citybench allocations'; seconds) (default: off)"
        ),
        .value(
          "--shard", "K/N",
          "time the reference and only the K-th of N slices of the other backends (every N-th from the K-th), for a CI matrix; join the shards' results.json with 'citybench merge'"
        ),
        .value(
          "--inject-slowdown", "NAME=MICROSECONDS[,…]",
          "add busy work to each answer of a backend, to prove that the gate fails (also $\(slowdownVariable))"),
      ]
  }
  static var valued: Set<String> { options.valued }
  static let slowdownVariable = "CITYBENCH_SLOWDOWN"

  var corpus: CorpusOptions
  let workloadPath: String?
  /// `--keyboard`: the layout the replayed sessions are typed on, or `nil` for the workload.
  var keyboard: Keyboard?
  /// `--confuse`: the fuzzy pairs the replayed sessions' typists confuse, or none.
  var confusion: FuzzyRules = []
  var backends: String?
  var configuration: BenchConfiguration
  /// `--relevance on|off`; `nil` measures it on corpora of at most
  /// ``BenchSuite/relevancePlaces`` places.
  var relevance: Bool?
  /// `--instructions`: the backends whose instructions per keystroke are counted (none: off).
  var instructionBackends: [String] = []
  /// `--allocations`: the backends whose allocation calls per keystroke are counted (none: off).
  var allocationBackends: [String] = []
  /// `--shard K/N`: the slice of the backends to time.
  var shard: Shard = .whole
  /// `--replay`: how the backends other than the reference answer.
  var replay: Replay = .sessions
  /// `--executor NAME=CMD` (bench only): implementations in other processes, run beside the
  /// backends (docs/Executors.md).
  var executors: [ExecutorSpec] = []
  /// `--options` and the option flags (bench only): how the backends are built.
  var backendOptions = BackendOptions()
  /// `--index FILE` (bench only).
  var indexFile: String?

  /// `--executor`, for the commands that take it.
  static let executorOptions: [CommandOption] = [
    .repeatable(
      "--executor", "NAME=CMD",
      "also run an implementation of your own, a command speaking the executor protocol (docs/Executors.md), beside the backends on the same keystrokes; repeatable. Reported as external, with its own time and the round trip; its differences from the reference are counted but do not fail the run"
    )
  ]

  /// `--index FILE` (bench only): a backend opened from an index file instead of built.
  static let indexOptions: [CommandOption] = [
    .value(
      "--index", "FILE",
      "open the backend an index file holds (citybench index build) instead of building it, as an app that ships the file does; its build time is the open's. The file's corpus must be the bench's"
    )
  ]

  /// `--replay sessions|stateless|both`.
  enum Replay: String, CaseIterable {
    case sessions, stateless, both
  }

  /// Options built in code (`suite`): `corpus` with its committed workload, every backend,
  /// `configuration`, relevance as the corpus's size decides, no instruction counts.
  init(corpus: CorpusOptions, configuration: BenchConfiguration) {
    self.corpus = corpus
    workloadPath = nil
    backends = nil
    self.configuration = configuration
  }

  init(_ args: ParsedArguments) throws {
    corpus = CorpusOptions(args)
    workloadPath = args["--workload"]
    keyboard = try KeyboardArgument.keyboard(args["--keyboard"])
    confusion = try args["--confuse"].map { try FuzzyArgument.parse($0, option: "--confuse") } ?? []
    if keyboard != nil || !confusion.isEmpty, workloadPath != nil {
      throw UsageError(
        message: "--keyboard and --confuse generate their sessions; a --workload file's texts are replayed as they are")
    }
    if keyboard != nil && !confusion.isEmpty {
      throw UsageError(message: "--keyboard and --confuse each make their own sessions; give one")
    }
    backends = args["--backends"]
    // Names are checked before anything loads, so a typo fails at once with a suggestion.
    if let backends { _ = try BackendSelection.select(backends) }
    var c = BenchConfiguration()
    c.mode = try args.choice("--mode", default: MatchMode.syllable)
    c.fuzzy = try FuzzyArgument.rules(args)
    c.twoLevel = args.has("--two-level")
    c.rounds = try args.integer("--rounds", default: c.rounds, range: 1...1_000)
    c.warmUpKeystrokes = try args.integer("--warm-up", default: c.warmUpKeystrokes, range: 0...10_000_000)
    c.budgetSeconds = Double(try args.integer("--budget", default: Int(c.budgetSeconds), range: 1...1_000_000))
    c.shippedBackend = BackendCatalog.shipped
    if args["--budget-ms"] != nil {
      c.keystrokeBudgetNanoseconds = try args.decimal("--budget-ms", default: 0, range: 0.001...60_000) * 1e6
    }
    c.seed = UInt64(try args.integer("--seed", default: Int(c.seed), range: 0...Int.max))
    c.limit = try args.integer("--limit", default: c.limit, range: 1...10_000)
    let environment = ProcessInfo.processInfo.environment[Self.slowdownVariable]
    c.slowdowns = try Self.slowdowns(args["--inject-slowdown"] ?? environment ?? "")
    configuration = c
    if let value = args["--instructions"], value != "off" {
      instructionBackends = try Self.backendNames(value)
      if let timed = backends.map({ Set($0.split(separator: ",").map(String.init)) }),
        let untimed = instructionBackends.first(where: { !timed.contains($0) })
      {
        throw UsageError(message: "--instructions names '\(untimed)', which --backends does not time")
      }
    }
    if let value = args["--allocations"], value != "off" {
      allocationBackends = try Self.backendNames(value)
      if let timed = backends.map({ Set($0.split(separator: ",").map(String.init)) }),
        let untimed = allocationBackends.first(where: { !timed.contains($0) })
      {
        throw UsageError(message: "--allocations names '\(untimed)', which --backends does not time")
      }
    }
    shard = try args.shard()
    replay = try args.choice("--replay", default: Replay.sessions)
    executors = try args.executorSpecs()
    indexFile = args["--index"]
    backendOptions = try BackendOptionArguments.parse(args)
    if c.twoLevel {
      for option in ["--executor", "--instructions", "--allocations"]
      where args[option].map({ $0 != "off" }) == true {
        throw UsageError(message: "--two-level: the \(option) replay does not read two-level queries; drop \(option)")
      }
    }
    if !c.fuzzy.isEmpty && args["--allocations"].map({ $0 != "off" }) == true {
      throw UsageError(message: "--fuzzy: the allocation replay reads keystrokes without rules; drop --allocations")
    }
    if let value = args["--relevance"] {
      guard value == "on" || value == "off" else { throw UsageError(message: "--relevance takes on or off") }
      relevance = value == "on"
    }
  }

  /// `trie=20,icu=5` (microseconds) as nanoseconds by backend name.
  static func slowdowns(_ text: String) throws -> [String: UInt64] {
    var result: [String: UInt64] = [:]
    for pair in text.split(separator: ",") {
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let micro = Double(parts[1]), micro >= 0, micro < 1e9 else {
        throw UsageError(message: "--inject-slowdown takes NAME=MICROSECONDS pairs, not '\(pair)'")
      }
      guard BackendCatalog.backend(named: parts[0]) != nil else {
        throw UsageError(message: "--inject-slowdown: \(BackendCatalog.UnknownBackend(name: parts[0]))")
      }
      result[parts[0]] = UInt64(micro * 1_000)
    }
    return result
  }

  /// The backend names of a `--backends` list, each checked against the catalog.
  static func backendNames(_ list: String) throws -> [String] {
    let names = list.split(separator: ",").map(String.init)
    guard !names.isEmpty else {
      throw UsageError(
        message: "--backends '\(list)' names no backend (\(BackendCatalog.all.map { $0.name }.joined(separator: ", ")))"
      )
    }
    _ = try BackendSelection.select(list)
    return names
  }

  /// The backends to time, the reference first: with a shard, the reference and its slice.
  func candidates() throws -> [BenchCandidate] {
    let all = try selection()
    return try opening([all[0]] + shard.slice(Array(all.dropFirst())))
  }

  /// `candidates` with the backend `--index FILE` holds opened from it (every replay of it).
  func opening(_ candidates: [BenchCandidate]) throws -> [BenchCandidate] {
    guard let indexFile else { return candidates }
    let header: IndexFile.Header
    do {
      header = try IndexFile.header(of: MappedFile(path: indexFile).data)
    } catch {
      throw CommandError(message: "--index \(indexFile): \(error)")
    }
    guard candidates.contains(where: { $0.type.name == header.backend }) else {
      throw UsageError(
        message: "--index \(indexFile) holds the \(header.backend) index: add \(header.backend) to --backends")
    }
    let prebuilt = PrebuiltIndex(file: indexFile, fingerprint: header.fingerprint) { tables in
      try IndexFile.open(contentsOf: indexFile, among: BackendCatalog.all, tables: tables)
    }
    return candidates.map { candidate in
      var candidate = candidate
      if candidate.type.name == header.backend { candidate.prebuilt = prebuilt }
      return candidate
    }
  }

  /// Every selected backend, the reference first (the whole run's, whatever the shard).
  func selection() throws -> [BenchCandidate] {
    var types = try BackendSelection.select(backends)
    if let backends, types.isEmpty {
      throw UsageError(
        message:
          "--backends '\(backends)' names no backend (\(BackendCatalog.all.map { $0.name }.joined(separator: ", ")))")
    }
    let reference = BackendCatalog.all[0]
    types.removeAll { $0 == reference }
    let others = types.flatMap { type -> [BenchCandidate] in
      switch replay {
      case .sessions: [BenchCandidate(type: type, options: backendOptions)]
      case .stateless: [BenchCandidate(type: type, options: backendOptions, stateless: true)]
      case .both:
        BenchCandidate.sessionKeepsState(type)
          ? [
            BenchCandidate(type: type, options: backendOptions),
            BenchCandidate(type: type, options: backendOptions, stateless: true),
          ] : [BenchCandidate(type: type, options: backendOptions)]
      }
    }
    return [BenchCandidate(type: reference)] + others
  }

  /// The workload: the named file, the tier's committed file, or sessions generated from the
  /// corpus (with the note to print).
  func workload(for corpus: Corpus) throws -> (workload: Workload, name: String, note: String?) {
    if let workloadPath {
      return (try Workload(contentsOf: workloadPath), URL(fileURLWithPath: workloadPath).lastPathComponent, nil)
    }
    let tier = CorpusTier(rawValue: self.corpus.corpus)
    if keyboard != nil || !confusion.isEmpty {
      let places = tier.map(WorkloadGenerator.Configuration.defaultPlaces) ?? 1_000
      var configuration = WorkloadGenerator.Configuration(places: places, seed: 1)
      configuration.keyboard = keyboard
      configuration.confusion = confusion
      let flag = keyboard.map { "--keyboard \($0.name)" } ?? "--confuse \(confusion)"
      let typists = keyboard.map { "typed on \($0.name)" } ?? "typed confusing \(confusion)"
      let workload = WorkloadGenerator(corpus: corpus, configuration: configuration).generate(properties: [
        ("generated-by", "citybench workload --corpus \(self.corpus.corpus) \(flag)"), ("corpus", self.corpus.name),
      ])
      return (
        workload, "\(self.corpus.name) \(typists) (generated, seed 1)",
        "replaying sessions \(typists) towards \(places) places, generated with seed 1 (citybench workload \(flag) writes them)"
      )
    }
    if let tier, let path = self.corpus.packageFile("Benchmarks/\(tier.rawValue).workload.tsv") {
      return (try Workload(contentsOf: path), "\(tier.rawValue).workload.tsv", nil)
    }
    let places = tier.map(WorkloadGenerator.Configuration.defaultPlaces) ?? 1_000
    let generator = WorkloadGenerator(corpus: corpus, configuration: .init(places: places, seed: 1))
    let name = "\(self.corpus.name) (generated, seed 1)"
    return (
      generator.generate(), name,
      "no workload file found; replaying sessions towards \(places) places, generated with seed 1"
    )
  }

  /// The suite's settings for `candidates` of `corpus` (a file when executors need one).
  func suiteSettings() throws -> BenchSuite.Settings {
    var settings = BenchSuite.Settings(candidates: try candidates(), configuration: configuration)
    settings.relevance = relevance
    settings.relevanceCasesPath = corpus.packageFile("Benchmarks/relevance-cases.tsv")
    settings.instructionBackends = instructionBackends
    settings.allocationBackends = allocationBackends
    settings.shard = shard
    if !shard.isWhole { settings.shardBackends = try selection().map(\.label) }
    settings.executors = executors
    if !executors.isEmpty { settings.corpusFile = try corpus.file() }
    settings.packageDirectory = corpus.packageDirectory
    return settings
  }

  /// Loads everything and runs the benchmark (``BenchSuite``), with progress on stderr and
  /// Ctrl-C handling; instructions and allocations are counted in child processes.
  func run(quiet: Bool = false) throws -> (results: BenchResults, raw: RawMeasurements, workload: Workload) {
    let loaded = try corpus.load()
    let (workload, workloadName, note) = try self.workload(for: loaded)
    if let note { standardError("citybench: \(note)") }
    if !quiet {
      standardError(
        "\(corpus.name): \(loaded.count) places; workload \(workloadName): \(workload.sessions.count) sessions, \(workload.keystrokeCount) keystrokes; \(configuration.rounds) rounds, \(configuration.mode) mode"
      )
    }
    let log: (String) -> Void = { if !quiet { standardError($0) } }
    let interruption = Interruption.shared
    let progress = Progress(label: "replaying")
    defer { progress.finish() }
    let hooks = BenchSuite.Hooks(
      countInstructions: { backends, workload in
        let outcome = try CallgrindRun(
          corpus: corpus, workload: workload, backends: backends, mode: configuration.mode.rawValue,
          limit: configuration.limit, fuzzy: configuration.fuzzy
        ).measure()
        log(String(format: "instructions: counted in %.0f s", outcome.seconds))
        let variable = ProcessInfo.processInfo.environment[CallgrindRun.injectionVariable] ?? ""
        return (outcome.summaries, try CallgrindRun.injection(variable))
      },
      countAllocations: { backends, workload in
        try AllocationRun(
          corpus: corpus, workload: workload, backends: backends, mode: configuration.mode.rawValue,
          limit: configuration.limit
        ).measure()
      },
      log: log, progress: progress.update, shouldStop: { interruption.isRequested })
    let (results, raw) = try BenchSuite.run(
      corpus: loaded, corpusName: corpus.name, workload: workload, workloadName: workloadName,
      settings: try suiteSettings(), hooks: hooks)
    return (results, raw, workload)
  }
}
