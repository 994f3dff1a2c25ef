import CitySearch
import Foundation

/// How `search` prints a result.
enum OutputFormat: String, CaseIterable {
  case text, tsv, json
}

/// Renders a ``SearchResult`` as text, TSV or the stable JSON object.
struct ResultFormatter {
  let corpus: Corpus
  let backendName: String

  func render(_ result: SearchResult, query: String, format: OutputFormat) throws -> String {
    switch format {
    case .text: return text(result, query: query)
    case .tsv: return tsv(result)
    case .json: return try json(result, query: query)
    }
  }

  /// `{"backend", "mode", "nanoseconds"?, "normalized", "query", "results": [{"id",
  /// "matchClass", "name", "path", "range", "rank", "readingClass", "spellingClass"}],
  /// "total"}` on one line, keys sorted (``SearchOutput``).
  func json(_ result: SearchResult, query: String, nanoseconds: UInt64? = nil) throws -> String {
    let output = SearchOutput(result, query: query, backend: backendName, corpus: corpus, nanoseconds: nanoseconds)
    return String(decoding: try SearchOutput.encoder.encode(output), as: UTF8.self)
  }

  func tsv(_ result: SearchResult) -> String {
    var lines = ["rank\tid\tname\tpath\tstart\tend\tmatchClass\treadingClass\tspellingClass"]
    for (rank, hit) in result.hits.enumerated() {
      lines.append(
        [
          String(rank + 1), String(hit.id), corpus.name(at: hit.index),
          corpus.pathNames(to: hit.index).joined(separator: " › "), String(hit.match.start),
          String(hit.match.end), String(hit.match.matchClass), String(hit.match.readingClass),
          String(hit.match.spellingClass),
        ].joined(separator: "\t"))
    }
    return lines.joined(separator: "\n")
  }

  func text(_ result: SearchResult, query: String) -> String {
    var lines: [String] = []
    let width = String(result.hits.count).count
    for (rank, hit) in result.hits.enumerated() {
      let name = corpus.name(at: hit.index)
      let scalars = Array(name.unicodeScalars)
      var marked = String.UnicodeScalarView()
      for (i, s) in scalars.enumerated() {
        if i == hit.match.start { marked.append("[") }
        marked.append(s)
        if i + 1 == hit.match.end { marked.append("]") }
      }
      let number = String(rank + 1)
      let pinyin = corpus.pinyin(at: hit.index).joined(separator: " ")
      let alternate = hit.match.readingClass == 1 ? "  (alternate reading)" : ""
      let via = hit.via.map { "  (via \(corpus.name(at: $0)))" } ?? ""
      lines.append(
        String(repeating: " ", count: width - number.count) + number + ". " + String(marked) + "  " + pinyin
          + "  " + corpus.pathNames(to: hit.index).joined(separator: " › ") + "  #\(hit.id)" + alternate + via)
    }
    let noun = result.total == 1 ? "result" : "results"
    var summary = "\(result.total) \(noun)"
    if result.total > result.hits.count { summary += " (showing \(result.hits.count))" }
    if result.normalized.isEmpty { summary += " — the query '\(query)' is empty after normalization" }
    lines.append(summary)
    return lines.joined(separator: "\n")
  }
}
