import Testing

@testable import citybench

/// The options each command declares: its parser and its `--help` are generated from them, so
/// what is checked here is what the generation cannot see by itself.
@Suite(.timed) struct CommandOptionTests {
  /// An option declared twice (by a shared group and by the command, say) would be parsed once
  /// and documented twice, with two helps that may disagree.
  @Test func noCommandDeclaresAnOptionTwice() {
    for command in CityBench.commands {
      let names = command.options.filter { $0.kind != .note }.flatMap { [$0.name] + $0.aliases }
      let repeated = Dictionary(grouping: names, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
      #expect(repeated.isEmpty, "\(command.name) declares \(repeated) more than once")
    }
  }

  /// Every option the parser takes is in the usage, but for the hidden ones; the lines of the
  /// options fit the terminal width but for a word longer than the help column.
  @Test func usageShowsEveryOptionWithinTheWidth() {
    for command in CityBench.commands {
      let usage = command.usage
      for option in command.options where option.kind != .note && !option.hidden {
        #expect(usage.contains("\n  \(option.name)"), "\(command.name): \(option.name) is not in its usage")
      }
      let block = usage.split(separator: "\n").drop { $0 != "Options:" }.prefix { !$0.isEmpty }
      for line in block where line.count > CommandOption.width {
        let longest = line.split(separator: " ").map(\.count).max() ?? 0
        #expect(
          longest > CommandOption.width - CommandOption.helpColumn || line.hasPrefix("  -"),
          "\(command.name): '\(line)' is \(line.count) characters")
      }
    }
  }

  @Test func wrapBreaksBetweenWordsAndKeepsIndentation() {
    #expect(CommandOption.wrap("aa bb cc", width: 5) == ["aa bb", "cc"])
    #expect(CommandOption.wrap("x\n  aa bb cc", width: 7) == ["x", "  aa bb", "  cc"])
    #expect(CommandOption.wrap("abcdefgh ij", width: 4) == ["abcdefgh", "ij"])
  }

  /// An alias is parsed as the option it stands for.
  @Test func aliasesParseAsTheirOption() throws {
    let parsed = try ParsedArguments(["--icu-sample", "7"], spec: ConformCommand.spec)
    #expect(parsed["--slow-sample"] == "7")
  }
}
