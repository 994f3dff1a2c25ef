import CitySearchTestSupport
import Foundation
import Testing

/// `citybench allocations` and `citybench backends --details`, as a user runs them.
@Suite(.timed) struct AllocationsCommandTests {
  /// With Swift's hashing seeded the same (sets and dictionaries then grow at the same points),
  /// two processes count the same for the backends the gate counts (`trie`, `inverted-index`).
  /// (The reference, counted after `trie` in one process, once made 190,087,596 allocation calls
  /// against 190,087,600 in a debug build with the whole suite running beside it; its count is
  /// not gated.)
  @Test func countsEachBackendsKeystrokesTheSameEveryRun() throws {
    let arguments = ["allocations", "--backends", "trie,inverted-index", "--format", "tsv"]
    let deterministic = ["SWIFT_DETERMINISTIC_HASHING": "1"]
    let first = try CLI.run(arguments, environment: deterministic)
    #expect(first.status == 0, "\(first.stderr)")
    let lines = first.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
    #expect(lines.first == ["backend", "p50", "p90", "p99", "max", "mean", "total"])
    #expect(lines.dropFirst().map { $0.first } == ["trie", "inverted-index"])
    for row in lines.dropFirst() {
      let figures = row.dropFirst().compactMap(Double.init)
      #expect(figures.count == 6 && figures.allSatisfy { $0 >= 0 }, "\(row)")
      #expect(figures[5] > 0, "a keystroke's hits take memory: \(row)")
    }
    let second = try CLI.run(arguments, environment: deterministic)
    #expect(second.stdout == first.stdout, "first run:\n\(first.stdout)second run:\n\(second.stdout)")
  }

  @Test func aWrongReplayIsAUsageError() throws {
    let r = try CLI.run(["allocations", "--replay", "sometimes"])
    #expect(r.status == 64)
    #expect(r.stderr.contains("option '--replay' expects sessions|stateless, got 'sometimes'"))
  }

  @Test func backendsListTheirDescriptors() throws {
    let r = try CLI.run(["backends", "--details"])
    #expect(r.status == 0)
    #expect(r.stdout.contains("trie\t"))
    #expect(
      r.stdout.contains(
        "  option short-answers=true|false (default true): precompute the broadest one- and two-letter answers\n"))
    #expect(r.stdout.contains("  options: none of its own\n"))
    #expect(r.stdout.contains("  variant: -raw (icu-raw=true): plain ICU Han-Latin, without the override rules\n"))
    #expect(r.stdout.contains("  conformance sample: cities 300, towns 30, villages 4 queries\n"))
  }
}
