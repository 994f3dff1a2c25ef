/// The administrative level of a place, from province (1) down to village (5).
public enum PlaceLevel: UInt8, Sendable, CaseIterable, Comparable {
  /// A province, autonomous region or municipality (省).
  case province = 1
  /// A prefecture-level unit (地级).
  case prefecture = 2
  /// A county-level unit (县级).
  case county = 3
  /// A township or sub-district (乡级).
  case township = 4
  /// A village or community (村级).
  case village = 5

  public static func < (lhs: PlaceLevel, rhs: PlaceLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
