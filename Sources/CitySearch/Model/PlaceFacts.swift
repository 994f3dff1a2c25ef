/// Facts about known places that are not in a corpus row: how prominent each is, and the other
/// names people type for it (MatchSpec §5.4 and §8). They come from `Corpus/prominence.tsv` and
/// `Corpus/aliases.tsv` and are keyed by id *and* name, so a user's corpus that reuses an id
/// for another place gets none of them.
public struct PlaceFacts: Sendable {
  /// One known place's facts.
  public struct Entry: Sendable, Hashable {
    /// The name the facts belong to; a corpus place with the same id but another name gets none.
    public var name: String
    /// The prominence value (Corpus/README.md, "Prominence"); 0 when unknown.
    public var prominence: UInt64
    /// Other names, as written in `aliases.tsv` (`沪`, `peking`, `inner mongolia`).
    public var aliases: [String]

    /// The facts of the place named `name`.
    public init(name: String, prominence: UInt64 = 0, aliases: [String] = []) {
      self.name = name
      self.prominence = prominence
      self.aliases = aliases
    }
  }

  /// The facts by place id.
  public let entries: [PlaceID: Entry]

  /// Facts from `entries`.
  public init(entries: [PlaceID: Entry]) { self.entries = entries }

  /// No facts: every place ranks by level, length and id alone, and has no aliases.
  public static let empty = PlaceFacts(entries: [:])

  /// The facts of the place `id` named `name`, if known.
  public func entry(id: PlaceID, name: String) -> Entry? {
    guard let entry = entries[id], entry.name == name else { return nil }
    return entry
  }
}
