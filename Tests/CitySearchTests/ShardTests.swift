import CitySearch
import CitySearchBackends
import CitySearchConformance
import CitySearchTestSupport
import Foundation
import Testing

@Suite(.timed) struct ShardTests {
  @Test func slicesPartitionAList() throws {
    let items = Array(0..<23)
    for count in [1, 2, 3, 8, 30] {
      let shards = try (1...count).map { try Shard(index: $0, count: count) }
      let slices = shards.map { $0.slice(items) }
      #expect(slices.flatMap { $0 }.sorted() == items)
      #expect(slices.map(\.count).reduce(0, +) == items.count)
      for (shard, slice) in zip(shards, slices) { #expect(slice.allSatisfy(shard.contains)) }
    }
    #expect(try Shard(parsing: "2/3").slice(["a", "b", "c", "d", "e"]) == ["b", "e"])
  }

  @Test(arguments: ["0/3", "4/3", "1/0", "a/b", "1/2/3", "2", "", "1/10001"])
  func malformedShardsAreRefused(text: String) {
    #expect(throws: Shard.ParseError.self) { try Shard(parsing: text) }
  }

  /// The result of every shard of a check, merged, is the unsharded check's: the counts, the
  /// first divergences in order and the places involved.
  @Test func mergedShardsEqualTheWholeCheck() throws {
    let run = DifferentialRun(reference: Fixtures.citiesReference)
    let broken = DropsLastHitBackend(corpus: Fixtures.cities, fewest: 1)
    let texts = ConformanceTests.queries + (0..<40).map { "b" + String(repeating: "e", count: $0 % 3) + "\($0)" }
    let settings = ConformanceResult.Settings(
      tiers: [.init(name: "cities", places: Fixtures.cities.count, checksum: "c")], modes: ["syllable"],
      backends: ["dropping"], sample: 1, seed: 1, every: 1, slowSample: nil, expectedFailures: "none",
      gitCommit: "g", buildConfiguration: "debug")
    func result(_ shard: Shard) -> ConformanceResult {
      let outcome = run.check(
        broken, label: "dropping", mode: .syllable, texts: texts, targets: ["bj", "sh"], shard: shard,
        isExpected: { $0.query.hasPrefix("x") })
      var result = ConformanceResult(settings: settings, shard: shard.isWhole ? nil : shard)
      result.checks = [.init(tier: "cities", outcome: outcome, seconds: 0) { "at \($0.position): \($0.query)" }]
      return result
    }
    let whole = result(.whole)
    #expect(whole.checks[0].unexpectedCount > 3 && whole.checks[0].expectedCount > 0)
    let parts = try (1...3).map { ("part \($0)", result(try Shard(index: $0, count: 3))) }
    var merged = try ConformanceResult.merged(parts)
    #expect(merged.mergedShards == 3)
    merged.mergedShards = 1
    #expect(merged == whole)

    // Refused: a part missing, a part twice, another run, a whole run.
    #expect(throws: ConformanceResult.FileError.self) { try ConformanceResult.merged(Array(parts.prefix(2))) }
    #expect(throws: ConformanceResult.FileError.self) { try ConformanceResult.merged(parts + [parts[0]]) }
    var other = parts[2].1
    other.settings.seed = 2
    let error = #expect(throws: ConformanceResult.FileError.self) {
      try ConformanceResult.merged(Array(parts.prefix(2)) + [("other", other)])
    }
    #expect(error?.description == "other is not a shard of the same run as part 1: seed: 2 ≠ 1")
    #expect(throws: ConformanceResult.FileError.self) { try ConformanceResult.merged(parts + [("whole", whole)]) }
  }

  @Test func resultFilesRoundTripAndNameWhatTheyAreNot() throws {
    let settings = ConformanceResult.Settings(
      tiers: [], modes: ["seed"], backends: [], sample: 1, seed: 1, every: 1, slowSample: 4, expectedFailures: "none",
      gitCommit: "g", buildConfiguration: "release")
    let result = ConformanceResult(settings: settings, shard: try Shard(parsing: "1/2"))
    #expect(try ConformanceResult(jsonData: result.jsonData(), name: "r.json") == result)
    let bench = #expect(throws: ConformanceResult.FileError.self) {
      try ConformanceResult(jsonData: Data(#"{"schemaVersion": 1}"#.utf8), name: "results.json")
    }
    #expect(bench?.description == "results.json: not a conformance result (kind absent)")
    let badShard = try #require(String(data: result.jsonData(), encoding: .utf8))
      .replacingOccurrences(of: "\"index\" : 1", with: "\"index\" : 7")
    #expect(throws: ConformanceResult.FileError.self) {
      try ConformanceResult(jsonData: Data(badShard.utf8), name: "bad.json")
    }
  }
}
