import CitySearch
import CitySearchExecutor
import Foundation

/// Hand-checked relevance cases (`Benchmarks/relevance-cases.tsv`, docs/Relevance.md): a query
/// and the place most people mean by it, or the set of acceptable first answers where it is
/// honestly ambiguous, each with a one-line reason. A case the current ranking is known to
/// get wrong says why in its `known` column; it must then fail, so that a change of the ranking
/// shows either way (as `Conformance/expected-failures.tsv` does for backends).
public struct RelevanceCase: Sendable, Hashable {
  /// The text typed.
  public var query: String
  /// The acceptable first answers.
  public var expected: [PlaceID]
  /// Why those answers: one line a reviewer can check.
  public var reason: String
  /// Why the current ranking gets this case wrong, when it is a known failure.
  public var knownFailure: String?
  /// The line in the file.
  public var line: Int

  /// The file's header line.
  public static let header = "query\texpected\tnames\treason\tknown"

  /// Parses the file, checking that each case's names are those of its ids in `corpus`, so a
  /// mistyped id cannot pass unnoticed.
  ///
  /// - Throws: `CorpusError` naming the file, the line and the problem.
  public static func load(_ path: String, corpus: Corpus) throws -> [RelevanceCase] {
    guard
      let text = String(data: try CorpusLoader.readFile(path, limit: CorpusLoader.maximumFileBytes), encoding: .utf8)
    else { throw CorpusError.invalidUTF8(RecordLocation(file: path, line: 0)) }
    let lines = try TextLines.lines(of: text, file: path)
    guard lines.first.map(String.init) == header else {
      throw CorpusError.badHeader(file: path, expected: header, found: lines.first.map(String.init) ?? "")
    }
    var cases: [RelevanceCase] = []
    for (offset, raw) in lines.enumerated().dropFirst() where !raw.isEmpty {
      let at = RecordLocation(file: path, line: offset + 1)
      let fields = raw.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count == 5 else {
        throw CorpusError.badValue(
          at, column: "line", value: String(raw.prefix(40)), reason: "expected 5 tab-separated columns")
      }
      let ids = fields[1].split(separator: ",").compactMap { PlaceID($0) }
      let names = fields[2].split(separator: ",").map(String.init)
      guard !ids.isEmpty, ids.count == names.count else {
        throw CorpusError.badValue(at, column: "expected", value: fields[1], reason: "expected ids, one per name")
      }
      for (id, name) in zip(ids, names) {
        guard let index = corpus.index(of: id), corpus.name(at: index) == name else {
          throw CorpusError.badValue(at, column: "names", value: name, reason: "is not the name of place \(id)")
        }
      }
      guard !fields[3].isEmpty else { throw CorpusError.badValue(at, column: "reason", value: "", reason: "empty") }
      cases.append(
        RelevanceCase(
          query: fields[0], expected: ids, reason: fields[3], knownFailure: fields[4].isEmpty ? nil : fields[4],
          line: offset + 1))
    }
    return cases
  }

  /// The reference's first answer to the query, if any.
  public func firstAnswer(of reference: LinearScanBackend) -> PlaceID? {
    reference.search(query, mode: .syllable, limit: 1).hits.first?.id
  }

  /// Whether the reference's first answer is acceptable.
  public func passes(with reference: LinearScanBackend) -> Bool {
    firstAnswer(of: reference).map(expected.contains) == true
  }

  /// The first answer of `executor` to the query, in a session of its own, if any.
  ///
  /// - Throws: the executor's error, when it fails to answer.
  public func firstAnswer(through executor: any Executor) throws -> PlaceID? {
    try executor.answerAlone(query).result.hits.first?.id
  }
}
