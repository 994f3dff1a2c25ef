/// A city-picker list: places in A–Z sections by the first letter of their canonical pinyin,
/// each sorted by pinyin then id, with a 热门 (hot) section first. Empty sections are omitted.
/// When the corpus file gave every listed place a section (a `sortednames.plist` or a
/// `Cities.plist`), the sections are the file's, in its order, each in the file's order.
///
/// ```swift
/// let list = SectionedList(corpus: corpus, places: corpus.children(of: heilongjiang))
/// list.sections.map(\.title)  // ["热门", "D", "H", "J", …]
/// ```
public struct SectionedList: Sendable {
  /// One section of the list: its heading and its places.
  public struct Section: Sendable, Hashable {
    /// `热门`, a capital letter, or `#` for names that start with no letter.
    public var title: String
    /// The places' corpus indices, in list order.
    public var places: [Int]
    /// Whether this is the 热门 section.
    public var isHot: Bool { title == SectionedList.hotTitle }
  }

  /// The heading of the hot places' section, listed first.
  public static let hotTitle = "热门"

  /// The sections, 热门 first, then A–Z, then `#`.
  public private(set) var sections: [Section]

  /// The sections of `places` (corpus indices) of `corpus`.
  public init(corpus: Corpus, places: [Int]) {
    if !places.isEmpty, places.allSatisfy({ corpus.fileSection(at: $0) != nil }) {
      sections = Self.fileSections(of: corpus, places: places)
    } else {
      sections = Self.pinyinSections(of: corpus, places: places)
    }
  }

  private static func pinyinSections(of corpus: Corpus, places: [Int]) -> [Section] {
    let keyed = places.map { (index: $0, key: corpus.pinyin(at: $0)) }
      .sorted {
        ($0.key.lexicographicallyPrecedes($1.key))
          || ($0.key == $1.key && corpus.id(at: $0.index) < corpus.id(at: $1.index))
      }
    var sections: [Section] = []
    let hot = keyed.filter { corpus.isHot(at: $0.index) }.map(\.index)
    if !hot.isEmpty { sections.append(Section(title: hotTitle, places: hot)) }
    var byLetter: [String: [Int]] = [:]
    for entry in keyed {
      let first = entry.key.first?.first.map { String($0).uppercased() } ?? "#"
      let title = first.unicodeScalars.allSatisfy({ $0.value >= 0x41 && $0.value <= 0x5A }) ? first : "#"
      byLetter[title, default: []].append(entry.index)
    }
    for title in byLetter.keys.sorted(by: { ($0 == "#" ? "~" : $0) < ($1 == "#" ? "~" : $1) }) {
      sections.append(Section(title: title, places: byLetter[title]!))
    }
    return sections
  }

  /// The city list of a picker: ``Corpus/cityIndices`` in sections.
  public init(citiesOf corpus: Corpus) { self.init(corpus: corpus, places: corpus.cityIndices) }

  private static func fileSections(of corpus: Corpus, places: [Int]) -> [Section] {
    let ordered = places.sorted()
    var sections: [Section] = []
    let hot = ordered.filter { corpus.isHot(at: $0) }
    if !hot.isEmpty { sections.append(Section(title: hotTitle, places: hot)) }
    var position: [String: Int] = [:]
    for index in ordered {
      let title = corpus.fileSection(at: index)!
      guard title != hotTitle else { continue }  // listed only under 热门
      if let at = position[title] {
        sections[at].places.append(index)
      } else {
        position[title] = sections.count
        sections.append(Section(title: title, places: [index]))
      }
    }
    return sections
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
