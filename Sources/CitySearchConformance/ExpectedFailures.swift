import CitySearch
import Foundation

/// Divergences that are known and accepted, such as those of `icu --icu-raw` (plain ICU reads
/// some names differently from the reviewed corpus): a TSV of `backend`, `id`, `name`, `note`,
/// one row per place that a backend is expected to answer differently.
///
/// A divergence is expected when every place in its signature (``Divergence/culprits``) is
/// listed for its backend. A listed place that took part in no divergence of a run that
/// exercised it is an unexpected pass.
public struct ExpectedFailures: Sendable {
  /// The file's header line.
  public static let header = "backend\tid\tname\tnote"
  /// backend label → place id → (name, note)
  public private(set) var entries: [String: [PlaceID: (name: String, note: String)]] = [:]

  /// No expected failures: every divergence is unexpected.
  public init() {}

  /// Reads the file at `path`; errors name the line.
  public init(contentsOf path: String) throws {
    guard
      let text = String(data: try CorpusLoader.readFile(path, limit: CorpusLoader.maximumFileBytes), encoding: .utf8)
    else { throw CorpusError.invalidUTF8(RecordLocation(file: path, line: 0)) }
    for (offset, line) in try TextLines.lines(of: text, file: path).enumerated() {
      let location = RecordLocation(file: path, line: offset + 1)
      if offset == 0 {
        guard line == Self.header else {
          throw CorpusError.badHeader(file: path, expected: Self.header, found: String(line))
        }
        continue
      }
      if line.isEmpty || line.hasPrefix("#") { continue }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == 4 else {
        throw CorpusError.badValue(
          location, column: "row", value: String(line), reason: "expected 4 tab-separated fields")
      }
      guard let id = PlaceID(fields[1]) else {
        throw CorpusError.badValue(location, column: "id", value: String(fields[1]), reason: "ids are integers")
      }
      entries[String(fields[0]), default: [:]][id] = (String(fields[2]), String(fields[3]))
    }
  }

  /// Whether `divergence` is explained by listed places of its backend.
  public func isExpected(_ divergence: Divergence) -> Bool {
    guard let listed = entries[divergence.backend], !divergence.culprits.isEmpty else { return false }
    return divergence.culprits.allSatisfy { listed[$0] != nil }
  }

  /// The listed places of `backend` (present in `corpus`) that no divergence in `seen` involved.
  public func unexpectedPasses(backend: String, seen: Set<PlaceID>, corpus: Corpus) -> [PlaceID] {
    (entries[backend] ?? [:]).keys.filter { corpus.index(of: $0) != nil && !seen.contains($0) }.sorted()
  }

  /// The file listing `culprits` (backend → places) with names from `corpus`.
  public static func file(_ culprits: [String: Set<PlaceID>], corpus: Corpus, note: (String, Int) -> String) -> String {
    var lines = [header]
    for backend in culprits.keys.sorted() {
      for id in culprits[backend]!.sorted() {
        guard let index = corpus.index(of: id) else { continue }
        lines.append("\(backend)\t\(id)\t\(corpus.name(at: index))\t\(note(backend, index))")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
