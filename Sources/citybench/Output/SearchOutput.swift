import CitySearch
import CitySearchExecutor
import Foundation

/// The JSON object `search --format json` and `search --queries` print for one query: the
/// query as typed and normalized, the mode, the backend, the total, and each hit with its
/// rank, place, administrative path and match (the classes of the executor protocol's
/// `WireMatch`). Encoded with sorted keys, so that a line is the same bytes every run.
struct SearchOutput: Codable, Equatable {
  /// One hit.
  struct Hit: Codable, Equatable {
    var rank: Int
    var id: PlaceID
    var name: String
    /// The names from the province down to the place.
    var path: [String]
    /// The matched units, `[start, end)`.
    var range: [Int]
    var matchClass: Int
    var readingClass: Int
    var spellingClass: Int
    /// 1 for a match through a fuzzy rule (MatchSpec §3.5); absent for 0.
    var fuzzyClass: Int?
    /// For a two-level match (MatchSpec §9.2), the id of the place the query named first;
    /// absent otherwise.
    var via: PlaceID?
  }

  var query: String
  var normalized: String
  var mode: String
  var backend: String
  var total: Int
  /// The search's own time, with `--timing`.
  var nanoseconds: UInt64?
  var results: [Hit]

  /// The output of `result`, the answer of `backend` to `query` over `corpus`.
  init(_ result: SearchResult, query: String, backend: String, corpus: Corpus, nanoseconds: UInt64? = nil) {
    self.query = query
    normalized = result.normalized.text
    mode = result.mode.rawValue
    self.backend = backend
    total = result.total
    self.nanoseconds = nanoseconds
    results = result.hits.enumerated().map { rank, hit in
      let match = WireMatch(hit.match)
      return Hit(
        rank: rank + 1, id: hit.id, name: corpus.name(at: hit.index), path: corpus.pathNames(to: hit.index),
        range: [match.start, match.end], matchClass: match.matchClass, readingClass: match.readingClass,
        spellingClass: match.spellingClass, fuzzyClass: match.fuzzyClass,
        via: hit.via.map { corpus.id(at: $0) })
    }
  }

  /// One line, keys sorted, no escaped slashes.
  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()
}
