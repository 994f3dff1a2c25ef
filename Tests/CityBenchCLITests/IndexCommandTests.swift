import CitySearch
import CitySearchTestSupport
import Foundation
import Testing

/// `citybench index`: the answers written, loaded back and checked against the reference, and
/// refused for another corpus.
@Suite(.timed) struct IndexCommandTests {
  @Test func answersAreWrittenLoadedAndCheckedAndRefusedForAnotherCorpus() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("citybench-index-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("cities.answers").path
    let written = try CLI.run(["index", "--out", file])
    #expect(written.status == 0, "\(written.stderr)")
    #expect(
      written.stdout.hasPrefix("wrote \(file): ") && written.stdout.contains("under contract \(MatchContract.version)"))
    let loaded = try CLI.run(["index", "--load", file, "--check", "--backends", "trie,inverted-index,linear"])
    #expect(loaded.status == 0, "\(loaded.stderr)")
    #expect(loaded.stderr.contains("linear keeps no precomputed answers; skipped"))
    for name in ["trie", "inverted-index"] { #expect(loaded.stdout.contains("\(name): ready in ")) }
    #expect(loaded.stdout.components(separatedBy: "as the reference answers").count == 3)
    let other = try CLI.run(["index", "--corpus", "towns", "--load", file])
    #expect(other.status == 1 && other.stderr.contains("answers computed for another corpus"), "\(other.stderr)")
    let notAFile = try CLI.run(["index", "--load", CLI.packageRoot.appendingPathComponent("README.md").path])
    #expect(notAFile.status == 1 && notAFile.stderr.contains("not a file of precomputed answers"))
    let both = try CLI.run(["index", "--out", file, "--load", file])
    #expect(both.status == 64 && both.stderr.contains("give either --out FILE or --load FILE"))
  }
}
