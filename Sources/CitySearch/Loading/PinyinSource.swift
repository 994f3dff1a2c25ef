import Foundation

/// Supplies canonical pinyin for names that a corpus file gives without it.
///
/// The loader asks its sources in order: the reviewed name → pinyin table of the shipped corpus
/// first (``KnownNamesPinyin``), then ICU's transliterator (`CitySearchICU`).
public protocol PinyinSource: Sendable {
  /// One token per unit of `name` (a toneless syllable for each Hanzi, the unit itself for a
  /// Latin letter or digit), or `nil` when this source cannot read the name.
  func pinyin(for name: String) -> [String]?
}

/// Pinyin taken from the names of a reviewed corpus: exact names first, then names of which
/// `name` is the short name (北京 reads as the first two syllables of 北京市).
public struct KnownNamesPinyin: PinyinSource {
  private let byName: [String: [String]]

  /// The readings of every name in `corpus`, by name.
  public init(corpus: Corpus) {
    var byName: [String: [String]] = [:]
    let places = (0..<corpus.count).map(corpus.place(at:))
    for place in places where byName[place.name] == nil {
      byName[place.name] = place.pinyin
    }
    for place in places where place.shortName != place.name && byName[place.shortName] == nil {
      byName[place.shortName] = Array(place.pinyin.prefix(place.shortName.unicodeScalars.count))
    }
    self.byName = byName
  }

  public func pinyin(for name: String) -> [String]? { byName[name] }
}

/// Asks several sources in order.
public struct ChainedPinyinSource: PinyinSource {
  /// The sources, asked first to last.
  public let sources: [any PinyinSource]
  /// A source that asks `sources` in order and takes the first answer.
  public init(_ sources: [any PinyinSource]) { self.sources = sources }
  public func pinyin(for name: String) -> [String]? {
    for source in sources {
      if let p = source.pinyin(for: name) { return p }
    }
    return nil
  }
}

/// A source made on first use: a bigger table or ICU is loaded only when the sources before it
/// in a chain cannot read a name (a list of cities is read from the embedded tier alone).
public final class LazyPinyinSource: PinyinSource, @unchecked Sendable {
  private let make: @Sendable () throws -> any PinyinSource
  private let lock = NSLock()
  private var made: Result<any PinyinSource, any Error>?

  /// A source that `make` builds when it is first asked; a failure to build reads no name.
  public init(_ make: @escaping @Sendable () throws -> any PinyinSource) { self.make = make }

  public func pinyin(for name: String) -> [String]? {
    lock.lock()
    if made == nil { made = Result { try make() } }
    let source = made!
    lock.unlock()
    return (try? source.get())?.pinyin(for: name)
  }
}
