import CitySearch
import Foundation

/// The golden conformance file: hand-checked queries with their expected totals and ordered ids.
///
/// Columns: `section` (of docs/MatchSpec.md), `corpus` (`cities` or a fixture file name),
/// `mode`, `scope` (`-` for every place, else `;`-separated conditions: `cities`, `level=2,3`,
/// `under=PLACE`, as `PlaceScope.Request` reads them, and `two-level` for a search that reads
/// two-level queries, §9.2), `fuzzy` (`-` for none, else the fuzzy rules
/// as `FuzzyRules` reads them), `keyboard` (`-` for full pinyin, else the name of the keyboard the
/// query is typed on, §2.10), `query` (as typed), `total`, `ids` (the first ten, comma-separated,
/// in rank order), `note`.
/// A query may be written `<empty>` or `<repeat N TEXT>`.
public struct GoldenCase: Sendable, CustomStringConvertible {
  public var section: String
  public var corpus: String
  public var mode: MatchMode
  /// The scope as written: `-` for every place.
  public var scope: String
  /// The fuzzy rules as written: `-` for none.
  public var fuzzy: String
  /// The keyboard the query is typed on: `-` for full pinyin.
  public var keyboard: String
  /// The text searched: the query as typed, read through its keyboard.
  public var query: String
  public var total: Int?
  public var ids: [PlaceID]?
  public var note: String
  /// The row as written, kept for re-recording.
  public var rawQuery: String

  public static let header = "section\tcorpus\tmode\tscope\tfuzzy\tkeyboard\tquery\ttotal\tids\tnote"
  public static let limit = 10
  /// The second line names the contract version the file was recorded for.
  public static let versionPrefix = "# match contract "

  /// The contract version the file at `path` was recorded for (`2.0`).
  public static func contractVersion(_ path: String) throws -> String? {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return text.split(separator: "\n").dropFirst().first { $0.hasPrefix(versionPrefix) }
      .map { String($0.dropFirst(versionPrefix.count)) }
  }

  public var description: String {
    "§\(section) \(mode) \(scope == "-" ? "" : "[\(scope)] ")\(fuzzy == "-" ? "" : "fuzzy \(fuzzy) ")\(keyboard == "-" ? "" : "on \(keyboard) ")'\(rawQuery)' (\(note))"
  }

  /// The row's scope conditions, `two-level` left out.
  var scopeConditions: String {
    let terms = scope.split(separator: ";").filter { $0 != Self.twoLevelTerm }
    return terms.isEmpty ? "-" : terms.joined(separator: ";")
  }

  /// The scope column's term for a search that reads two-level queries (MatchSpec §9.2).
  public static let twoLevelTerm = "two-level"

  /// Whether the row's search reads two-level queries (MatchSpec §9.2).
  public var twoLevel: Bool { scope.split(separator: ";").contains { $0 == Self.twoLevelTerm } }

  /// The row's scope resolved for `corpus` (``PlaceScope/Request/init(parsing:)``).
  public func placeScope(in corpus: Corpus) -> PlaceScope {
    try! PlaceScope.Request(parsing: scopeConditions).resolve(in: corpus)
  }

  /// The row's query answered by `backend` as the row asks: its mode, scope, fuzzy rules, and
  /// two-level queries read (``TwoLevelSearch``) when the scope column says `two-level`.
  public func answer(with backend: any SearchBackend, limit: Int = GoldenCase.limit) -> SearchResult {
    func search<B: SearchBackend>(_ backend: B) -> SearchResult {
      let scope = placeScope(in: backend.corpus)
      guard twoLevel else {
        return backend.search(query, mode: mode, limit: limit, scope: scope, fuzzy: fuzzyRules)
      }
      return TwoLevelSearch(backend: backend).search(query, mode: mode, limit: limit, scope: scope, fuzzy: fuzzyRules)
    }
    return search(backend)
  }

  /// The row's fuzzy rules (``FuzzyRules/init(parsing:)``).
  public var fuzzyRules: FuzzyRules { try! FuzzyRules(parsing: fuzzy) }

  public static func expand(_ raw: String) -> String {
    if raw == "<empty>" { return "" }
    if raw.hasPrefix("<repeat "), raw.hasSuffix(">") {
      let parts = raw.dropFirst(8).dropLast().split(separator: " ", maxSplits: 1)
      return String(repeating: String(parts[1]), count: Int(parts[0])!)
    }
    return raw
  }

  /// The cases of the file at `path`; a row typed on a keyboard is read through the one of
  /// `keyboards` it names (a name not there stops the run, naming the line).
  public static func load(_ path: String, keyboards: [Keyboard] = []) throws -> [GoldenCase] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var cases: [GoldenCase] = []
    for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if offset == 0 {
        precondition(line == header, "\(path): bad header")
        continue
      }
      if line.isEmpty || line.hasPrefix("#") { continue }
      let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      precondition(f.count == 10, "\(path):\(offset + 1): expected 10 fields")
      var query = expand(f[6])
      if f[5] != "-" {
        let keyboard = keyboards.first { $0.name == f[5] }
        precondition(keyboard != nil, "\(path):\(offset + 1): no keyboard '\(f[5])' given")
        query = keyboard!.read(query)
      }
      cases.append(
        GoldenCase(
          section: f[0], corpus: f[1], mode: MatchMode(rawValue: f[2])!, scope: f[3], fuzzy: f[4], keyboard: f[5],
          query: query, total: Int(f[7]),
          ids: f[8] == "?" ? nil : f[8].split(separator: ",").compactMap { PlaceID($0) },
          note: f[9], rawQuery: f[6]))
    }
    return cases
  }

  public var line: String {
    let idText = ids.map { $0.map(String.init).joined(separator: ",") } ?? "?"
    return [
      section, corpus, mode.rawValue, scope, fuzzy, keyboard, rawQuery, total.map(String.init) ?? "?", idText, note,
    ].joined(
      separator: "\t")
  }
}
