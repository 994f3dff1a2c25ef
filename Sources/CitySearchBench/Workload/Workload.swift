/// The ways a person types a place's name into the search box; a workload's sessions are
/// split by style in the reports.
public enum InputStyle: String, Sendable, CaseIterable, Codable {
  /// Full pinyin, letter by letter: `b`, `be`, `bei`, `beij`.
  case pinyin
  /// Initials: `b`, `bj`.
  case initials
  /// One syllable in full, the others as initials: `beijs`, `bjings`.
  case mixed
  /// Hanzi committed by an input method one character at a time: `北`, `北京`.
  case hanzi
}

/// Typing sessions to replay: each session is the text of the search box after every
/// keystroke, from the first character to the last (docs/Workloads.md).
///
/// ```swift
/// let workload = try Workload(contentsOf: "Benchmarks/cities.workload.tsv")
/// print(workload.sessions.count, workload.keystrokeCount)
/// ```
public struct Workload: Sendable, Equatable {
  /// One person typing towards one place.
  public struct Session: Sendable, Equatable {
    /// The session's label, unique in the file (`s00001`).
    public var label: String
    /// The id of the place being looked for, when known.
    public var place: String
    /// An ``InputStyle`` raw value, or a user's own style name.
    public var style: String
    /// Whether the session contains a typo and its backspace.
    public var hasTypo: Bool
    /// The text of the search box after each keystroke.
    public var keystrokes: [String]

    /// A session from its parts.
    public init(label: String, place: String, style: String, hasTypo: Bool, keystrokes: [String]) {
      self.label = label
      self.place = place
      self.style = style
      self.hasTypo = hasTypo
      self.keystrokes = keystrokes
    }
  }

  /// `key: value` facts from the file's comment header (tier, seed, how it was generated).
  public var properties: [(key: String, value: String)]
  /// The typing sessions, in the file's order.
  public var sessions: [Session]

  /// A workload of `sessions`, with the header facts `properties`.
  public init(properties: [(key: String, value: String)] = [], sessions: [Session]) {
    self.properties = properties
    self.sessions = sessions
  }

  /// The keystrokes of every session together.
  public var keystrokeCount: Int { sessions.reduce(0) { $0 + $1.keystrokes.count } }

  /// The value of the header property `key`.
  public func property(_ key: String) -> String? { properties.first { $0.key == key }?.value }

  /// The distinct styles, in order of first appearance.
  public var styles: [String] {
    var seen = Set<String>()
    return sessions.map(\.style).filter { seen.insert($0).inserted }
  }

  /// A checksum of the sessions (not of comments or properties): two workloads with the same
  /// checksum replay the same keystrokes in the same order.
  public var checksum: String {
    var hash = FNV1a64()
    for session in sessions {
      for field in [session.label, session.place, session.style, session.hasTypo ? "1" : "0"] { hash.add(field) }
      for text in session.keystrokes { hash.add(text) }
      hash.add("\n")
    }
    return hash.hex
  }

  public static func == (a: Workload, b: Workload) -> Bool {
    a.sessions == b.sessions && a.properties.map(\.key) == b.properties.map(\.key)
      && a.properties.map(\.value) == b.properties.map(\.value)
  }
}

/// FNV-1a, 64 bits: the checksum of corpora and workloads in reports. An identity check, not
/// a cryptographic hash.
public struct FNV1a64: Sendable {
  /// The hash of the bytes added so far.
  public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  /// The hash of no bytes.
  public init() {}

  /// Adds `bytes` to the hash.
  public mutating func add<S: Sequence<UInt8>>(bytes: S) {
    for byte in bytes {
      value ^= UInt64(byte)
      value &*= 0x0000_0100_0000_01B3
    }
  }

  /// Adds `text`'s UTF-8 bytes and a 0 separator, so `("ab", "c")` and `("a", "bc")` differ.
  public mutating func add(_ text: String) {
    add(bytes: text.utf8)
    add(bytes: CollectionOfOne(0))
  }

  /// ``value`` as `fnv1a64:` and 16 hex digits.
  public var hex: String {
    let digits = String(value, radix: 16)
    return "fnv1a64:" + String(repeating: "0", count: 16 - digits.count) + digits
  }
}
