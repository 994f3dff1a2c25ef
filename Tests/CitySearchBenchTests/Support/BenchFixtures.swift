import CitySearch
import CitySearchBackends
import CitySearchConformance
import CitySearchCorpus
import CitySearchEngine
import CitySearchTestSupport
import Foundation

@testable import CitySearchBench

/// Shared inputs of the harness tests.
enum BenchFixtures {
  static let packageRoot: URL = TestPaths.packageRoot

  static var cities: Corpus { TestTiers.cities }

  /// A small generated workload on cities: 12 places spread over the corpus, each in every
  /// style (the generator's own sessions, without its hundreds of provinces and prefectures).
  static let smallWorkload: Workload = generatedSessions(places: 12, seed: 5)

  static func generatedSessions(places: Int, seed: UInt64) -> Workload {
    let generator = WorkloadGenerator(corpus: cities, configuration: .init(places: places, seed: seed))
    var random = SplitMix64(seed: seed)
    var sessions: [Workload.Session] = []
    for place in stride(from: 7, to: cities.count, by: cities.count / places).prefix(places) {
      for style in InputStyle.allCases {
        sessions.append(generator.session(number: sessions.count + 1, place: place, style: style, random: &random))
      }
    }
    return Workload(sessions: sessions)
  }

  static func linearBuild() throws -> MeasuredBuild {
    try MeasuredBuild.build(LinearScanBackend.self, corpus: cities, options: BackendOptions())
  }

  /// Metadata for synthetic results: `workload` and `corpus` checksums as given.
  static func metadata(workloadChecksum: String = "w", corpusChecksum: String = "c") -> RunMetadata {
    RunMetadata(
      tool: "citybench", startedAt: "2026-01-01T00:00:00Z", durationSeconds: 1, machine: RunEnvironment.machine,
      swiftVersion: "6.3", buildConfiguration: "debug", gitCommit: "test",
      corpus: .init(name: "cities", places: 3, checksum: corpusChecksum),
      workload: .init(name: "w", sessions: 1, keystrokes: 1, styles: ["pinyin"], checksum: workloadChecksum),
      mode: "syllable", limit: 20, rounds: 1, warmUpKeystrokes: 0, budgetSeconds: 1, seed: 1,
      clockOverheadNanoseconds: 20, slowdownNanoseconds: [:])
  }

  /// A fresh empty directory under the system's temporary directory.
  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("citybench-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// The trie without its precomputed short answers, which take half a minute to build in a
  /// debug build.
  static let trie = BenchCandidate(type: TrieBackend.self, options: BackendOptions().setting(.shortAnswers, to: false))

  /// A quick run of the whole pipeline: linear, trie and the given extra backends, one round.
  static func quickRun(
    extra: [BenchCandidate] = [], slowdowns: [String: UInt64] = [:], budgetSeconds: Double = 100
  ) throws -> (results: BenchResults, raw: RawMeasurements) {
    var configuration = BenchConfiguration()
    configuration.rounds = 2
    configuration.warmUpKeystrokes = 10
    configuration.slowdowns = slowdowns
    configuration.budgetSeconds = budgetSeconds
    let pipeline = BenchPipeline(
      corpus: cities, corpusName: "cities", workload: smallWorkload, workloadName: "small",
      candidates: [BenchCandidate(type: LinearScanBackend.self), trie] + extra,
      configuration: configuration, packageDirectory: packageRoot.path)
    return try pipeline.run()
  }
}

/// A backend whose searches are the reference's but whose typing session keeps answering the
/// first text it was given: a stateless replay conforms, a session replay does not.
struct StuckSessionBackend: SearchBackend {
  static let name = "stuck-session"
  static let summary = "the reference, with a session that never moves past its first keystroke (tests only)"
  let corpus: Corpus
  let reference: LinearScanBackend

  init(corpus: Corpus, options: BackendOptions) throws {
    self.corpus = corpus
    self.reference = LinearScanBackend(corpus: corpus)
  }

  struct Session: SearchSession {
    let backend: StuckSessionBackend
    let mode: MatchMode
    let limit: Int
    var first: String?

    mutating func update(_ text: String) -> SearchResult {
      if first == nil { first = text }
      return backend.search(first!, mode: mode, limit: limit)
    }
  }

  func search(_ query: NormalizedQuery, mode: MatchMode, limit: Int, scope: PlaceScope) -> SearchResult {
    reference.search(query, mode: mode, limit: limit, scope: scope)
  }

  func makeSession(mode: MatchMode, limit: Int, scope: PlaceScope, fuzzy: FuzzyRules) -> Session {
    Session(backend: self, mode: mode, limit: limit)
  }
}
