/// The administrative level of a place, from province (1) down to village (5).
public enum PlaceLevel: UInt8, Sendable, CaseIterable, Comparable {
  case province = 1
  case prefecture = 2
  case county = 3
  case township = 4
  case village = 5

  public static func < (lhs: PlaceLevel, rhs: PlaceLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
