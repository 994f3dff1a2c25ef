extension Corpus {
  /// The indices of the top-level places, in source order.
  public var rootIndices: [Int] { roots.map(Int.init) }

  /// The indices of the place's children, in source order.
  public func children(of index: Int) -> [Int] {
    childIndices[Int(childStarts[index])..<Int(childStarts[index + 1])].map(Int.init)
  }

  /// Whether any place has the place at `index` as its parent.
  ///
  /// - Complexity: O(1).
  public func hasChildren(at index: Int) -> Bool { childStarts[index + 1] != childStarts[index] }

  /// The indices from the top-level ancestor down to the place itself.
  ///
  /// ```swift
  /// corpus.path(to: chaoyang).map(corpus.name(at:))  // ["北京市", "朝阳区"]
  /// ```
  public func path(to index: Int) -> [Int] {
    var path = [index]
    var current = index
    while let parent = parentIndex(at: current) {
      path.append(parent)
      current = parent
    }
    return path.reversed()
  }

  /// The places a city picker lists as cities, in source order: the prefecture-level
  /// divisions (level 2), the province-level places that have none under them (the
  /// municipalities 北京 天津 上海 重庆 and the SARs 香港 澳门), and the county-level cities a
  /// province administers directly (济源市, 仙桃市, 石河子市, …: level 3, named …市, whose parent
  /// is a province with prefectures).
  ///
  /// ```swift
  /// SectionedList(corpus: corpus, places: corpus.cityIndices)  // 热门, A (阿坝…), B (北京市…), …
  /// ```
  ///
  /// - Complexity: O(*n*) in the number of places.
  public var cityIndices: [Int] {
    let hasPrefectures = (0..<count).map { index in
      level(at: index) == .province && children(of: index).contains { level(at: $0) == .prefecture }
    }
    return (0..<count).filter { index in
      switch level(at: index) {
      case .province: return !hasPrefectures[index]
      case .prefecture: return true
      case .county:
        guard let parent = parentIndex(at: index) else { return false }
        return hasPrefectures[parent] && names[index].hasSuffix("市")
      default: return false
      }
    }
  }

  /// The names along ``path(to:)``.
  public func pathNames(to index: Int) -> [String] { path(to: index).map { names[$0] } }

  /// The places whose name or short name is `text`, or whose id is `text`, or that a
  /// `/`-separated path of names (`北京市/朝阳区`) leads to.
  public func lookup(_ text: String) -> [Int] {
    if let id = PlaceID(text), let index = index(of: id) { return [index] }
    let parts = text.split(separator: "/").map(String.init)
    guard !parts.isEmpty else { return [] }
    var candidates = (0..<count).filter { matchesName(parts[0], at: $0) }
    for part in parts.dropFirst() {
      candidates = candidates.flatMap { children(of: $0) }.filter { matchesName(part, at: $0) }
    }
    return candidates
  }

  private func matchesName(_ text: String, at index: Int) -> Bool {
    names[index] == text || (shortNameUnitCount(at: index) < unitCount(at: index) && shortName(at: index) == text)
  }
}
