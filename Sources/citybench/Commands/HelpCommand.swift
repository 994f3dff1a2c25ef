/// `citybench help [COMMAND]`.
enum HelpCommand: Command {
  static let name = "help"
  static let summary = "show this help, or a command's help ('citybench help search')"
  static let synopsis = "citybench help [COMMAND]"

  static let discussion = """
    Shows the list of commands, or the options of COMMAND (as 'citybench COMMAND --help').
    """
  static let maximumPositionals = 1

  static func run(_ arguments: ParsedArguments) throws -> Int32 {
    guard let topic = arguments.positionals.first else {
      print(CityBench.generalUsage)
      return ExitStatus.success
    }
    guard let command = CityBench.commands.first(where: { $0.name == topic }) else {
      throw UsageError(message: "unknown command '\(topic)'")
    }
    print(command.usage)
    return ExitStatus.success
  }
}
