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
    #expect(other.status == 1 && other.stderr.contains("computed for another corpus"), "\(other.stderr)")
    let notAFile = try CLI.run(["index", "--load", CLI.packageRoot.appendingPathComponent("README.md").path])
    #expect(notAFile.status == 1 && notAFile.stderr.contains("not a file of precomputed answers"))
    let both = try CLI.run(["index", "--out", file, "--load", file])
    #expect(both.status == 64 && both.stderr.contains("give either --out FILE or --load FILE"))
  }

  @Test func anIndexIsBuiltOpenedCheckedAndRefusedWhenDamaged() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("citybench-index-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("cities.trie").path
    let built = try CLI.run(["index", "build", "--backend", "trie", "--out", file])
    #expect(built.status == 0, "\(built.stderr)")
    #expect(built.stdout.hasPrefix("wrote \(file): ") && built.stdout.contains("the trie index of cities"))
    let opened = try CLI.run(["index", "open", file, "--query", "bj", "--check"])
    #expect(opened.status == 0, "\(opened.stderr)")
    #expect(opened.stdout.contains("first answer") && opened.stdout.contains("'bj'"))
    #expect(opened.stdout.contains("as the reference answers"))
    var damaged = try Data(contentsOf: URL(fileURLWithPath: file))
    damaged[damaged.count / 2] ^= 0x20
    try damaged.write(to: URL(fileURLWithPath: file))
    let refused = try CLI.run(["index", "open", file])
    #expect(refused.status == 1 && refused.stderr.contains("checksum does not match"), "\(refused.stderr)")
    try damaged.prefix(1000).write(to: URL(fileURLWithPath: file))
    let cut = try CLI.run(["index", "open", file])
    #expect(cut.status == 1 && cut.stderr.contains("the file is cut: 1,000 of its"), "\(cut.stderr)")
    let linear = try CLI.run(["index", "build", "--backend", "linear", "--out", file])
    #expect(linear.status == 1 && linear.stderr.contains("linear cannot save its index"), "\(linear.stderr)")
    let noFile = try CLI.run(["index", "open"])
    #expect(noFile.status == 64 && noFile.stderr.contains("index open FILE"))
    let unknown = try CLI.run(["index", "make"])
    #expect(unknown.status == 64 && unknown.stderr.contains("unknown action 'make'"))
  }
}
