import CitySearch

/// `citybench browse`: the children of a place as a city picker lists them.
enum BrowseCommand: Command {
  static let name = "browse"
  static let summary = "list places in A–Z sections with a hot section first"

  static let synopsis = "citybench browse [options] [PLACE]"

  static let discussion = """
    Prints the children of PLACE (a name, a short name, an id, or a path such as
    北京市/朝阳区; the provinces when omitted) in A–Z sections by pinyin initial, with a
    热门 (hot) section first.
    """

  static var options: [CommandOption] {
    CorpusOptions.options
      + [
        .value("--level", "N", "list every place of level N (1 province … 5 village) instead"),
        .flag(
          "--cities",
          "list a city picker's cities instead: every prefecture-level division, the municipalities and SARs, and the county-level cities a province administers directly"
        ),
        .value("--filter", "QUERY", "keep only places that match QUERY (empty sections drop)"),
        .value("--mode", "syllable|seed", "the match contract for --filter (default: syllable)"),
      ]
  }

  static let maximumPositionals = 1

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let mode = try args.choice("--mode", default: MatchMode.syllable)
    let level = args["--level"] == nil ? nil : try args.integer("--level", default: 0, range: 1...5)
    let cities = args.has("--cities")
    if [level != nil, !args.positionals.isEmpty, cities].filter({ $0 }).count > 1 {
      throw UsageError(message: "give one of PLACE, --level and --cities")
    }
    let options = CorpusOptions(args)
    let corpus = try options.load()
    let tier = CorpusTier(rawValue: options.corpus)

    let places: [Int]
    if cities {
      places = corpus.cityIndices
    } else if let level {
      places = (0..<corpus.count).filter { corpus.level(at: $0).rawValue == level }
    } else if let name = args.positionals.first {
      let found = corpus.lookup(name)
      guard !found.isEmpty else {
        throw CommandError(
          message: "no place named '\(name)' in \(corpus.source)" + largerTierHint(name, above: tier, options: options))
      }
      guard found.count == 1 else {
        let listed = found.prefix(10).map {
          "  \(corpus.id(at: $0))  \(corpus.pathNames(to: $0).joined(separator: "/"))"
        }
        throw CommandError(
          message: "'\(name)' names \(found.count) places; give an id or a path:\n" + listed.joined(separator: "\n"))
      }
      places = corpus.children(of: found[0])
    } else {
      places = corpus.rootIndices
    }

    var list = SectionedList(corpus: corpus, places: places)
    if let filter = args["--filter"] {
      let backend = LinearScanBackend(corpus: corpus)
      let all = backend.search(filter, mode: mode, limit: corpus.count)
      list = list.filtered(keeping: Set(all.hits.map(\.index)))
    }
    for section in list.sections {
      print("\(section.title)")
      for index in section.places {
        let pinyin = corpus.pinyin(at: index).joined(separator: " ")
        print("  \(corpus.name(at: index))  \(pinyin)  #\(corpus.id(at: index))")
      }
    }
    let listed = list.sections.filter { !$0.isHot }.reduce(0) { $0 + $1.places.count }
    print("\(listed) place\(listed == 1 ? "" : "s")")
    // A county of `cities` or a township of `towns` has its children in the next tier.
    if let name = args.positionals.first, places.isEmpty, let tier, let next = tier.next,
      let place = corpus.lookup(name).first, corpus.level(at: place) < .village
    {
      print(
        "\(corpus.name(at: place)) has no children in '\(tier.rawValue)'; they are in '\(next.rawValue)': citybench browse --corpus \(next.rawValue) \(name)"
      )
    }
    return 0
  }

  /// "; it is in the 'towns' tier: …" when the next larger tier than `tier` has a place called
  /// `name`, else "". Loads that tier, on this error path only.
  private static func largerTierHint(_ name: String, above tier: CorpusTier?, options: CorpusOptions) -> String {
    guard let larger = tier?.next, let directory = CorpusDirectory.locate(explicit: options.explicitDirectory),
      let corpus = try? directory.load(larger), !corpus.lookup(name).isEmpty
    else { return "" }
    return "; it is in the '\(larger.rawValue)' tier: citybench browse --corpus \(larger.rawValue) \(name)"
  }
}
