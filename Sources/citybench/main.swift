import CitySearch
import CitySearchBench
import CitySearchCatalog
import Foundation

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
  guard let first = arguments.first, !first.hasPrefix("-") || ["--help", "-h", "--version"].contains(first) else {
    return run(["suite"] + arguments)
  }
  let rest = Array(arguments.dropFirst())
  switch first {
  case "--version":
    print(CityBench.versionText())
    return ExitStatus.success
  case "--help", "-h":
    return run(["help"] + rest)
  default:
    break
  }
  guard let command = CityBench.commands.first(where: { $0.name == first }) else {
    standardError("citybench: unknown command '\(first)'\nRun 'citybench help' for the list of commands.")
    return ExitStatus.usage
  }
  do {
    let status = try command.main(rest)
    // A Ctrl-C that came too late to stop the run still ends it as interrupted.
    if Interruption.shared.isRequested {
      standardError("citybench \(command.name): interrupted after the run had finished; its output is complete")
      return ExitStatus.interrupted
    }
    return status
  } catch let error as UsageError {
    standardError("citybench \(command.name): \(error.message)\nRun 'citybench \(command.name) --help' for usage.")
    return ExitStatus.usage
  } catch let error as BenchInterrupted {
    standardError("citybench \(command.name): \(error)")
    return ExitStatus.interrupted
  } catch {
    standardError("citybench \(command.name): \(error)")
    return ExitStatus.failure
  }
}

/// Unblocks the signals that end a run. A parent may start the process with them blocked
/// (Foundation's `Process` on Linux blocks nearly every signal in its children), and a blocked
/// SIGINT or SIGTERM would be silently held until the run had finished and written its reports.
func unblockTerminationSignals() {
  var set = sigset_t()
  sigemptyset(&set)
  for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&set, signal) }
  sigprocmask(SIG_UNBLOCK, &set, nil)
}

unblockTerminationSignals()
exit(run(Array(CommandLine.arguments.dropFirst())))
