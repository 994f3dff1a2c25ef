/// A stable integer identifier of a place (the official division code where there is one).
public typealias PlaceID = Int64

/// One place of a corpus, as a value: convenient for output and tests, not for hot loops
/// (which read the corpus's flat arrays through ``Corpus``'s accessors).
public struct Place: Sendable, Hashable {
  /// The place's id (the division code for the shipped tiers).
  public var id: PlaceID
  /// The parent's id, or `nil` for a top-level place.
  public var parentID: PlaceID?
  /// The administrative level.
  public var level: PlaceLevel
  /// The name in simplified Hanzi.
  public var name: String
  /// One toneless syllable per unit of the name (`ü` written `v`); Latin units stand for themselves.
  public var pinyin: [String]
  /// The name less its administrative suffix (MatchSpec §5.1); equal to `name` when there is none.
  public var shortName: String
  /// Whether the place belongs to the hot section of a city picker (Corpus/README.md).
  public var isHot: Bool

  /// A place with these fields.
  public init(
    id: PlaceID, parentID: PlaceID?, level: PlaceLevel, name: String, pinyin: [String], shortName: String,
    isHot: Bool
  ) {
    self.id = id
    self.parentID = parentID
    self.level = level
    self.name = name
    self.pinyin = pinyin
    self.shortName = shortName
    self.isHot = isHot
  }
}
