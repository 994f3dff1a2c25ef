import CitySearch
import CitySearchBackends
import CitySearchBench
import CitySearchCatalog
import Foundation

let generalUsage = """
  Usage: citybench [<command>] [options]

  With no command, runs the whole suite on the default corpus (cities) with every backend:
  the conformance check, then the latency benchmark; reports go to ./citybench-report/.

  Commands:
    suite      the whole suite (the default)
    bench      the per-keystroke latency benchmark and its reports
    gate       compare a run with the committed baseline (the CI regression gate)
    workload   generate a tier's typing sessions (Benchmarks/*.workload.tsv)
    search     answer queries from a corpus with one backend
    browse     list places in A–Z sections with a hot section first
    corpus     load a corpus and print its size and load time
    conform    check every backend against the reference (the differential check)
    relevance  keystrokes the ranking costs to reach the intended place; the hand-checked cases
    backends   list the search backends; --build measures their build time and memory
    overview   what each backend answers for a few typical queries
    help       show this help, or a command's help ('citybench help search')

  Run 'citybench <command> --help' for a command's options.
  """

/// Writes a line to standard output at once (unbuffered), so a long run's log shows each
/// line as it comes, in order with the lines of other steps.
func emit(_ text: String) {
  FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

func standardError(_ text: String) {
  FileHandle.standardError.write(Data((text + "\n").utf8))
}

func run(_ arguments: [String]) -> Int32 {
  // No command, or options only (`citybench --out DIR`): the whole suite.
  guard let first = arguments.first, !first.hasPrefix("-") || ["--help", "-h"].contains(first) else {
    return run(["suite"] + arguments)
  }
  let command = first
  let rest = Array(arguments.dropFirst())
  let commands: [String: (usage: String, run: ([String]) throws -> Int32)] = [
    "search": (SearchCommand.usage, SearchCommand.run),
    "browse": (BrowseCommand.usage, BrowseCommand.run),
    "corpus": (CorpusCommand.usage, CorpusCommand.run),
    "conform": (ConformCommand.usage, ConformCommand.run),
    "backends": (BackendsCommand.usage, BackendsCommand.run),
    "bench": (BenchCommand.usage, BenchCommand.run),
    "suite": (SuiteCommand.usage, SuiteCommand.run),
    "overview": (OverviewCommand.usage, OverviewCommand.run),
    "workload": (WorkloadCommand.usage, WorkloadCommand.run),
    "gate": (GateCommand.usage, GateCommand.run),
    "relevance": (RelevanceCommand.usage, RelevanceCommand.run),
  ]
  switch command {
  case "help", "--help", "-h":
    if let topic = rest.first {
      guard let entry = commands[topic] else {
        standardError("citybench: unknown command '\(topic)'\n\n\(generalUsage)")
        return 2
      }
      print(entry.usage)
    } else {
      print(generalUsage)
    }
    return 0
  default:
    guard let entry = commands[command] else {
      standardError("citybench: unknown command '\(command)'\n\n\(generalUsage)")
      return 2
    }
    do {
      return try entry.run(rest)
    } catch let error as UsageError {
      standardError("citybench \(command): \(error.message)\n\n\(entry.usage)")
      return 2
    } catch let error as BenchInterrupted {
      standardError("citybench \(command): \(error)")
      return 130
    } catch {
      standardError("citybench \(command): \(error)")
      return 1
    }
  }
}

exit(run(Array(CommandLine.arguments.dropFirst())))
