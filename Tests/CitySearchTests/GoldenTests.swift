import CitySearch
import CitySearchBackends
import CitySearchCatalog
import CitySearchCorpus
import CitySearchTestSupport
import Foundation
import Testing

/// The hand-checked golden cases of docs/MatchSpec.md, answered by every backend.
///
/// Re-record after a deliberate contract change with
/// `CITYBENCH_RECORD_GOLDEN=1 swift test --filter GoldenTests`, then review the diff by hand.
@Suite(.timed) struct GoldenTests {
  static let path = TestPaths.golden.path
  static let cases = try! GoldenCase.load(path, keyboards: EmbeddedCorpus.keyboards())
  static let recording = ProcessInfo.processInfo.environment["CITYBENCH_RECORD_GOLDEN"] == "1"

  static func corpus(_ name: String) -> Corpus {
    name == "cities" ? Fixtures.cities : Fixtures.latinDigits
  }

  @Test func fileHasEnoughCasesInBothModes() {
    #expect(Self.cases.count >= 200)
    #expect(Self.cases.filter { $0.mode == .seed }.count >= 15)
    #expect(Self.cases.allSatisfy { !$0.section.isEmpty && !$0.note.isEmpty })
  }

  /// The file was recorded for the contract docs/MatchSpec.md states.
  @Test func fileIsRecordedForTheCurrentContract() throws {
    let spec = try String(
      contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/MatchSpec.md"),
      encoding: .utf8)
    let title = try #require(spec.split(separator: "\n").first)
    let version = try #require(title.split(separator: " ").last.map(String.init))
    #expect(title.hasPrefix("# The match contract — version"))
    #expect(try GoldenCase.contractVersion(Self.path) == version)
  }

  @Test(arguments: cases)
  func referenceAnswersGoldenCase(_ golden: GoldenCase) throws {
    guard !Self.recording else { return }
    let corpus = Self.corpus(golden.corpus)
    let result = golden.answer(with: LinearScanBackend(corpus: corpus))
    let total = try #require(golden.total, "case not recorded yet")
    #expect(result.total == total)
    #expect(result.hits.map(\.id) == golden.ids)
  }

  /// Every indexed backend gives the golden answer too (the uncached ICU backend is checked
  /// by the conformance tests; it takes about 0.1 s per query).
  @Test(arguments: ["trie", "inverted-index", "sqlite-fts5", "icu-cached"])
  func backendAnswersEveryGoldenCase(_ name: String) throws {
    guard !Self.recording else { return }
    let type = try #require(BackendCatalog.backend(named: name))
    let backends = try ["cities", "latin-digits"].map {
      try type.init(corpus: Self.corpus($0), options: BackendOptions())
    }
    for golden in Self.cases {
      let backend = backends[golden.corpus == "cities" ? 0 : 1]
      let result = golden.answer(with: backend)
      #expect(result.total == golden.total, "\(name) \(golden)")
      #expect(result.hits.map(\.id) == golden.ids, "\(name) \(golden)")
    }
  }

  @Test func recordIfAsked() throws {
    guard Self.recording else { return }
    let version = try GoldenCase.contractVersion(Self.path).map { GoldenCase.versionPrefix + $0 }
    var lines = [GoldenCase.header] + (version.map { [$0] } ?? [])
    for var golden in Self.cases {
      let corpus = Self.corpus(golden.corpus)
      let result = golden.answer(with: LinearScanBackend(corpus: corpus))
      golden.total = result.total
      golden.ids = result.hits.map(\.id)
      lines.append(golden.line)
    }
    try (lines.joined(separator: "\n") + "\n").write(toFile: Self.path, atomically: true, encoding: .utf8)
  }
}
