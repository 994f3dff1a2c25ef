import CitySearchTestSupport
import Foundation
import Testing

@Suite(.timed) struct ConformCommandTests {
  @Test func indexedBackendsConformOnASliceOfCities() throws {
    let r = try CLI.run(["conform", "--corpus", "cities", "--every", "400", "--backends", "trie,inverted-index"])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("== cities: 3211 places; exhaustive over one place in 400"))
    #expect(r.stdout.contains("trie: built in"))
    #expect(r.stdout.contains("session keystrokes: conforms"))
    #expect(r.stdout.hasSuffix("conform: every backend conforms\n"))
  }

  /// `--two-level` (MatchSpec §9.2): every query read as a two-level query too, by the reference
  /// and the backends, named in the header.
  @Test func twoLevelQueriesConformOnASliceOfCities() throws {
    let r = try CLI.run([
      "conform", "--corpus", "cities", "--every", "400", "--backends", "trie,sqlite-fts5", "--two-level",
    ])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("== cities: 3211 places; exhaustive over one place in 400"))
    #expect(r.stdout.contains("; two-level\n"), "\(r.stdout)")
    #expect(r.stdout.hasSuffix("conform: every backend conforms\n"))
  }

  /// `--fuzzy each` runs once per rule alone and once with all of them, each with its own header
  /// and verdict; it refuses the options that name one run's files.
  @Test func sweepsOverFuzzyRules() throws {
    let each = try CLI.run([
      "conform", "--corpus", "cities", "--every", "1600", "--backends", "trie", "--mode", "syllable", "--fuzzy", "each",
    ])
    #expect(each.status == 0, "\(each.stderr)")
    let headers = each.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("== cities") }
    #expect(headers.count == 13)
    #expect(headers.first?.hasSuffix("; fuzzy zh-z") == true && headers.last?.hasSuffix("; fuzzy all") == true)
    #expect(each.stdout.components(separatedBy: "conform: every backend conforms").count == 14)
    let refused = try CLI.run(["conform", "--fuzzy", "each", "--result", "x.json"])
    #expect(refused.status == 64 && refused.stderr.contains("runs once per rule"), "\(refused.stderr)")
  }

  /// `--keyboard all` runs once per layout, each with its own header and verdict.
  @Test func sweepsOverKeyboards() throws {
    let layouts = try CLI.run([
      "conform", "--corpus", "cities", "--every", "1600", "--backends", "trie", "--mode", "syllable", "--keyboard",
      "all",
    ])
    #expect(layouts.status == 0, "\(layouts.stderr)")
    #expect(layouts.stdout.components(separatedBy: "; typed on ").count == 10)
  }

  @Test func rawICUDivergencesAreExpectedFailuresWhenListed() throws {
    // Without an expected-failures file, raw ICU fails and prints a reproduction.
    let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID()).tsv").path
    try "backend\tid\tname\tnote\n".write(toFile: empty, atomically: true, encoding: .utf8)
    let r = try CLI.run([
      "conform", "--corpus", "cities", "--every", "400", "--backends", "icu-cached", "--icu-raw", "--mode", "syllable",
      "--expected", empty,
    ])
    #expect(r.status == 1)
    #expect(r.stdout.contains("icu-cached: built in"))
    #expect(r.stdout.contains("FIRST DIVERGENCE: backend icu-cached --options icu-raw=true"))
    #expect(
      r.stdout.contains("reproduce: citybench search --corpus cities --backends icu-cached --options icu-raw=true"))
    #expect(r.stdout.hasSuffix("conform: FAILED\n"))
  }

  @Test func usageAndFileErrors() throws {
    let tier = try CLI.run(["conform", "--corpus", "moon"])
    #expect(tier.status == 64)
    #expect(tier.stderr.contains("unknown tier 'moon'"))
    let backend = try CLI.run(["conform", "--backends", "trie,nope"])
    #expect(backend.status == 64)
    #expect(backend.stderr.contains("unknown backend 'nope'"))
    let bad = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).tsv").path
    try "backend\tid\tname\tnote\ntrie\tx\ty\tz\n".write(toFile: bad, atomically: true, encoding: .utf8)
    let file = try CLI.run(["conform", "--corpus", "cities", "--expected", bad])
    #expect(file.status == 1)
    #expect(file.stderr.contains("\(bad):2"))
  }

  @Test func backendsBuildReportsTimeAndMemory() throws {
    let r = try CLI.run(["backends", "--build", "--backends", "trie,sqlite-fts5"])
    #expect(r.status == 0)
    let lines = r.stdout.split(separator: "\n")
    #expect(lines.count == 4)
    #expect(lines[1].hasPrefix("trie\tbuilt in "))
    #expect(lines[1].contains("nodes "))
    // trie's index saved, opened and asked a first query that walks; sqlite-fts5's cannot be saved.
    #expect(lines[2].hasPrefix("\tindex file ") && lines[2].contains("opened in "))
    #expect(lines[2].contains("first answer ('beijing', 1 matches) in "))
    #expect(lines[3].hasPrefix("sqlite-fts5\tbuilt in ") && lines[3].contains("sqlite 3."))
  }
}
