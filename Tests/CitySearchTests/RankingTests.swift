import CitySearch
import CitySearchTestSupport
import Testing

/// The ranking of MatchSpec §5.4: one key per (place, match), its class steps weighed against
/// the places' prominence (``RankingWeights``).
@Suite(.timed) struct RankingTests {
  static let corpus = TestTiers.cities

  static func place(_ id: PlaceID) throws -> Int { try #require(corpus.index(of: id)) }

  /// Every combination of classes a match can have, lowest first (§5.3: the suffix class last,
  /// then spelling, match and reading class).
  static var classes: [Match] {
    [0, 1].flatMap { spelling in
      [0, 1, 2, 3].flatMap { match in
        [0, 1].map { reading in
          Match(start: 0, end: 2, matchClass: match, readingClass: reading, spellingClass: spelling)
        }
      }
    }.sorted()
  }

  @Test func strictWeightsOrderByClassesThenOrdinal() throws {
    let ranking = Ranking(corpus: Self.corpus, weights: .strict)
    let places = try [110000, 510100, 440300, 440515, 350400].map(Self.place)  // 北京 … 三明
    let pairs = Self.classes.flatMap { match in places.map { (match, $0) } }
    let byKey = pairs.sorted { ranking.key($0.0, place: $0.1) < ranking.key($1.0, place: $1.1) }
    let byClasses = pairs.sorted {
      ($0.0.bits >> 13, Self.corpus.rankOrdinal(at: $0.1)) < ($1.0.bits >> 13, Self.corpus.rankOrdinal(at: $1.1))
    }
    // Class 3 (the suffix) ranks after every class of either spelling.
    #expect(Self.classes.filter { $0.matchClass == 3 }.allSatisfy { $0 > Self.classes.last { $0.matchClass < 3 }! })
    #expect(byKey.map(\.0.bits) == byClasses.map(\.0.bits))
    #expect(byKey.map(\.1) == byClasses.map(\.1))
  }

  @Test func keysRiseWithTheMatchForEveryWeighting() throws {
    // A place's lowest match (§5.3) must be the one that ranks it best, whatever the steps.
    let place = try Self.place(510100)
    let weightings = [
      RankingWeights.contract, .strict, .zero,
      RankingWeights(spelling: 1, matchStart: 6, matchLater: 2, matchSuffix: 1, reading: 9),
    ]
    for weights in weightings {
      let ranking = Ranking(corpus: Self.corpus, weights: weights)
      let keys = Self.classes.map { ranking.key($0, place: place) }
      #expect(keys == keys.sorted(), "\(weights)")
      #expect(weights.penalties == weights.penalties.sorted())
    }
  }

  @Test func aProminentPlaceOutweighsAClassStep() throws {
    // 成都 (prefix, class 1) and 澄海区 (whole short name, class 0) for `ch`, both initials.
    let chengdu = try Self.place(510100)
    let chenghai = try Self.place(440515)
    let prefix = Match(start: 0, end: 1, matchClass: 1, readingClass: 0, spellingClass: 1)
    let whole = Match(start: 0, end: 2, matchClass: 0, readingClass: 0, spellingClass: 1)
    let strict = Ranking(corpus: Self.corpus, weights: .strict)
    #expect(strict.key(whole, place: chenghai) < strict.key(prefix, place: chengdu))
    // 成都 (13.6 M) is 89 times as prominent as 澄海区 (0.15 M): the start step of 4 yields.
    let weighed = Ranking(corpus: Self.corpus)
    #expect(weighed.key(prefix, place: chengdu) < weighed.key(whole, place: chenghai))
    // Within one place the better class still ranks it better.
    #expect(weighed.key(whole, place: chengdu) < weighed.key(prefix, place: chengdu))
  }

  @Test func matchClassThreeIsTheSuffix() {
    // 上海市: short name 上海 (2 units) of 3; a run from unit 2 is in the suffix.
    #expect(MatchRules.matchClass(start: 2, end: 3, whole: 3, short: 2) == 3)
    #expect(MatchRules.matchClass(start: 1, end: 2, whole: 3, short: 2) == 2)
    #expect(MatchRules.matchClass(start: 1, end: 2, whole: 2, short: 2) == 2)  // no suffix: 单县
    let suffix = Match(start: 2, end: 3, matchClass: 3, readingClass: 0, spellingClass: 0)
    #expect(suffix.matchClass == 3 && suffix.start == 2 && suffix.end == 3 && suffix.spellingClass == 0)
    var changed = suffix
    changed.matchClass = 1
    #expect(changed.matchClass == 1 && changed < suffix)
    changed.matchClass = 3
    #expect(changed == suffix)
  }

  @Test func scaleIsSixteenthsOfDoublings() {
    #expect(Ranking.scale(prominence: 0) == 0)
    #expect(Ranking.scale(prominence: 1) == 0)
    #expect(Ranking.scale(prominence: 2) == 16)
    #expect(Ranking.scale(prominence: 1 << 20) == 320)
    #expect(Ranking.scale(prominence: .max) == Ranking.scaleCeiling)
  }
}
