extension PlaceScope {
  /// A scope's conditions before they are resolved for a corpus, as a command line or the
  /// golden file states them; one request can be resolved for every tier.
  ///
  /// ```swift
  /// let request = try PlaceScope.Request(parsing: "cities;under=四川省")
  /// let scope = try request.resolve(in: corpus)  // the cities of 四川
  /// ```
  public struct Request: Sendable, Hashable, CustomStringConvertible {
    /// Only the places a city picker lists.
    public var citiesOnly: Bool
    /// Only places of these levels; `nil` for every level.
    public var levels: Set<PlaceLevel>?
    /// Only the places under the place this names: an id, a name or short name, or a
    /// `/`-separated path of names (``Corpus/lookup(_:)``); `nil` for all.
    public var under: String?

    /// A request of the conditions given; with none, every place.
    public init(citiesOnly: Bool = false, levels: Set<PlaceLevel>? = nil, under: String? = nil) {
      self.citiesOnly = citiesOnly
      self.levels = levels
      self.under = under
    }

    /// Whether the request sets no condition.
    public var isEverything: Bool { !citiesOnly && levels == nil && under == nil }

    /// `;`-separated conditions: `cities`, `level=2,3` (or a range `level=2-3`), `under=PLACE`;
    /// `-` or nothing for every place.
    ///
    /// - Throws: ``ScopeError/badCondition(_:)`` naming the first condition it cannot read.
    public init(parsing text: String) throws(ScopeError) {
      self.init()
      guard text != "-" else { return }
      for term in text.split(separator: ";") {
        let parts = term.split(separator: "=", maxSplits: 1).map(String.init)
        switch (parts[0], parts.count) {
        case ("cities", 1): citiesOnly = true
        case ("level", 2): levels = try Self.levels(parsing: parts[1])
        case ("under", 2) where !parts[1].isEmpty: under = parts[1]
        default: throw .badCondition(String(term))
        }
      }
    }

    /// Levels written `2`, `2,3` or `2-4` (1 province … 5 village).
    ///
    /// - Throws: ``ScopeError/badLevels(_:)`` when a part is not a level or a range of them.
    public static func levels(parsing text: String) throws(ScopeError) -> Set<PlaceLevel> {
      var levels: Set<PlaceLevel> = []
      for part in text.split(separator: ",", omittingEmptySubsequences: false) {
        let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let numbers = bounds.compactMap { UInt8($0) }.compactMap(PlaceLevel.init(rawValue:))
        guard numbers.count == bounds.count, let low = numbers.first, let high = numbers.last, low <= high else {
          throw .badLevels(text)
        }
        levels.formUnion(PlaceLevel.allCases.filter { $0 >= low && $0 <= high })
      }
      return levels
    }

    /// The scope of these conditions over `corpus`.
    ///
    /// - Throws: ``ScopeError/noPlace(_:)`` or ``ScopeError/ambiguousPlace(_:candidates:)``
    ///   when ``under`` names no place or several.
    public func resolve(in corpus: Corpus) throws(ScopeError) -> PlaceScope {
      var ancestor: Int?
      if let under {
        let found = corpus.lookup(under)
        guard let first = found.first else { throw .noPlace(under) }
        guard found.count == 1 else {
          throw .ambiguousPlace(
            under, candidates: found.map { "\(corpus.id(at: $0)) \(corpus.pathNames(to: $0).joined(separator: "/"))" })
        }
        ancestor = first
      }
      return PlaceScope(corpus: corpus, citiesOnly: citiesOnly, levels: levels, under: ancestor)
    }

    /// The conditions as ``init(parsing:)`` reads them (`-` for every place).
    public var description: String {
      var terms: [String] = []
      if citiesOnly { terms.append("cities") }
      if let levels { terms.append("level=" + levels.sorted().map { String($0.rawValue) }.joined(separator: ",")) }
      if let under { terms.append("under=" + under) }
      return terms.isEmpty ? "-" : terms.joined(separator: ";")
    }
  }
}

/// Why a scope could not be read or resolved.
public enum ScopeError: Error, Equatable, CustomStringConvertible {
  /// A condition that is not `cities`, `level=…` or `under=…`.
  case badCondition(String)
  /// Levels that are not 1–5, lists or ranges of them.
  case badLevels(String)
  /// No place has this id, name or path.
  case noPlace(String)
  /// Several places have this name; the candidates as `ID path`.
  case ambiguousPlace(String, candidates: [String])

  public var description: String {
    switch self {
    case .badCondition(let term):
      return "scope condition '\(term)' is not one of cities, level=N, under=PLACE"
    case .badLevels(let text):
      return "level '\(text)' is not a level from 1 (province) to 5 (village), a list (2,3) or a range (2-3)"
    case .noPlace(let name):
      return "no place is named '\(name)' (give an id, a name, or a path such as 北京市/朝阳区)"
    case .ambiguousPlace(let name, let candidates):
      let shown = candidates.prefix(5).joined(separator: "; ")
      let more = candidates.count > 5 ? "; and \(candidates.count - 5) more" : ""
      return "'\(name)' names \(candidates.count) places (\(shown)\(more)): give an id or a path"
    }
  }
}
