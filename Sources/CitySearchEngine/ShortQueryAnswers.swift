import CitySearch
import Foundation

/// The answers of the broadest queries, precomputed at build: every query of one or two
/// letters or digits, every query of one Hanzi of the corpus, and every longer query of letters
/// or digits (up to ``longestBroadQuery``) that extends one that
/// ``isExtended(length:total:mode:fuzzy:listsAreExact:placeCount:)`` says is extended, in both
/// modes, each with its exact total and its best ``depth`` hits (fewer when it has fewer).
///
/// These are the first keystrokes of almost every typing session and the queries with the
/// most matches (`s` matches most of `villages`, `镇` some 21,800 places of `towns`): counting
/// them exactly at every keystroke costs more than every other query. Precomputing them bounds
/// the worst case; a query with a larger `limit` is answered by the backend as usual.
public struct ShortQueryAnswers: Sendable {
  /// How many hits each answer keeps: a search with a larger `limit` is answered by the
  /// backend as usual. 32 rather than 64 since more queries are kept: the tables of
  /// `villages` take about half the memory, and a city picker shows 20.
  public static let depth = 32
  /// A query of two characters is extended when it has more matches than this (a query of
  /// three or more, when it has more than ``extensionTotal(placeCount:)``; on a corpus under
  /// 4,096 places, either when it has more than ``smallCorpusExtensionTotal``). Every
  /// answer computed is kept, whatever its total: one with few matches can still cost a search
  /// many candidates or a trie walk many edges (`jiangj` on `cities`, 17 matches: 174,000
  /// instructions verifying *jiang*'s places), and its hits take no more room than its matches.
  public static let broadTotal = depth
  /// The longest Latin query kept: seven letters or digits, the longest whose key fits below
  /// the key's mode and Hanzi bits (37⁷ < 2⁴⁰).
  public static let longestBroadQuery = 7

  /// A query of three characters or more is extended by one character, each extension's
  /// answer kept, only when it has more matches than this: one place in 64 of a corpus where
  /// that is at least two answers' depth (4,096 places or more), else
  /// ``smallCorpusExtensionTotal``. A walk visits each match and a search verifies each
  /// candidate, so the precomputed answers bound a fresh keystroke to about this many (`xian` on
  /// `cities`, 1,472 matches, and `zhang` on `villages`, some 17,000, were the costliest
  /// keystrokes left after four characters); the bound grows with the corpus, as the build's
  /// cost does. On `villages` one place in 128 cost the `inverted-index` build half a second
  /// (docs/backends/inverted-index.md).
  @inlinable
  public static func extensionTotal(placeCount: Int) -> Int {
    let share = placeCount / 64
    return share < 2 * broadTotal ? smallCorpusExtensionTotal : share
  }
  /// On a corpus under 4,096 places, a query of two characters or more is extended when it has
  /// more matches than this, a quarter of an answer's depth. One place in 64 of `cities` (3,211
  /// places) is 50, and the queries of 9 to 50 matches were then its costliest keystrokes: a
  /// session verified each of the last answer's hits (`gon` after `go`, 31 candidates; `shou`
  /// after `sho`, 16; about 1,000 to 1,700 instructions each), a trie walked their edges. Such
  /// a corpus's answers cost little to compute and keep (`cities`: 106,439 answers instead of
  /// 30,687, heap +1.5 MB, the build 0.2–0.3 s longer) and a keystroke past them verifies at
  /// most about this many places.
  public static let smallCorpusExtensionTotal = depth / 4
  /// For a source whose lists hold exactly the matches of such queries (the inverted index), a
  /// `syllable`-mode query of three to five letters, read without fuzzy rules, is extended
  /// sooner: when it has more matches than this, if fewer than ``extensionTotal(placeCount:)``.
  /// Its extensions of up to six letters are then counted rather than verified, so they cost the
  /// build less, and a fresh search of such a query verifies at most about this many candidates
  /// (some 300 ns each on `villages` in the bench). There the queries below one place in 64
  /// were the costliest keystrokes left (`huang`, 8,959 matches, extends `huan`, 9,894: 2–4 ms
  /// in the bench; `song`, `wangcu`: 1–1.5 ms). The `trie` walks them instead (0.5–1 ms), and
  /// extending them sooner cost its `villages` build some 0.5 s of its 2.
  public static let syllableExtensionTotal = 1_024

  /// Whether a query of `length` letters or digits with `total` matches in `mode`, read with the
  /// fuzzy rules `fuzzy`, over `placeCount` places, is extended by one character (each
  /// extension's answer kept): two characters with more than ``broadTotal`` matches (on a corpus
  /// under 4,096 places, ``smallCorpusExtensionTotal``), three to six with more than
  /// ``extensionTotal(placeCount:)``, or, when `listsAreExact` (the source's lists
  /// hold exactly the matches of such queries, ``PostingCandidates/isExact``), three to five in
  /// `syllable` mode without fuzzy rules with more than ``syllableExtensionTotal``.
  public static func isExtended(
    length: Int, total: Int, mode: MatchMode, fuzzy: FuzzyRules = [], listsAreExact: Bool = false,
    placeCount: Int
  ) -> Bool {
    guard (2..<longestBroadQuery).contains(length) else { return false }
    if length == 2 { return total > Swift.min(broadTotal, extensionTotal(placeCount: placeCount)) }
    return total > extensionTotal(placeCount: placeCount)
      || listsAreExact && mode == .syllable && fuzzy.isEmpty && length <= 5 && total > syllableExtensionTotal
  }
  /// Keys are ``LetterKey`` values of one or two characters (below 37²).
  static let keyCount = 37 * 37
  /// The fuzzy rules its `syllable`-mode queries were read with (MatchSpec §3.5): none for the
  /// answers of typing as it is, which also answer `seed` mode; a table of some rules answers
  /// `syllable` queries read with exactly those.
  public let fuzzy: FuzzyRules
  /// The tables, behind one reference: the answers are handed around by value at every
  /// keystroke, and a copy retains one object, however many tables it holds.
  let tables: Tables

  /// The tables of the answers: memory of their own, or views of an opened index file.
  final class Tables: Sendable {
    /// Per (mode, key), the total.
    let totals: IntegerTable<Int32>
    /// `depth` slots per (mode, key): place index and packed match, `-1` when unused.
    let places: IntegerTable<Int32>
    let matches: IntegerTable<UInt32>
    /// The answers of queries of three to ``ShortQueryAnswers/longestBroadQuery`` characters
    /// and of one Hanzi, by their keys (`longerKey(_:mode:)`), ascending: answer i's total is
    /// `longerTotals[i]`, its hits `longerPlaces` and `longerMatches` from `longerStarts[i]` to
    /// `longerStarts[i + 1]` (min(total, depth) of them). Read by binary search, where a
    /// dictionary of the keys took 12 bytes a key more and a build when a file was opened.
    let longerKeys: IntegerTable<UInt64>
    let longerTotals: IntegerTable<Int32>
    let longerStarts: IntegerTable<Int32>
    let longerPlaces: IntegerTable<Int32>
    let longerMatches: IntegerTable<UInt32>

    init(
      totals: IntegerTable<Int32>, places: IntegerTable<Int32>, matches: IntegerTable<UInt32>,
      longerKeys: IntegerTable<UInt64>, longerTotals: IntegerTable<Int32>, longerStarts: IntegerTable<Int32>,
      longerPlaces: IntegerTable<Int32>, longerMatches: IntegerTable<UInt32>
    ) {
      (self.totals, self.places, self.matches) = (totals, places, matches)
      (self.longerKeys, self.longerTotals, self.longerStarts) = (longerKeys, longerTotals, longerStarts)
      (self.longerPlaces, self.longerMatches) = (longerPlaces, longerMatches)
    }

    /// The position of `key` in `longerKeys`, if it is there: a binary search
    /// (`firstPosition(notBelow:in:)`).
    ///
    /// - Complexity: O(log n) for the n answers kept.
    @inline(__always)
    func longerAnswer(_ key: UInt64) -> Int? {
      longerKeys.withUnsafeBufferPointer { keys in
        let low = firstPosition(notBelow: key, in: keys)
        return low < keys.count && keys[low] == key ? low : nil
      }
    }
  }

  /// Computes every answer with `source`'s own enumeration, on all cores, or on the calling
  /// thread alone when `concurrently` is false (the answers are the same); with fuzzy rules,
  /// the `syllable`-mode answers of queries read with them (`seed` mode ignores rules).
  ///
  /// - Complexity: one enumeration per query of one or two letters or digits, per distinct
  ///   Hanzi of the corpus, and per one-character extension of a broad query of two or three
  ///   characters, in both modes (in `syllable` mode alone with fuzzy rules).
  public init(source: some MatchSource, concurrently: Bool = true, fuzzy: FuzzyRules = []) {
    self.init(source: source, concurrently: concurrently, fuzzy: fuzzy, blockPlaces: Self.blockPlaces)
  }

  /// The answers computed a block of `blockPlaces` places at a time, when `source` keeps posting
  /// lists (the same answers for any size).
  init(source: some MatchSource, concurrently: Bool, fuzzy: FuzzyRules, blockPlaces: Int) {
    precondition(blockPlaces > 0, "a block of no place")
    let modes = fuzzy.isEmpty ? MatchMode.allCases : [.syllable]
    let letters = Self.letters
    let pairs = letters.flatMap { a in letters.map { [a, $0] } }
    // First the one- and two-character queries and the Hanzi; then, one character longer at
    // a time, the extensions of the broad queries of the length before: extending a query
    // only narrows its matches (MatchSpec §6), so the extensions of a narrow one are narrow too.
    var jobs = modes.flatMap { mode in
      (letters.map { [$0] } + pairs + Self.distinctHanzi(source.corpus).map { [$0] }).map {
        Job(mode: mode, tokens: $0, parent: nil)
      }
    }
    // What bounds each place's classes before it is verified, for the jobs whose lists the
    // source says are exact (`answerExactly(_:places:firstUnits:ranking:)`): read once.
    let probe = source.matcher.prepare(NormalizedQuery(tokens: [0x61], fuzzy: fuzzy))
    let firstUnits =
      source.postingCandidates(probe, mode: .syllable)?.isExact == true
        || fuzzy.isEmpty
          && source.postingCandidates(probe, mode: .seed)?.isExact == true
      ? source.matcher.withPlaces { places in (0..<source.corpus.count).map(places.firstUnit(at:)) } : []
    let placeCount = source.corpus.count
    let listsAreExact = !firstUnits.isEmpty
    let isExtended: @Sendable ([UInt32], Int, MatchMode) -> Bool = { tokens, total, mode in
      tokens.allSatisfy(Hanzi.isLatin)
        && Self.isExtended(
          length: tokens.count, total: total, mode: mode, fuzzy: fuzzy, listsAreExact: listsAreExact,
          placeCount: placeCount)
    }
    var answers = Self.answers(
      jobs, parents: [], source: source, concurrently: concurrently, fuzzy: fuzzy, blockPlaces: blockPlaces,
      firstUnits: firstUnits, isExtended: isExtended)
    // A `seed` match is an occurrence in a string (MatchSpec §4), and so is every part of it:
    // an extension whose last two characters match no place matches none either, and is
    // neither enumerated nor kept.
    var seedPairMatches = [Bool](repeating: false, count: Self.keyCount)
    for (job, answer) in zip(jobs, answers) where job.mode == .seed && job.tokens.count == 2 {
      seedPairMatches[Int(LetterKey.of(job.tokens))] = answer.total > 0
    }
    var level = jobs.indices
    for length in 3...Self.longestBroadQuery {
      let extensions = level.flatMap { j -> [Job] in
        let (mode, tokens) = (jobs[j].mode, jobs[j].tokens)
        guard tokens.count == length - 1, isExtended(tokens, answers[j].total, mode) else { return [] }
        return letters.compactMap { c in
          mode == .seed && !seedPairMatches[Int(LetterKey.of([tokens[tokens.count - 1], c]))]
            ? nil : Job(mode: mode, tokens: tokens + [c], parent: j)
        }
      }
      let next = Self.answers(
        extensions, parents: answers, source: source, concurrently: concurrently, fuzzy: fuzzy,
        blockPlaces: blockPlaces, firstUnits: firstUnits, isExtended: isExtended)
      // The parents' matches are needed no more.
      for j in level { answers[j].matches = nil }
      level = jobs.count..<jobs.count + extensions.count
      jobs += extensions
      answers += next
    }

    var totals = ContiguousArray<Int32>(repeating: 0, count: MatchMode.allCases.count * Self.keyCount)
    var places = ContiguousArray<Int32>(
      repeating: -1, count: MatchMode.allCases.count * Self.keyCount * Self.depth)
    var matches = ContiguousArray<UInt32>(repeating: 0, count: places.count)
    var longer: [(key: UInt64, answer: Int)] = []
    for (j, (job, answer)) in zip(jobs, answers).enumerated() {
      let (mode, tokens) = (job.mode, job.tokens)
      if tokens.count <= 2 && tokens.allSatisfy(Hanzi.isLatin) {
        let slot = (mode == .syllable ? 0 : 1) * Self.keyCount + Int(LetterKey.of(tokens))
        totals[slot] = Int32(answer.total)
        for (i, entry) in answer.entries.enumerated() {
          places[slot * Self.depth + i] = entry.index
          matches[slot * Self.depth + i] = entry.match.bits
        }
      } else {
        longer.append((Self.longerKey(tokens, mode: mode), j))
      }
    }
    // Each job is its parent's tokens and one more character, or a query of its own: one key each.
    longer.sort { $0.key < $1.key }
    var longerStarts = ContiguousArray<Int32>([0])
    var longerPlaces = ContiguousArray<Int32>()
    var longerMatches = ContiguousArray<UInt32>()
    for (_, j) in longer {
      longerPlaces += answers[j].entries.map(\.index)
      longerMatches += answers[j].entries.map(\.match.bits)
      longerStarts.append(Int32(longerPlaces.count))
    }
    self.init(
      fuzzy: fuzzy, totals: IntegerTable(totals), places: IntegerTable(places), matches: IntegerTable(matches),
      longerKeys: IntegerTable(longer.map(\.key)),
      longerTotals: IntegerTable(longer.map { Int32(answers[$0.answer].total) }),
      longerStarts: IntegerTable(longerStarts), longerPlaces: IntegerTable(longerPlaces),
      longerMatches: IntegerTable(longerMatches))
  }

  /// Answers from their tables: as computed, or as a file holds them (``init(fileData:corpus:)``,
  /// answers without fuzzy rules).
  init(
    fuzzy: FuzzyRules = [], totals: IntegerTable<Int32>, places: IntegerTable<Int32>, matches: IntegerTable<UInt32>,
    longerKeys: IntegerTable<UInt64>, longerTotals: IntegerTable<Int32>, longerStarts: IntegerTable<Int32>,
    longerPlaces: IntegerTable<Int32>, longerMatches: IntegerTable<UInt32>
  ) {
    self.fuzzy = fuzzy
    tables = Tables(
      totals: totals, places: places, matches: matches, longerKeys: longerKeys, longerTotals: longerTotals,
      longerStarts: longerStarts, longerPlaces: longerPlaces, longerMatches: longerMatches)
  }

  /// The letters and digits a query of the tables is made of, in the order of their answers.
  private static let letters = Array(0x61...0x7A as ClosedRange<UInt32>) + Array(0x30...0x39 as ClosedRange<UInt32>)

  /// A query to answer in `mode`, and the job of the query it extends by one character, if any.
  private struct Job {
    let mode: MatchMode
    let tokens: [UInt32]
    let parent: Int?
  }

  /// A job's total and best ``depth`` entries; and its matches with their places' letters
  /// (``PlaceMatcher/Places/letterMask(at:)``), kept while its extensions are answered when
  /// some of them would verify them rather than enumerate afresh.
  private struct Answer {
    let total: Int
    let entries: [(index: Int32, match: Match)]
    var matches: [(index: Int32, letters: UInt64)]?
  }

  /// Each job's answer, by `source`'s own enumeration, as its typing session would find it
  /// (``Narrowing``): an extension verifies its parent's matches (`parents[parent]`) when they
  /// are no more than the candidates a fresh enumeration would visit
  /// (``MatchSource/candidateEstimate(_:mode:)``), else it enumerates afresh. The matches are
  /// kept only when `isExtended` says the job is extended and one of its extensions would
  /// verify them.
  ///
  /// An extension verifies only the parent's matches whose letters hold its own: the 36
  /// extensions of a parent of 30,000 matches would otherwise look up 36 × 30,000 places'
  /// letters in the corpus's tables, where most are rejected.
  ///
  /// When the source keeps posting lists (``MatchSource/postingCandidates(_:mode:)``), the jobs
  /// are answered a block of `blockPlaces` places at a time: every job verifies its
  /// candidates in the block while the block's places are in the cache, where one job after
  /// another over the whole corpus would read each candidate's tables from memory.
  private static func answers(
    _ jobs: [Job], parents: [Answer], source: some MatchSource, concurrently: Bool, fuzzy: FuzzyRules,
    blockPlaces: Int, firstUnits: [PlaceMatcher.FirstUnit], isExtended: @Sendable ([UInt32], Int, MatchMode) -> Bool
  ) -> [Answer] {
    let placeCount = source.corpus.count
    guard let first = jobs.first else { return [] }
    // Blocks of places serve a source that keeps lists: its jobs are dealt into groups, each
    // group's every `groups`-th job (so that the groups take about equal work), and each group
    // answers its jobs block by block. A source without lists (the `trie`) answers each job
    // apart, the cores taking the next job as they finish one.
    let keepsLists =
      source.postingCandidates(
        source.matcher.prepare(NormalizedQuery(tokens: first.tokens, fuzzy: first.mode == .syllable ? fuzzy : [])),
        mode: first.mode) != nil
    let groups = concurrently ? (keepsLists ? min(jobs.count, Self.jobGroups) : jobs.count) : 1
    let answered = ConcurrentResults.map(count: groups, concurrently: concurrently) { g -> [Answer] in
      // Read once: through the generic source, each read copies the ranking and retains its arrays.
      let ranking = source.ranking
      let matcher = source.matcher
      var progress = stride(from: g, to: jobs.count, by: groups).map { j -> Progress in
        let mode = jobs[j].mode
        let prepared = matcher.prepare(NormalizedQuery(tokens: jobs[j].tokens, fuzzy: mode == .syllable ? fuzzy : []))
        let estimate = source.candidateEstimate(prepared, mode: mode)
        // An extension's candidates are no more than its parent's (the trie's `syllable` walks
        // never verify, so it keeps none).
        let previous = jobs[j].parent.flatMap { parents[$0].matches }.flatMap { $0.count <= estimate ? $0 : nil }
        let candidates = previous == nil ? source.postingCandidates(prepared, mode: mode) : nil
        return Progress(
          job: j, mode: mode, prepared: prepared, estimate: estimate, previous: previous, candidates: candidates,
          isExact: candidates?.isExact == true && !firstUnits.isEmpty)
      }
      let blockPlaces = progress.contains { $0.candidates != nil } ? blockPlaces : max(placeCount, 1)
      for start in stride(from: 0, to: placeCount, by: blockPlaces) {
        let block = start..<min(start + blockPlaces, placeCount)
        // Through unsafe views: the closures below then mutate no variable they capture (each such
        // access is checked at run time, a third of a `villages` build when it was).
        progress.withUnsafeMutableBufferPointer { progress in
          matcher.withPlaces { places in
            // A job whose places all lie in other blocks is passed over without copying its query.
            for p in progress.indices where progress[p].span.overlaps(block) {
              let (mode, prepared) = (progress[p].mode, progress[p].prepared)
              if let previous = progress[p].previous {
                while progress[p].cursor < previous.count
                  && Int(previous[progress[p].cursor].index) < block.upperBound
                {
                  let (index, letters) = previous[progress[p].cursor]
                  progress[p].cursor += 1
                  guard prepared.admits(letters: letters),
                    let match = places.match(prepared, mode: mode, at: Int(index))
                  else { continue }
                  progress[p].insert(key: ranking.key(match, place: Int(index)), index: Int(index), match: match)
                }
              } else if let candidates = progress[p].candidates {
                guard !progress[p].isExact else {
                  // Counted, and its best candidates by bound taken, block by block; verified after.
                  candidates.forEachCandidate(in: block) { place in
                    progress[p].exactCount += 1
                    // The place's base alone rules most out, before its first unit is read.
                    guard !progress[p].lowest.rejects(ranking.lowestKey(place: place)) else { return }
                    progress[p].lowest.offer(
                      Self.bound(place, prepared, mode: mode, firstUnits[place], ranking), place: place)
                  }
                  continue
                }
                candidates.forEachMatch(prepared, mode: mode, places: places, in: block) { index, match in
                  progress[p].insert(key: ranking.key(match, place: index), index: index, match: match)
                }
              } else if block.lowerBound == 0 {
                // No lists: the source's own enumeration, whole, with the first block.
                source.forEachMatch(prepared, mode: mode) { index, match in
                  progress[p].insert(key: ranking.key(match, place: index), index: index, match: match)
                }
              }
            }
          }
        }
      }
      progress.withUnsafeMutableBufferPointer { progress in
        matcher.withPlaces { places in
          for p in progress.indices where progress[p].isExact {
            Self.answerExactly(&progress[p], places: places, firstUnits: firstUnits, ranking: ranking)
          }
        }
      }
      return progress.map { progress in
        let (mode, tokens, top, total) = (progress.mode, jobs[progress.job].tokens, progress.top, progress.total)
        let narrowed =
          total <= progress.estimate && isExtended(tokens, total, progress.mode)
          && Self.letters.contains { c in
            total
              <= source.candidateEstimate(
                matcher.prepare(NormalizedQuery(tokens: tokens + [c], fuzzy: progress.prepared.query.fuzzy)),
                mode: mode)
          }
        return Answer(
          total: total, entries: top.sortedEntries(),
          matches: narrowed
            ? matcher.withPlaces { places in
              progress.allMatches().map { ($0, places.letterMask(at: Int($0))) }
            } : nil)
      }
    }
    // Back in the jobs' order: job j is the (j / groups)-th of group j % groups.
    return jobs.indices.map { answered[$0 % groups][$0 / groups] }
  }

  /// How many places a block of ``answers(_:parents:source:concurrently:fuzzy:blockPlaces:firstUnits:isExtended:)``
  /// holds: the tables a match reads of 65,536 places (units, readings, joined pinyin, rank
  /// bases) take about 6 MB, which stay in the cache while every job verifies its candidates
  /// among them.
  static let blockPlaces = 65_536

  /// Answers a job whose candidates' lists hold exactly its matches by name
  /// (``PostingCandidates/isExact``), once the blocks have counted its candidates and kept the
  /// `Progress.lowest` of them by the lowest key each could have (`bound(_:_:mode:_:_:)`): its
  /// total is their number plus the places apart that match, and its best hits are found by
  /// verifying the candidates in the order of their bounds until the next bound is at or above
  /// the worst key kept (``TopK/threshold``). A broad query's best hits are usually among its
  /// first few dozen candidates in that order (on `villages`, `shan` verifies 59 of 35,321
  /// matches, `zhang` 44 of 17,323), where counting them by verifying each took one matcher
  /// call per match. When they are not, a pass takes four times as many more; once that would
  /// be more than a sixteenth of them, the rest whose bound is below the worst key kept are
  /// verified as they come.
  ///
  /// - Complexity: one matcher call per candidate taken and per place apart, plus O(c · log b)
  ///   for each pass after the first over the c candidates taking the next b of them.
  private static func answerExactly(
    _ progress: inout Progress, places: PlaceMatcher.Places, firstUnits: [PlaceMatcher.FirstUnit], ranking: Ranking
  ) {
    guard progress.isExact, let candidates = progress.candidates else { return }
    var total = progress.exactCount
    let (prepared, mode) = (progress.prepared, progress.mode)
    candidates.forEachApartMatch(prepared, mode: mode, places: places) { place, match in
      total += 1
      progress.matchedApart.append(Int32(place))
      progress.top.insert(key: ranking.key(match, place: place), index: place, match: match)
    }
    progress.exactCount = total
    var lowest = progress.lowest
    while true {
      let chosen = lowest.ascending()
      for (bound, place) in chosen {
        if let threshold = progress.top.threshold, bound >= threshold { return }
        let match = places.match(prepared, mode: mode, at: place)
        assert(match != nil, "a candidate of an exact list that does not match")
        if let match { progress.top.insert(key: ranking.key(match, place: place), index: place, match: match) }
      }
      guard chosen.count == lowest.capacity, let taken = chosen.last?.bound else { return }
      // Every candidate whose bound is at most `taken` is verified. When the bound does not
      // separate the best (a query whose candidates all have the same classes and scale), the
      // rest are verified as they come; else the next ones, four times as many.
      guard 16 * lowest.capacity <= total else {
        candidates.forEachCandidate { place in
          // The worst key kept only falls: a candidate whose bound is at or above it is not kept.
          let bound = Self.bound(place, prepared, mode: mode, firstUnits[place], ranking)
          guard bound > taken, progress.top.threshold.map({ bound < $0 }) ?? true,
            let match = places.match(prepared, mode: mode, at: place)
          else { return }
          progress.top.insert(key: ranking.key(match, place: place), index: place, match: match)
        }
        return
      }
      lowest = LowestBounds(capacity: 4 * lowest.capacity)
      candidates.forEachCandidate { place in
        guard !lowest.rejects(ranking.lowestKey(place: place)) else { return }
        let bound = Self.bound(place, prepared, mode: mode, firstUnits[place], ranking)
        if bound > taken { lowest.offer(bound, place: place) }
      }
    }
  }

  /// The lowest key a match of the place at `place` by its name can have: its base and the
  /// penalty of the lowest match class it may have (``PlaceMatcher/FirstUnit/lowestClasses(_:mode:)``
  /// of its `firstUnit`).
  @inline(__always)
  private static func bound(
    _ place: Int, _ prepared: PlaceMatcher.PreparedQuery, mode: MatchMode, _ firstUnit: PlaceMatcher.FirstUnit,
    _ ranking: Ranking
  ) -> UInt64 {
    ranking.lowestKey(place: place, classesFrom: firstUnit.lowestClasses(prepared, mode: mode))
  }

  /// The `capacity` smallest bounds offered, with their places: a bounded max-heap.
  private struct LowestBounds {
    let capacity: Int
    var heap: [(bound: UInt64, place: Int)] = []

    init(capacity: Int) {
      self.capacity = capacity
      heap.reserveCapacity(capacity)
    }

    /// Whether `bound` would not be kept: `capacity` bounds are, none above it.
    @inline(__always)
    func rejects(_ bound: UInt64) -> Bool { heap.count == capacity && bound >= heap[0].bound }

    /// Keeps `(bound, place)` if it is among the `capacity` smallest bounds so far.
    @inline(__always)
    mutating func offer(_ bound: UInt64, place: Int) {
      if heap.count < capacity {
        heap.append((bound, place))
        var child = heap.count - 1
        while child > 0 && heap[(child - 1) / 2].bound < heap[child].bound {
          heap.swapAt(child, (child - 1) / 2)
          child = (child - 1) / 2
        }
      } else if bound < heap[0].bound {
        heap[0] = (bound, place)
        var parent = 0
        while true {
          var largest = parent
          let (left, right) = (2 * parent + 1, 2 * parent + 2)
          if left < heap.count && heap[left].bound > heap[largest].bound { largest = left }
          if right < heap.count && heap[right].bound > heap[largest].bound { largest = right }
          if largest == parent { break }
          heap.swapAt(parent, largest)
          parent = largest
        }
      }
    }

    /// The bounds kept, smallest first.
    func ascending() -> [(bound: UInt64, place: Int)] { heap.sorted { $0.bound < $1.bound } }
  }

  /// Into how many groups the jobs are dealt, each answered on one core at a time: enough for
  /// both cores to stay busy when the groups' work differs.
  static let jobGroups = 16

  /// One job's answer so far, while the blocks of places are answered in turn.
  private struct Progress {
    let job: Int
    let mode: MatchMode
    let prepared: PlaceMatcher.PreparedQuery
    /// ``MatchSource/candidateEstimate(_:mode:)`` of the job's query.
    let estimate: Int
    /// The parent's matches to verify rather than enumerate afresh (ascending), and how many of
    /// them the blocks so far have verified.
    let previous: [(index: Int32, letters: UInt64)]?
    /// The source's posting lists, when it enumerates afresh and keeps them.
    let candidates: PostingCandidates?
    /// The places that the blocks verify or count for the job lie in this range: all of them
    /// for a source's own enumeration, which the first block runs.
    let span: Range<Int>
    var cursor = 0
    var top = TopK(limit: ShortQueryAnswers.depth)
    /// The matches so far, while they are few enough that an extension may verify them (not
    /// kept for a job answered from exact lists: `allMatches()` reads them from its lists).
    var matches: [Int32] = []
    /// Whether the job is answered from exact lists (`answerExactly(_:places:firstUnits:ranking:)`):
    /// its candidates are counted, not verified.
    let isExact: Bool
    /// The matches of a job answered from exact lists: its candidates counted, then its places
    /// apart that match.
    var exactCount = 0
    /// The places apart that match, for a job answered from exact lists.
    var matchedApart: [Int32] = []
    /// A job answered from exact lists: its candidates with the lowest bounds so far.
    var lowest: LowestBounds

    init(
      job: Int, mode: MatchMode, prepared: PlaceMatcher.PreparedQuery, estimate: Int,
      previous: [(index: Int32, letters: UInt64)]?, candidates: PostingCandidates?, isExact: Bool
    ) {
      (self.job, self.mode, self.prepared, self.estimate) = (job, mode, prepared, estimate)
      (self.previous, self.candidates, self.isExact) = (previous, candidates, isExact)
      lowest = LowestBounds(capacity: isExact ? 2 * ShortQueryAnswers.depth : 0)
      if let previous {
        span = previous.isEmpty ? 0..<0 : Int(previous[0].index)..<Int(previous[previous.count - 1].index) + 1
      } else {
        span = candidates?.span ?? 0..<Int.max
      }
    }

    /// The number of matches.
    var total: Int { isExact ? exactCount : top.total }

    /// Every match, ascending: those counted, or a job's exact lists' places and its places
    /// apart that match.
    func allMatches() -> [Int32] {
      guard isExact, let candidates else { return matches.sorted() }
      var all = matchedApart
      all.reserveCapacity(total)
      candidates.forEachCandidate { all.append(Int32($0)) }
      return all.sorted()
    }

    /// Counts and ranks a match, and keeps it while they are few enough.
    @inline(__always)
    mutating func insert(key: UInt64, index: Int, match: Match) {
      top.insert(key: key, index: index, match: match)
      if matches.count <= estimate { matches.append(Int32(index)) }
    }
  }

  /// Every Hanzi that some name holds (as its units, folded as queries are), ascending.
  private static func distinctHanzi(_ corpus: Corpus) -> [UInt32] {
    var seen = Set<UInt32>()
    for index in 0..<corpus.count {
      for unit in corpus.units(at: index) where Hanzi.isHanzi(unit) { seen.insert(unit) }
    }
    return seen.sorted()
  }

  /// The key of a query of three to ``longestBroadQuery`` characters or of one Hanzi in `mode`:
  /// the mode in bit 41, bit 40 set for a Hanzi, and the Hanzi's scalar value or the letters'
  /// ``LetterKey`` digits in base 37 below them.
  @inline(__always)
  private static func longerKey(_ tokens: [UInt32], mode: MatchMode) -> UInt64 {
    let value =
      tokens.count == 1
      ? 1 << 40 | UInt64(tokens[0]) : tokens.reduce(0) { $0 * 37 + UInt64(LetterKey.digit($1)) }
    return (mode == .syllable ? 0 : 1 << 41) | value
  }

  /// The answer, when `query` is one or two letters or digits, or a query of three to
  /// ``longestBroadQuery`` of them or of one Hanzi whose answer was computed, and `limit` is at
  /// most ``depth``.
  ///
  /// - Complexity: O(limit + log n) for the n answers of three characters or more kept: a
  ///   binary search, a table read and the copy of the hits.
  public func answer(_ query: NormalizedQuery, mode: MatchMode, limit: Int, corpus: Corpus) -> SearchResult? {
    let tokens = query.tokens
    // The answers are of `syllable` queries read with this table's fuzzy rules (MatchSpec §3.5),
    // and, in the table without rules, of `seed` queries, which ignore them.
    guard (1...Self.longestBroadQuery).contains(tokens.count), limit <= Self.depth,
      mode == .seed ? fuzzy.isEmpty : query.fuzzy == fuzzy
    else { return nil }
    let tables = self.tables
    let total: Int
    let first: Int
    let kept: Int
    let longer: Bool
    if tokens.count <= 2 && tokens.allSatisfy(Hanzi.isLatin) {
      let slot = (mode == .syllable ? 0 : 1) * Self.keyCount + Int(LetterKey.of(tokens))
      total = Int(tables.totals[slot])
      (first, kept, longer) = (slot * Self.depth, min(total, Self.depth), false)
    } else if tokens.count >= 3 ? tokens.allSatisfy(Hanzi.isLatin) : tokens.count == 1 && Hanzi.isHanzi(tokens[0]),
      let i = tables.longerAnswer(Self.longerKey(tokens, mode: mode))
    {
      total = Int(tables.longerTotals[i])
      first = Int(tables.longerStarts[i])
      (kept, longer) = (Int(tables.longerStarts[i + 1]) - first, true)
    } else {
      return nil
    }
    // The hits lie inside the tables (checked when read).
    let slots = first..<first + min(max(limit, 0), kept)
    let hits = (longer ? tables.longerPlaces : tables.places).withUnsafeBufferPointer { places in
      (longer ? tables.longerMatches : tables.matches).withUnsafeBufferPointer { matches in
        slots.map { slot -> SearchHit in
          let index = Int(places[slot])
          return SearchHit(index: index, id: corpus.id(at: index), match: Match(bits: matches[slot]))
        }
      }
    }
    return SearchResult(normalized: query, mode: mode, total: total, hits: hits)
  }

  /// How many answers of queries of three characters or more and of one Hanzi are kept (both
  /// modes).
  public var longerCount: Int { tables.longerTotals.count }

  /// The bytes of the tables.
  public var byteCount: Int {
    tables.totals.count * 4 + tables.places.count * 4 + tables.matches.count * 4 + tables.longerKeys.count * 8
      + tables.longerTotals.count * 4 + tables.longerStarts.count * 4 + tables.longerPlaces.count * 4
      + tables.longerMatches.count * 4
  }
}
