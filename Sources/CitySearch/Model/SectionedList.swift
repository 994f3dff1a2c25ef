/// A city-picker list: places in A–Z sections by the first letter of their canonical pinyin,
/// each sorted by pinyin then id, with a 热门 (hot) section first. Empty sections are omitted.
///
/// ```swift
/// let list = SectionedList(corpus: corpus, places: corpus.children(of: heilongjiang))
/// list.sections.map(\.title)  // ["热门", "D", "H", "J", …]
/// ```
public struct SectionedList: Sendable {
  public struct Section: Sendable, Hashable {
    /// `热门`, a capital letter, or `#` for names that start with no letter.
    public var title: String
    public var places: [Int]
    public var isHot: Bool { title == SectionedList.hotTitle }
  }

  public static let hotTitle = "热门"

  public private(set) var sections: [Section]

  public init(corpus: Corpus, places: [Int]) {
    let keyed = places.map { (index: $0, key: corpus.pinyin(at: $0)) }
      .sorted {
        ($0.key.lexicographicallyPrecedes($1.key))
          || ($0.key == $1.key && corpus.id(at: $0.index) < corpus.id(at: $1.index))
      }
    var sections: [Section] = []
    let hot = keyed.filter { corpus.isHot(at: $0.index) }.map(\.index)
    if !hot.isEmpty { sections.append(Section(title: Self.hotTitle, places: hot)) }
    var byLetter: [String: [Int]] = [:]
    for entry in keyed {
      let first = entry.key.first?.first.map { String($0).uppercased() } ?? "#"
      let title = first.unicodeScalars.allSatisfy({ $0.value >= 0x41 && $0.value <= 0x5A }) ? first : "#"
      byLetter[title, default: []].append(entry.index)
    }
    for title in byLetter.keys.sorted(by: { ($0 == "#" ? "~" : $0) < ($1 == "#" ? "~" : $1) }) {
      sections.append(Section(title: title, places: byLetter[title]!))
    }
    self.sections = sections
  }

  /// The list with only the places in `keep`; sections left empty are dropped.
  public func filtered(keeping keep: Set<Int>) -> SectionedList {
    var copy = self
    copy.sections = sections.compactMap { section in
      let places = section.places.filter(keep.contains)
      return places.isEmpty ? nil : Section(title: section.title, places: places)
    }
    return copy
  }
}
