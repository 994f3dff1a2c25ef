import CitySearch
import CitySearchBench
import CitySearchCatalog
import Foundation

/// `citybench backends`: lists the backends; with `--build`, builds each on a corpus and
/// reports build time and memory.
enum BackendsCommand: Command {
  static let name = "backends"
  static let summary = "list the search backends; --build measures their build time and memory"

  static let usage = """
    Usage: citybench backends [--details] [--build [options]]

    Lists the search backends; with --details, what each declares in its descriptor: the
    backend options it reads, its variants (checked by 'conform --icu-raw') and the sample a
    conformance run asks it when it is too slow to answer every query. With --build, builds each one on the corpus and prints its
    build time (monotonic clock), the heap it kept (glibc mallinfo2 before and after), the
    bytes its index counts itself, and notes such as the ICU override rules.

    Options:
    \(CorpusOptions.help)
      --details             also list each backend's options, variants and conformance sample
      --build               build every backend and measure it
      --backends A,B        only these backends (default: all)
      --icu-raw             build the ICU backends without override rules
      --options K=V,…       backend options: short-answers=false (trie, inverted-index:
                            skip the precomputed one- and two-letter answers),
                            concurrent-build=false (build on one thread)
      -h, --help            show this help
    """

  static let spec = ParsedArguments.Spec(
    valued: CorpusOptions.valued.union(["--backends", "--options"]), flags: ["--build", "--icu-raw", "--details"],
    maximumPositionals: 0)

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
    var options: BackendOptions
    do {
      options = try BackendOptions(parsing: args["--options"] ?? "")
    } catch let error as BackendOptions.ParseError {
      throw UsageError(message: "--options: \(error.message)")
    }
    if args.has("--icu-raw") { options.icuRaw = true }
    print("\(corpus.source): \(corpus.count) places")
    for type in types {
      let build = try MeasuredBuild.build(type, corpus: corpus, options: options)
      print("\(type.name)\t\(build.summary)")
    }
    return 0
  }

  /// A descriptor's lines, indented, each ending in a newline.
  static func details(_ descriptor: BackendDescriptor) -> String {
    var lines = ["options: " + (descriptor.options.isEmpty ? "none" : descriptor.options.joined(separator: ", "))]
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
