import CitySearch
import CitySearchCatalog
import CitySearchICU
import CitySearchTestSupport
import Testing

/// Two-level queries (MatchSpec §9.2): the heads a query may name a place by, the reference's
/// answer against a brute-force reading of the section, and every backend agreeing with it.
@Suite(.timed) struct TwoLevelSearchTests {
  static var corpus: Corpus { Fixtures.cities }
  static let heads = PlaceHeads(corpus: corpus)
  static let search = TwoLevelSearch(backend: Fixtures.citiesReference, heads: heads)

  static func index(_ path: String) -> Int32 { Int32(corpus.lookup(path)[0]) }
  static func normalize(_ text: String) -> NormalizedQuery { QueryNormalizer(tables: corpus.tables).normalize(text) }

  @Test func everyWholeFormOfAPlaceIsAHeadAndNothingShorter() {
    let beijing = Self.index("北京市")
    for form in ["北京", "北京市", "beijing", "beijingshi", "bj", "bjs", "peking", "bei'jing"] {
      let found = Self.heads.heads(of: Self.normalize(form + "cy"))
      #expect(found.last?.ancestors.contains(beijing) == true, "\(form)")
    }
    // A prefix of a form, a one-character alias and a form with no rest are no heads.
    for text in ["beijcy", "京朝阳", "北京", "bj"] {
      #expect(!Self.heads.heads(of: Self.normalize(text)).contains { $0.ancestors.contains(beijing) }, "\(text)")
    }
    // A boundary mark right after the head is not part of the rest.
    let spaced = Self.normalize("beijing chaoyang")
    let head = Self.heads.heads(of: spaced).first { $0.ancestors.contains(beijing) }
    #expect(head.map { Array(spaced.tokens[$0.tailStart...]) } == Array("chaoyang".unicodeScalars.map(\.value)))
    // ü typed as u, and initials that name several places.
    #expect(Self.heads.heads(of: Self.normalize("luliangl")).contains { $0.ancestors.contains(Self.index("吕梁市")) })
    let bj = Self.heads.heads(of: Self.normalize("bjc"))
    #expect(bj.count == 1 && bj[0].tailStart == 2)
    #expect(Set(bj[0].ancestors).isSuperset(of: [beijing, Self.index("宝鸡市"), Self.index("毕节市")]))
    // Only places with places under them: the cities tier has no townships, so no county.
    #expect(Self.heads.placeCount == (0..<Self.corpus.count).filter { Self.corpus.hasChildren(at: $0) }.count)
  }

  @Test func aTwoLevelQueryFindsThePlaceUnderItsAncestorRankedByThePair() throws {
    let result = Self.search.search("bjcy")
    let first = try #require(result.hits.first)
    #expect(first.id == 110105 && first.via == Int(Self.index("北京市")))
    // Without the option nothing matches.
    #expect(Fixtures.citiesReference.search("bjcy").total == 0)
    // The whole query's matches keep their place and are not marked.
    let cy = Self.search.search("cy")
    #expect(cy == Fixtures.citiesReference.search("cy"))
    #expect(cy.hits.allSatisfy { $0.via == nil })
    // A rest that runs only into suffixes names nothing.
    #expect(Self.search.search("jilinshi").hits.map(\.id) == [220200, 220284])
  }

  /// MatchSpec §9.2 read literally over every place: the whole query's matches, and for every
  /// split of the query whose head is a whole form of a place with places under it, the rest's
  /// matches among its descendants (not in the suffix), each place by its best key.
  static func bruteForce(_ text: String, mode: MatchMode, scope: PlaceScope, limit: Int) -> (Int, [PlaceID], [Int?]) {
    let corpus = Self.corpus
    let matcher = PlaceMatcher(corpus: corpus)
    let ranking = Ranking(corpus: corpus)
    let query = normalize(text)
    var best: [Int: (key: UInt64, via: Int?)] = [:]
    for place in 0..<corpus.count where scope.contains(place) && !query.isEmpty {
      if let match = matcher.match(query, mode: mode, at: place) {
        best[place] = (ranking.key(match, place: place), nil)
      }
    }
    let tokens = query.tokens
    for split in tokens.indices.dropFirst() {
      let head = tokens[..<split].filter { $0 != NormalizedQuery.boundary }
      let restStart = tokens[split] == NormalizedQuery.boundary ? split + 1 : split
      guard restStart < tokens.count, head.count >= 2 else { continue }
      let rest = NormalizedQuery(tokens: Array(tokens[restStart...]))
      for (ancestor, forms) in wholeForms where forms.contains(head) {
        var pending = corpus.children(of: ancestor)
        while let place = pending.popLast() {
          pending += corpus.children(of: place)
          guard scope.contains(place), let match = matcher.match(rest, mode: mode, at: place), match.matchClass != 3
          else { continue }
          let key = ranking.key(match, place: place, under: ancestor)
          if key < best[place]?.key ?? .max { best[place] = (key, ancestor) }
        }
      }
    }
    let ranked = best.sorted { $0.value.key < $1.value.key }.prefix(limit)
    return (best.count, ranked.map { corpus.id(at: $0.key) }, ranked.map(\.value.via))
  }

  /// The whole forms of every place with places under it, of levels 1–3.
  static let wholeForms: [(Int, Set<[UInt32]>)] = (0..<corpus.count)
    .filter { corpus.level(at: $0) <= .county && corpus.hasChildren(at: $0) }
    .map { ($0, wholeForms(of: $0)) }

  /// A place's whole forms as §9.2 lists them, spelled from its names and pinyin as text.
  static func wholeForms(of place: Int) -> Set<[UInt32]> {
    let corpus = Self.corpus
    func tokens(_ text: String) -> [UInt32] { normalize(text).tokens.filter { $0 != NormalizedQuery.boundary } }
    var forms: Set<[UInt32]> = [tokens(corpus.name(at: place)), tokens(corpus.shortName(at: place))]
    var readings = [corpus.pinyin(at: place)]
    for k in 0..<corpus.alternateCount(at: place) {
      readings.append(corpus.alternateTokens(at: place, k).map { corpus.syllabary.spelling($0) })
    }
    for syllables in readings {
      for count in Set([syllables.count, corpus.shortNameUnitCount(at: place)]) {
        let part = syllables.prefix(count)
        forms.insert(tokens(part.joined()))
        forms.insert(tokens(part.joined().replacingOccurrences(of: "v", with: "u")))
        forms.insert(tokens(String(part.compactMap(\.first))))
      }
    }
    for k in 0..<corpus.aliasCount(at: place) { forms.insert(Array(corpus.aliasTokens(at: place, k))) }
    return forms.filter { $0.count >= 2 }
  }

  /// A place and one under it, typed as people type addresses: Hanzi, initials, full pinyin
  /// with a space, the head's initials and the rest's first syllable.
  static let queries: [String] = {
    let corpus = Self.corpus
    // `hnx` and `jlc`: heads naming several places, whose rest is read once over every place.
    var queries = [
      "bjc", "jilinshi", "北京", "cy", "shanghaipudong", "hebeishi", "北京朝", "pekingc", "gz", "hnx", "hnxy", "jlc",
    ]
    let ancestors = (0..<corpus.count).filter { corpus.level(at: $0) <= .prefecture && corpus.hasChildren(at: $0) }
    for ancestor in ancestors.enumerated().filter({ $0.offset % 25 == 0 }).map(\.element) {
      for place in corpus.children(of: ancestor).prefix(2) {
        let a = corpus.pinyin(at: ancestor).prefix(corpus.shortNameUnitCount(at: ancestor))
        let p = corpus.pinyin(at: place).prefix(corpus.shortNameUnitCount(at: place))
        queries += [
          corpus.shortName(at: ancestor) + corpus.shortName(at: place),
          String(a.compactMap(\.first)) + String(p.compactMap(\.first)),
          a.joined() + " " + p.joined(),
          String(a.compactMap(\.first)) + (p.first ?? ""),
        ]
      }
    }
    return queries
  }()

  @Test func theReferenceAnswersAsTheSectionReadsOverEveryPlace() {
    #expect(Self.queries.count >= 50)
    let scopes = [PlaceScope.everything, PlaceScope(corpus: Self.corpus, citiesOnly: true)]
    for scope in scopes {
      for query in Self.queries {
        for mode in MatchMode.allCases {
          let result = Self.search.search(query, mode: mode, limit: 10, scope: scope)
          let (total, ids, via) = Self.bruteForce(query, mode: mode, scope: scope, limit: 10)
          #expect(result.total == total, "\(mode) '\(query)' (\(scope))")
          #expect(result.hits.map(\.id) == ids, "\(mode) '\(query)' (\(scope))")
          #expect(result.hits.map(\.via) == via, "\(mode) '\(query)' (\(scope))")
        }
      }
    }
  }

  /// Every backend, stateless and typed keystroke by keystroke (with backspaces), over every
  /// place and in a city picker, on every other query; the uncached ICU backend answers two.
  @Test(arguments: BackendCatalog.all.map { $0.name })
  func everyBackendAnswersTwoLevelQueriesAsTheReferenceDoes(name: String) throws {
    let type = try #require(BackendCatalog.backend(named: name))
    func run<B: SearchBackend>(_ type: B.Type) throws {
      let backend = try B(corpus: Self.corpus, options: BackendOptions())
      let queries =
        type == ICUBackend.self
        ? ["bjcy", "广州天河"] : Self.queries.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
      for scope in [PlaceScope.everything, PlaceScope(corpus: Self.corpus, citiesOnly: true)] {
        let checker = ConformanceChecker(backend, reference: Fixtures.citiesReference, scope: scope)
        for query in queries {
          for mode in MatchMode.allCases {
            checker.checkTwoLevel(query, mode: mode, heads: Self.heads)
          }
        }
        for query in queries.prefix(12) { checker.checkTwoLevelTyping(query, mode: .syllable, heads: Self.heads) }
      }
    }
    try run(type)
  }
}
