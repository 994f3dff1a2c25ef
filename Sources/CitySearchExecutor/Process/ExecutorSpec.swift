/// An executor named on the command line: `NAME=COMMAND` (`--executor pinin='python3 x.py'`).
public struct ExecutorSpec: Sendable, Hashable {
  /// The name reports show.
  public var name: String
  /// The command, run by `/bin/sh -c`.
  public var command: String

  /// An executor `name` running `command`.
  public init(name: String, command: String) {
    self.name = name
    self.command = command
  }

  /// Parses `NAME=COMMAND`.
  ///
  /// - Throws: ``WireError`` (`malformed`) naming what is missing.
  public init(parsing text: String) throws {
    guard let equals = text.firstIndex(of: "=") else {
      throw WireError(kind: .malformed, message: "'\(text)' is not NAME=COMMAND")
    }
    let name = String(text[..<equals]).trimmingSpaces
    let command = String(text[text.index(after: equals)...]).trimmingSpaces
    guard !name.isEmpty, !command.isEmpty else {
      throw WireError(
        kind: .malformed, message: "'\(text)' is not NAME=COMMAND: the \(name.isEmpty ? "name" : "command") is empty")
    }
    self.init(name: name, command: command)
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}
