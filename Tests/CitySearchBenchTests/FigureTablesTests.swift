import CitySearchBench
import CitySearchTestSupport
import Foundation
import Testing

/// The tables `citybench figures` writes from several runs, and the block of a file it replaces.
@Suite(.timed) struct FigureTablesTests {
  /// A column per run, a row per backend, the reference first; a backend a run did not time is
  /// a dash in that column.
  @Test func tablesHaveAColumnPerRunAndARowPerBackend() throws {
    let run = try BenchFixtures.quickRun().results
    var other = run
    other.backends.removeLast()
    let text = FigureTables.markdown([run, other], sources: ["a.json", "b.json"])
    let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `") }
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
