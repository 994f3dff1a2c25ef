import CitySearch
import CitySearchBackends
import Foundation
import Testing

/// The hand-checked golden cases of docs/MatchSpec.md, answered by every backend.
///
/// Re-record after a deliberate contract change with
/// `CITYBENCH_RECORD_GOLDEN=1 swift test --filter GoldenTests`, then review the diff by hand.
@Suite struct GoldenTests {
  static let path = Fixtures.testsDirectory.appendingPathComponent("Golden/golden.tsv").path
  static let cases = try! GoldenCase.load(path)
  static let recording = ProcessInfo.processInfo.environment["CITYBENCH_RECORD_GOLDEN"] == "1"

  static func corpus(_ name: String) -> Corpus {
    name == "cities" ? Fixtures.cities : Fixtures.latinDigits
  }

  @Test func fileHasEnoughCasesInBothModes() {
    #expect(Self.cases.count >= 120)
    #expect(Self.cases.filter { $0.mode == .seed }.count >= 15)
    #expect(Self.cases.allSatisfy { !$0.section.isEmpty && !$0.note.isEmpty })
  }

  @Test(arguments: cases)
  func referenceAnswersGoldenCase(_ golden: GoldenCase) throws {
    guard !Self.recording else { return }
    let backend = LinearScanBackend(corpus: Self.corpus(golden.corpus))
    let result = backend.search(golden.query, mode: golden.mode, limit: GoldenCase.limit)
    let total = try #require(golden.total, "case not recorded yet")
    #expect(result.total == total)
    #expect(result.hits.map(\.id) == golden.ids)
  }

  @Test func recordIfAsked() throws {
    guard Self.recording else { return }
    var lines = [GoldenCase.header]
    for var golden in Self.cases {
      let result = LinearScanBackend(corpus: Self.corpus(golden.corpus))
        .search(golden.query, mode: golden.mode, limit: GoldenCase.limit)
      golden.total = result.total
      golden.ids = result.hits.map(\.id)
      lines.append(golden.line)
    }
    try (lines.joined(separator: "\n") + "\n").write(toFile: Self.path, atomically: true, encoding: .utf8)
  }
}
