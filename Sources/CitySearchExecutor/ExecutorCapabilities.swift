import CitySearch

/// What an implementation behind an ``Executor`` offers, declared in its handshake: a replay
/// compares only what both sides have.
public struct ExecutorCapabilities: Sendable, Hashable, Codable {
  /// Its hits come in rank order (otherwise they are a set).
  public var ranked: Bool
  /// It reports each hit's match range and classes.
  public var matchRanges: Bool
  /// Its total is the exact number of matches.
  public var exactTotals: Bool
  /// It keeps state between the keystrokes of a session.
  public var sessions: Bool
  /// The match modes it answers (`MatchMode.rawValue`).
  public var modes: [String]
  /// The fuzzy rules it reads queries with when asked (`FuzzyRules.named`' names, MatchSpec
  /// §3.5); absent or empty for none.
  public var fuzzyRules: [String]?

  /// Capabilities; the defaults are those of the suite's own backends, which have them all.
  public init(
    ranked: Bool = true, matchRanges: Bool = true, exactTotals: Bool = true, sessions: Bool = true,
    modes: [String] = MatchMode.allCases.map(\.rawValue), fuzzyRules: [String]? = FuzzyRules.named.map(\.name)
  ) {
    self.ranked = ranked
    self.matchRanges = matchRanges
    self.exactTotals = exactTotals
    self.sessions = sessions
    self.modes = modes
    self.fuzzyRules = fuzzyRules
  }

  /// The rules of `rules` it does not read, by name; empty when it reads them all.
  public func missingRules(_ rules: FuzzyRules) -> [String] {
    let offered = Set(fuzzyRules ?? [])
    return FuzzyRules.named.filter { rules.contains($0.rule) && !offered.contains($0.name) }.map(\.name)
  }
}
