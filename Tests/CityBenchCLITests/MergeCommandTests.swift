import CitySearchTestSupport
import Foundation
import Testing

/// `conform --shard` and `bench --shard` with `citybench merge`, end to end.
@Suite(.timed) struct MergeCommandTests {
  func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("citybench-merge-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// A result file as a JSON object without what a merge legitimately changes: the seconds
  /// spent and the count of merged shards.
  func comparable(_ url: URL) throws -> NSDictionary {
    var object = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    object["mergedShards"] = nil
    object["checks"] = (object["checks"] as? [[String: Any]])?.map { check in
      var check = check
      check["seconds"] = 0
      return check
    }
    return object as NSDictionary
  }

  /// Three shards of a `cities` run with divergences (raw ICU, nothing listed as expected),
  /// merged, give exactly the unsharded run's result and verdict.
  @Test func conformShardsMergeIntoTheUnshardedRun() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let empty = dir.appendingPathComponent("empty.tsv")
    try "backend\tid\tname\tnote\n".write(to: empty, atomically: true, encoding: .utf8)
    let common = [
      "conform", "--corpus", "cities", "--every", "400", "--backends", "inverted-index,icu-cached", "--icu-raw",
      "--mode", "syllable", "--expected", empty.path,
    ]
    let file = { (name: String) in dir.appendingPathComponent(name) }
    let whole = try CLI.run(common + ["--result", file("whole.json").path])
    #expect(whole.status == 1, "\(whole.stderr)")
    var parts: [String] = []
    for k in 1...3 {
      let part = try CLI.run(common + ["--shard", "\(k)/3", "--result", file("part\(k).json").path])
      #expect(part.status == 1, "\(part.stderr)")
      #expect(part.stdout.contains("; shard \(k)/3\n"))
      parts.append(file("part\(k).json").path)
    }
    let merged = try CLI.run(
      ["merge"] + parts + ["--result", file("merged.json").path, "--junit", file("junit.xml").path])
    #expect(merged.status == 1, "\(merged.stderr)")
    #expect(try comparable(file("merged.json")) == comparable(file("whole.json")))
    #expect(merged.stdout.contains("icu-cached-raw:\n  syllable 713 queries"))
    #expect(
      merged.stdout.contains("UNEXPECTED divergences\n  FIRST DIVERGENCE: backend icu-cached --options icu-raw=true"))
    #expect(merged.stdout.hasSuffix("conform: FAILED (3 shards merged)\n"))
    let junit = try String(contentsOf: file("junit.xml"), encoding: .utf8)
    #expect(junit.contains("tests=\"3\" failures=\"1\""))

    let missing = try CLI.run(["merge", parts[0], parts[2]])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("shard 2/3 missing"))
    let twice = try CLI.run(["merge", parts[0], parts[1], parts[1], parts[2]])
    #expect(twice.stderr.contains("are both shard 2/3"))
    let wholeRun = try CLI.run(["merge", file("whole.json").path])
    #expect(wholeRun.stderr.contains("whole.json is a whole run, not a shard"))
    let other = try CLI.run(
      common.map { $0 == "400" ? "500" : $0 } + ["--shard", "2/3", "--result", file("other.json").path])
    #expect(other.status == 1)
    let mixed = try CLI.run(["merge", parts[0], file("other.json").path, parts[2]])
    #expect(mixed.stderr.contains("other.json is not a shard of the same run as \(parts[0]): every: 500 ≠ 400"))
    let fuzzed = try CLI.run(["conform", "--fuzz", "10", "--shard", "1/2"])
    #expect(fuzzed.status == 64)
  }

  /// Two bench shards time the reference and half the backends each; merged, every backend
  /// has its shard's results and the gate refuses a shard that is not merged.
  @Test func benchShardsMergeIntoOneRun() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let workload = dir.appendingPathComponent("tiny.tsv")
    try BenchCommandTests.workload.write(to: workload, atomically: true, encoding: .utf8)
    let common = [
      "bench", "--workload", workload.path, "--backends", "inverted-index,icu-cached,sqlite-fts5", "--rounds", "2",
      "--warm-up", "0", "--relevance", "off", "--format", "json",
    ]
    var parts: [String] = []
    var timed: [[String]] = []
    for k in 1...2 {
      let out = dir.appendingPathComponent("s\(k)")
      let r = try CLI.run(common + ["--shard", "\(k)/2", "--out", out.path])
      #expect(r.status == 0, "\(r.stderr)")
      parts.append(out.appendingPathComponent("results.json").path)
      let object = try #require(
        JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: parts.last!))) as? [String: Any])
      timed.append(((object["backends"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String })
    }
    #expect(timed == [["linear", "inverted-index", "sqlite-fts5"], ["linear", "icu-cached"]])
    let out = dir.appendingPathComponent("merged")
    let merged = try CLI.run(["merge"] + parts + ["--out", out.path])
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(merged.stdout.contains("merged 2 shards; reports:"))
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("results.json")))
        as? [String: Any])
    let names = ((object["backends"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
    #expect(names == ["linear", "inverted-index", "icu-cached", "sqlite-fts5"])
    let metadata = try #require(object["metadata"] as? [String: Any])
    #expect(metadata["mergedShards"] as? Int == 2 && metadata["shard"] == nil)
    #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("report.html").path))

    let gateShard = try CLI.run(["gate", "--current", parts[0], "--baseline", parts[1], "--out", dir.path + "/g"])
    #expect(gateShard.status == 1)
    #expect(gateShard.stderr.contains("is shard 1/2 of a run: merge its shards first"))
    let gateSharded = try CLI.run(["gate", "--shard", "1/2"])
    #expect(gateSharded.status == 64)
    let single = try CLI.run(["merge", parts[1]])
    #expect(single.stderr.contains("shard 1/2 missing"))
  }
}
