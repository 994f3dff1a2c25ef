/// The interned reading tokens of a corpus.
///
/// Every unit (character) of a place name has one token. A Hanzi unit's token is its toneless
/// pinyin syllable (`zhang`, `lv`); a Latin letter or digit is its own token (`a`, `7`); any other
/// unit (such as `、` or `·`) has an *opaque* token that no query piece matches. Tokens are small
/// integers so that keys are arrays of `UInt16`.
public struct Syllabary: Sendable {
  /// What a token stands for.
  public enum Kind: UInt8, Sendable {
    /// A pinyin syllable of a Hanzi unit.
    case syllable
    /// A Latin letter or digit standing for itself.
    case literal
    /// A unit with no reading.
    case opaque
  }

  /// The token's spelling, in ASCII for syllables and literals (UTF-8 for opaque units).
  public private(set) var spellings: [[UInt8]] = []
  /// The token's kind.
  public private(set) var kinds: [Kind] = []
  /// Spellings packed into a `UInt64` (every token is at most 8 UTF-8 bytes: a syllable has at
  /// most 6 letters, any other unit is one scalar), so interning hashes one integer.
  private var lookup: [UInt64: UInt16] = [:]

  static func packed(_ spelling: String) -> UInt64? {
    var key: UInt64 = 0
    var count = 0
    for byte in spelling.utf8 {
      guard count < 8 else { return nil }
      key = key << 8 | UInt64(byte)
      count += 1
    }
    return count == 0 ? nil : key
  }

  /// An empty syllabary.
  public init() {}

  /// The number of distinct tokens.
  public var count: Int { spellings.count }

  /// The most distinct tokens a corpus can have.
  public static let capacity = Int(UInt16.max)

  /// Returns the id of `spelling` as a token of `kind`, adding it if it is new; `nil` when
  /// `spelling` is not 1 to 8 UTF-8 bytes or the syllabary is full.
  public mutating func intern(_ spelling: String, kind: Kind) -> UInt16? {
    guard let key = Self.packed(spelling) else { return nil }
    if let id = lookup[key] { return id }
    guard spellings.count < Self.capacity else { return nil }
    let id = UInt16(spellings.count)
    spellings.append(Array(spelling.utf8))
    kinds.append(kind)
    lookup[key] = id
    return id
  }

  /// The id of `spelling`, if it is a token of this corpus.
  public func id(of spelling: String) -> UInt16? { Self.packed(spelling).flatMap { lookup[$0] } }

  /// The token's spelling as a `String`.
  public func spelling(_ id: UInt16) -> String {
    String(decoding: spellings[Int(id)], as: UTF8.self)
  }

  /// Whether `spelling` is a well-formed syllable: one to six ASCII lower-case letters.
  public static func isSyllable(_ spelling: Substring) -> Bool {
    guard (1...6).contains(spelling.utf8.count) else { return false }
    return spelling.utf8.allSatisfy { $0 >= 0x61 && $0 <= 0x7A }
  }
}
