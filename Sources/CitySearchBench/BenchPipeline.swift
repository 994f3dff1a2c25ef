import CitySearch
import CitySearchExecutor
import Foundation

/// A backend's index read from a file an app ships (an index file), opened instead of built:
/// the bench then measures what such an app runs, and its "build" is the open.
public struct PrebuiltIndex: Sendable {
  /// The file, as named on the command line.
  public let file: String
  /// The fingerprint of the corpus the file holds (`Corpus.fingerprint`): it must be the
  /// bench's corpus.
  public let fingerprint: UInt64
  /// Opens the backend, its corpus's queries folded with the tables given.
  public let open: @Sendable (ReadingTables) throws -> any SearchBackend

  /// The index in `file`, of a corpus of `fingerprint`, opened by `open`.
  public init(file: String, fingerprint: UInt64, open: @escaping @Sendable (ReadingTables) throws -> any SearchBackend)
  {
    self.file = file
    self.fingerprint = fingerprint
    self.open = open
  }

  /// Why an index file cannot be benchmarked against a corpus.
  public struct OtherCorpus: Error, CustomStringConvertible {
    /// The file.
    public let file: String
    public var description: String {
      "\(file) holds the index of another corpus than the bench's (their fingerprints differ): build it from the same corpus"
    }
  }
}

/// A backend to benchmark: its type, build options, how it is replayed and the name it is
/// reported under.
public struct BenchCandidate: Sendable {
  /// The backend type, built once for the run.
  public let type: any SearchBackend.Type
  /// Its build options.
  public let options: BackendOptions
  /// Whether every keystroke is answered afresh from the index instead of typed into a
  /// session (the stateless replay).
  public let stateless: Bool
  /// The name the reports give it: the backend's, with ` (stateless)` for the stateless replay.
  public let label: String
  /// The index file it is opened from instead of built (`citybench bench --index FILE`), if any.
  public var prebuilt: PrebuiltIndex?

  /// A candidate; `label` defaults to the backend's name, marked when `stateless`.
  public init(
    type: any SearchBackend.Type, options: BackendOptions = BackendOptions(), stateless: Bool = false,
    label: String? = nil
  ) {
    self.type = type
    self.options = options
    self.stateless = stateless
    self.label = label ?? type.name + (stateless ? Self.statelessSuffix : "")
  }

  /// What marks the stateless replay of a backend in the reports: `trie (stateless)`.
  public static let statelessSuffix = " (stateless)"

  /// Whether the backend's typing session keeps anything between keystrokes: `false` for one
  /// whose session answers every keystroke afresh anyway (`RepeatingSession`), which a
  /// stateless replay would only repeat.
  public static func sessionKeepsState(_ type: any SearchBackend.Type) -> Bool {
    func keeps<Backend: SearchBackend>(_: Backend.Type) -> Bool {
      Backend.Session.self != RepeatingSession<Backend>.self
    }
    return keeps(type)
  }
}

/// One whole benchmark: build every backend (measured), replay the workload, analyse.
public struct BenchPipeline {
  /// The places searched.
  public var corpus: Corpus
  /// The corpus's name in the reports (a tier's name, or the file's).
  public var corpusName: String
  /// The typing sessions replayed.
  public var workload: Workload
  /// The workload's name in the reports.
  public var workloadName: String
  /// The reference first.
  public var candidates: [BenchCandidate]
  /// How the workload is replayed.
  public var configuration: BenchConfiguration
  /// The package checkout, for the git commit in the metadata.
  public var packageDirectory: String?
  /// Implementations in other processes run beside the backends (docs/Executors.md).
  public var executors: [ExecutorSpec] = []
  /// The corpus as a file an executor loads, with its format (`tsv`, `json`, `plist`);
  /// required when there are ``executors``.
  public var corpusFile: (path: String, format: String)?

  /// A benchmark of `candidates` (the reference first) over `corpus`, replaying `workload`.
  public init(
    corpus: Corpus, corpusName: String, workload: Workload, workloadName: String, candidates: [BenchCandidate],
    configuration: BenchConfiguration, packageDirectory: String?
  ) {
    self.corpus = corpus
    self.corpusName = corpusName
    self.workload = workload
    self.workloadName = workloadName
    self.candidates = candidates
    self.configuration = configuration
    self.packageDirectory = packageDirectory
  }

  /// Runs the benchmark. `log` gets one line per step; `progress` the replay's progress.
  public func run(
    log: (String) -> Void = { _ in }, progress: (Int, Int) -> Void = { _, _ in }, shouldStop: () -> Bool = { false }
  ) throws -> (results: BenchResults, raw: RawMeasurements) {
    let started = Date()
    let startedAt = MonotonicClock.now()
    var builds: [MeasuredBuild] = []
    for candidate in candidates {
      if shouldStop() { throw BenchInterrupted() }
      let build: MeasuredBuild
      if let prebuilt = candidate.prebuilt {
        guard prebuilt.fingerprint == corpus.fingerprint else { throw PrebuiltIndex.OtherCorpus(file: prebuilt.file) }
        build = try MeasuredBuild.measure { try prebuilt.open(corpus.tables) }
        log("\(candidate.label): opened from \(prebuilt.file) in \(String(format: "%.3f s", build.seconds))")
      } else {
        build = try MeasuredBuild.build(candidate.type, corpus: corpus, options: candidate.options)
        log("\(candidate.label): \(build.summary)")
      }
      builds.append(build)
    }
    var external: [ExternalStart] = []
    for spec in executors {
      if shouldStop() { throw BenchInterrupted() }
      guard let corpusFile else { preconditionFailure("executors need the corpus as a file") }
      let start = ExternalStart.start(
        spec, corpus: corpus, path: corpusFile.path, format: corpusFile.format, mode: configuration.mode,
        limit: configuration.limit, fuzzy: configuration.fuzzy)
      log("\(spec.name): \(start.summary)")
      external.append(start)
    }
    defer { for start in external { start.executor?.stop() } }
    let clockOverhead = MonotonicClock.overhead()
    let runner = BenchRunner(workload: workload, configuration: configuration)
    let raw = try runner.run(
      backends: zip(candidates, builds).map { ($0.label, $1.backend) },
      stateless: Set(candidates.filter(\.stateless).map(\.label)), external: external.compactMap(\.executor),
      progress: progress, shouldStop: shouldStop)
    var metadata = RunMetadata(
      tool: "citybench", startedAt: RunEnvironment.timestamp(started),
      durationSeconds: Double(MonotonicClock.now() - startedAt) / 1e9, machine: RunEnvironment.machine,
      swiftVersion: RunEnvironment.swiftVersion, buildConfiguration: RunEnvironment.buildConfiguration,
      gitCommit: RunEnvironment.gitCommit(in: packageDirectory),
      corpus: .init(name: corpusName, places: corpus.count, checksum: corpus.checksum),
      workload: .init(
        name: workloadName, sessions: workload.sessions.count, keystrokes: workload.keystrokeCount,
        styles: workload.styles, checksum: workload.checksum),
      mode: configuration.mode.rawValue, limit: configuration.limit, rounds: configuration.rounds,
      warmUpKeystrokes: configuration.warmUpKeystrokes, budgetSeconds: configuration.budgetSeconds,
      seed: configuration.seed, clockOverheadNanoseconds: clockOverhead,
      slowdownNanoseconds: configuration.slowdowns)
    metadata.keystrokeBudgetNanoseconds = configuration.keystrokeBudgetNanoseconds
    metadata.shippedBackend = configuration.shippedBackend
    if !configuration.fuzzy.isEmpty { metadata.fuzzy = configuration.fuzzy.description }
    if configuration.twoLevel { metadata.twoLevel = true }
    let options = Set(candidates.map(\.options.description)).subtracting([""]).sorted()
    let opened = candidates.compactMap { candidate in
      candidate.prebuilt.map { "\(candidate.label) opened from \($0.file)" }
    }
    if !(options + opened).isEmpty { metadata.backendOptions = (options + opened).joined(separator: "; ") }
    var results = BenchAnalysis.results(
      raw: raw, workload: workload, builds: builds, external: external, corpus: corpus, metadata: metadata)
    let stateless = Set(candidates.filter(\.stateless).map(\.label))
    for i in results.backends.indices where stateless.contains(results.backends[i].name) {
      results.backends[i].replay = BackendResults.statelessReplay
    }
    return (results, raw)
  }
}

extension Corpus {
  /// A checksum of every place's id, parent, level, name, short name, readings, prominence and
  /// aliases: equal for equal corpora whatever file they came from.
  public var checksum: String {
    var hash = FNV1a64()
    for index in 0..<count {
      let place = place(at: index)
      hash.add(String(place.id))
      hash.add(place.parentID.map(String.init) ?? "")
      hash.add(String(place.level.rawValue))
      hash.add(place.name)
      hash.add(place.shortName)
      hash.add(place.pinyin.joined(separator: " "))
      for k in 0..<alternateCount(at: index) {
        hash.add(alternateTokens(at: index, k).map { syllabary.spelling($0) }.joined(separator: " "))
      }
      hash.add(place.isHot ? "1" : "0")
      // The facts that rank and name places (MatchSpec §5.4, §8).
      hash.add(String(prominence(at: index)))
      for k in 0..<aliasCount(at: index) {
        hash.add(String(String.UnicodeScalarView(aliasTokens(at: index, k).compactMap(Unicode.Scalar.init))))
      }
    }
    return hash.hex
  }
}

/// The report files a run can write.
public enum ReportFormat: String, CaseIterable, Sendable {
  /// `results.json`: everything measured (docs/BenchmarkResults.md).
  case json
  /// `report.md`: the tables.
  case md
  /// `samples.csv`: every timed answer.
  case csv
  /// `report.html`: the tables and the charts, one page.
  case html

  /// The file it is written to: `results.json`, `report.md`, `samples.csv` or `report.html`.
  public var fileName: String {
    switch self {
    case .json: "results.json"
    case .md: "report.md"
    case .csv: "samples.csv"
    case .html: "report.html"
    }
  }

  /// The file of one tier of a multi-tier run: `towns.report.html`.
  public func fileName(tier: String?) -> String { tier.map { "\($0).\(fileName)" } ?? fileName }

  /// Every report file name a bench run writing into `directory` replaces, so that no run
  /// leaves another's files beside its own: one tier's reports, the growth table, the reports
  /// of each shipped tier and of the named `tiers` (corpus files of a multi-tier run), and the
  /// tier reports an earlier multi-tier run left there.
  public static func family(in directory: String, tiers: [String] = []) -> Set<String> {
    let present = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    let earlier = present.compactMap { name in
      allCases.lazy.compactMap {
        name.hasSuffix(".\($0.fileName)") ? String(name.dropLast($0.fileName.count + 1)) : nil
      }
      .first
    }
    var names = Set(allCases.map(\.fileName))
    names.insert(CostGrowth.fileName)
    for tier in Set(tiers + earlier + CorpusTier.allCases.map(\.rawValue)) {
      for format in allCases { names.insert(format.fileName(tier: tier)) }
    }
    return names
  }

  /// Writes the chosen reports into a report set (``ReportDirectory/commit()`` puts them in place).
  /// `tier` names the files of one tier of a multi-tier run (``fileName(tier:)``).
  public static func stage(
    _ formats: [ReportFormat], results: BenchResults, raw: RawMeasurements?, workload: Workload?, tier: String? = nil,
    in reports: ReportDirectory
  ) throws {
    for format in formats {
      let name = format.fileName(tier: tier)
      switch format {
      case .json: try reports.write(results.jsonData(), named: name)
      case .md: try reports.write(MarkdownReport.text(results), named: name)
      case .html: try reports.write(HTMLReport.text(results), named: name)
      case .csv:
        guard let raw, let workload else { continue }
        try reports.write(SamplesCSV.text(raw: raw, workload: workload), named: name)
      }
    }
  }

  /// Writes a multi-tier run's own reports: `growth.json` (for json), and `report.md` and
  /// `report.html` as the cost-growth pages (``GrowthReport``); each tier's reports are staged
  /// with ``stage(_:results:raw:workload:tier:in:)``.
  public static func stage(
    _ formats: [ReportFormat], growth: CostGrowth, runs: [BenchResults], in reports: ReportDirectory
  ) throws {
    for format in formats {
      switch format {
      case .json: try reports.write(growth.jsonData(), named: CostGrowth.fileName)
      case .md: try reports.write(GrowthReport.markdown(growth, runs: runs), named: format.fileName)
      case .html: try reports.write(GrowthReport.html(growth, runs: runs), named: format.fileName)
      case .csv: continue
      }
    }
  }

  /// Writes the chosen reports into `directory` as one set, replacing the earlier set as a
  /// whole; returns the paths written.
  public static func write(
    _ formats: [ReportFormat], results: BenchResults, raw: RawMeasurements?, workload: Workload?, to directory: String
  ) throws -> [String] {
    let reports = try ReportDirectory(directory, family: family(in: directory))
    try stage(formats, results: results, raw: raw, workload: workload, in: reports)
    return try reports.commit()
  }
}
