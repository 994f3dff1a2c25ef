import CitySearch
import CitySearchBench
import Foundation

/// The command list, the general help and the version: what `citybench` itself answers.
enum CityBench {
  /// Every command, in the order the general help lists them.
  static var commands: [any Command.Type] {
    [
      SuiteCommand.self, BenchCommand.self, GateCommand.self, CompareCommand.self, FiguresCommand.self,
      WorkloadCommand.self,
      SearchCommand.self,
      BrowseCommand.self, CorpusCommand.self, IndexCommand.self, ConformCommand.self, MergeCommand.self,
      HistoryCommand.self,
      InstructionsCommand.self, AllocationsCommand.self,
      RelevanceCommand.self,
      BackendsCommand.self,
      OverviewCommand.self, TryCommand.self, ServeCommand.self, HelpCommand.self,
    ]
  }

  /// The version of the package, and of the match contract its reference implements.
  static let packageVersion = "2.0.0"

  /// One line per command: its name, padded to the longest, and its summary.
  static var commandList: String {
    let width = commands.map { $0.name.count }.max() ?? 0
    return commands.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
      .joined(separator: "\n")
  }

  static var generalUsage: String {
    """
    Usage: citybench [<command>] [options]
           citybench --version

    With no command, runs the whole suite on the default corpus (cities) with every backend:
    the conformance check, then the latency benchmark; reports go to ./citybench-report/.

    Commands:
    \(commandList)

    Run 'citybench help <command>' or 'citybench <command> --help' for a command's options.

    Exit status: 0 success; 1 a failure (bad input, a divergence, a failed check; the message
    names the file, line and problem); 64 a usage error; 130 interrupted; 'gate' also 2 for a
    regression and 3 for an inconclusive verdict.
    """
  }

  /// `citybench --version`: the package version, and the commit of the checkout the binary was
  /// built in when it can be found.
  static func versionText() -> String {
    let checkout = CorpusOptions(directory: nil).packageDirectory
    return
      "citybench \(packageVersion) (match contract \(MatchContract.version); commit \(RunEnvironment.gitCommit(in: checkout)))"
  }
}
