import CitySearch
import CitySearchBackends
import CitySearchCorpus
import CitySearchTestSupport
import Foundation
import Testing

/// The README's library example, compiled and run here, and checked to be the one printed in
/// the README (so the README cannot drift from an API that no longer compiles).
@Suite(.timed) struct ReadmeExampleTests {
  /// The example, exactly as in the README between its imports and the end of its code block.
  func example() throws -> [String] {
    var printed: [String] = []
    func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
    // README-BEGIN
    let corpus = try EmbeddedCorpus.cities()  // or CorpusDirectory(path: "Corpus").load(.towns)
    let backend = SwiftBackends.fastest(corpus: corpus)  // the trie (SwiftBackends.Fastest)
    let result = backend.search("bj", mode: .syllable, limit: 20)
    print("\(result.total) places match")
    for hit in result.hits {
      let name = Array(corpus.name(at: hit.index))
      print(corpus.pathNames(to: hit.index).joined(separator: " › "), String(name[hit.match.start..<hit.match.end]))
    }

    var session = backend.makeSession(mode: .syllable, limit: 20)  // one keystroke at a time
    for text in ["b", "be", "bei", "beij"] { print(text, session.update(text).total) }
    // README-END
    return printed
  }

  @Test func theExampleRunsAndFindsBeijing() throws {
    let printed = try example()
    #expect(printed.first?.hasSuffix("places match") == true)
    #expect(printed.contains("北京市 北京"))  // the place's path, then the text that matched
    #expect(printed.suffix(4).map { $0.split(separator: " ")[0] } == ["b", "be", "bei", "beij"])
  }

  @Test func theReadmePrintsThisExample() throws {
    let here = try String(contentsOfFile: #filePath, encoding: .utf8)
    let begin = try #require(here.range(of: "// README-BEGIN\n"))
    let end = try #require(here.range(of: "    // README-END"))
    let code = here[begin.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : String($0) }.joined(separator: "\n")
    let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let imports = "import CitySearch\nimport CitySearchBackends\nimport CitySearchCorpus\n\n"
    #expect(readme.contains("```swift\n" + imports + code + "```\n"), "README's example differs from \(#fileID)")
  }
}
