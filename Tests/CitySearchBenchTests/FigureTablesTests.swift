import CitySearchBench
import CitySearchTestSupport
import Foundation
import Testing

/// The tables `citybench figures` writes from several runs, the block of a file it replaces,
/// and the README's measured tables, which are written from committed runs and fail here when
/// they drift from them.
@Suite(.timed) struct FigureTablesTests {
  /// The runs the README's tables come from, as the README names them.
  static let sources = [
    "docs/figures/cities.results.json", "docs/figures/towns.results.json", "docs/figures/villages.results.json",
  ]

  @Test func theReadmeFiguresAreThoseOfTheCommittedRuns() throws {
    let readme = try String(contentsOf: TestPaths.file("README.md"), encoding: .utf8)
    let block = try #require(FigureTables.block(in: readme), "README.md has no figures block")
    let runs = try Self.sources.map { try BenchResults(contentsOf: TestPaths.file($0).path) }
    #expect(
      block == FigureTables.markdown(runs, sources: Self.sources),
      "README.md's figures differ from the committed runs: run 'citybench figures --update README.md \(Self.sources.joined(separator: " "))'"
    )
  }

  /// A column per run, a row per backend, the reference first; a backend a run did not time is
  /// a dash in that column.
  @Test func tablesHaveAColumnPerRunAndARowPerBackend() throws {
    let run = try BenchFixtures.quickRun().results
    var other = run
    other.backends.removeLast()
    let text = FigureTables.markdown([run, other], sources: ["a.json", "b.json"])
    let tables = try #require(text.components(separatedBy: "How each cost grows").first)
    let rows = tables.split(separator: "\n").filter { $0.hasPrefix("| `") }
    #expect(rows.count == 2 * run.backends.count)
    #expect(rows.first?.hasPrefix("| `\(run.reference)` | ") == true)
    #expect(rows.allSatisfy { $0.split(separator: "|").count == 3 })
    #expect(rows.contains { $0.hasSuffix(" | – |") })
    #expect(text.contains("written from `a.json`, `b.json` by `citybench figures`"))
  }

  @Test func theBlockIsReplacedAndTheRestKept() throws {
    let text = "# Title\n\(FigureTables.beginMarker)\nold\n\(FigureTables.endMarker)\nrest\n"
    let replaced = try FigureTables.replacingBlock(in: text, with: "new\n")
    #expect(replaced == "# Title\n\(FigureTables.beginMarker)\nnew\n\(FigureTables.endMarker)\nrest\n")
    #expect(FigureTables.block(in: replaced) == "new\n")
    #expect(throws: FigureTables.MissingMarkers.self) { try FigureTables.replacingBlock(in: "# Title\n", with: "x") }
    #expect(FigureTables.block(in: "# Title\n") == nil)
  }
}
