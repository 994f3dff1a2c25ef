import CitySearch
import CitySearchBench
import CitySearchCatalog
import CitySearchEngine
import CitySearchExecutor
import Foundation

/// `citybench backends`: lists the backends; with `--build`, builds each on a corpus and
/// reports build time and memory.
enum BackendsCommand: Command {
  static let name = "backends"
  static let summary = "list the search backends; --build measures their build time and memory"

  static let synopsis = "citybench backends [--details] [--build [options]]"

  static let discussion = """
    Lists the search backends; with --details, what each declares in its descriptor: the
    backend options it reads, its variants (checked by 'conform --variants') and the sample a
    conformance run asks it when it is too slow to answer every query. With --build, builds each one on the corpus and prints its
    build time (monotonic clock), the heap it kept (glibc mallinfo2 before and after), the
    bytes its index counts itself, and notes such as the ICU override rules; for a backend whose
    index can be saved (citybench index build), also the index file's size and how long it takes
    to write, to open mapped (as an app opens the file it ships) and to answer a first query that
    walks ('beijing').
    """

  static var options: [CommandOption] {
    CorpusOptions.options
      + [
        .flag(
          "--details",
          "also list each backend's own options (besides concurrent-build, which every backend takes), variants and conformance sample"
        ),
        .flag("--build", "build every backend and measure it"),
        .value("--backends", "A,B", "only these backends (default: all)"),
      ]
      + BackendOptionArguments.options
  }

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let types = try BackendSelection.select(args["--backends"])
    guard args.has("--build") else {
      for backend in types {
        print("\(backend.name)\t\(backend.summary)")
        if args.has("--details") { print(details(backend.descriptor), terminator: "") }
      }
      return 0
    }
    let corpus = try CorpusOptions(args).load()
    let options = try BackendOptionArguments.parse(args)
    print("\(corpus.source): \(corpus.count) places")
    for type in types {
      let build = try MeasuredBuild.build(type, corpus: corpus, options: options)
      print("\(type.name)\t\(build.summary)")
      if let archivable = build.backend as? any ArchivableBackend { print("\t" + (try indexFileRoundTrip(archivable))) }
    }
    return 0
  }

  /// A built backend's index written as an index file (`IndexFile`) to a temporary file, opened
  /// back from it as an app opens a file it ships (mapped, `IndexFile.open(contentsOf:as:tables:)`)
  /// and asked a first query that walks (not a precomputed one): the size and each step's time,
  /// in one line. The file is removed afterwards.
  static func indexFileRoundTrip<B: ArchivableBackend>(_ backend: B) throws -> String {
    var started = MonotonicClock.now()
    let data = IndexFile.data(of: backend)
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("citybench-\(getpid())-\(B.name).index").path
    try AtomicFile.write(data, to: path)
    // Removed at the end: a mapped file may be removed while mapped (the mapping keeps its pages).
    defer { try? FileManager.default.removeItem(atPath: path) }
    let written = IndexCommand.seconds(since: started)
    started = MonotonicClock.now()
    let opened = try IndexFile.open(contentsOf: path, as: B.self, tables: backend.corpus.tables)
    let open = IndexCommand.seconds(since: started)
    started = MonotonicClock.now()
    let answer = opened.search(firstQuery, mode: .syllable, limit: 20)
    let first = IndexCommand.seconds(since: started)
    return
      "index file \(megabytes(data.count)): written in \(IndexCommand.milliseconds(written)), mapped and opened in "
      + "\(IndexCommand.milliseconds(open)), first answer ('\(firstQuery)', \(answer.total) matches) in "
      + IndexCommand.duration(first)
  }

  /// The query a backend opened from its index file answers first: a walk, not a table read.
  static let firstQuery = "beijing"

  /// A descriptor's lines, indented, each ending in a newline.
  static func details(_ descriptor: BackendDescriptor) -> String {
    var lines = descriptor.options.map { "option \($0.listing)" }
    if lines.isEmpty { lines = ["options: none of its own"] }
    for variant in descriptor.variants {
      lines.append("variant: -\(variant.suffix) (\(variant.options)): \(variant.summary)")
    }
    if !descriptor.conformanceSample.isEmpty {
      let tiers = CorpusTier.allCases.compactMap { tier in
        descriptor.conformanceSample[tier].map { "\(tier.rawValue) \($0)" }
      }
      lines.append("conformance sample: " + tiers.joined(separator: ", ") + " queries")
    }
    return lines.map { "  \($0)\n" }.joined()
  }
}
