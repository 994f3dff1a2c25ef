import CitySearch
import CitySearchBench
import CitySearchCatalog
import CitySearchCorpus
import CitySearchExecutor
import Foundation

/// `citybench try`: an interactive search box in the terminal.
enum TryCommand: Command {
  static let name = "try"
  static let summary = "an interactive search box: type, and see every backend answer each keystroke"

  static let synopsis = "citybench try [options]"

  static let discussion = """
    A search box in the terminal. After every keystroke: the top 10 places of the backend shown,
    with the matched characters highlighted, the total, and every backend's time for that
    keystroke (each answers in its own typing session, as in an app). Implementations of your own
    run beside them with --executor (docs/Executors.md); their time is their own, measured inside
    them.

    Keys: type to search (pinyin, initials, Hanzi); Backspace deletes; Ctrl-U clears; Tab shows
    the next backend's answer; Ctrl-T switches between syllable and seed mode; Ctrl-F switches
    fuzzy pinyin on and off (the rules of --fuzzy, or all); Ctrl-K switches to the next keyboard
    (full pinyin, then each double-pinyin and Zhuyin layout); Esc, Ctrl-C or Ctrl-D quits. The terminal is put back as it was on exit and on SIGTERM or SIGHUP.

    Plain ANSI output (works over ssh and in tmux); without colour (NO_COLOR, --no-color, or
    TERM=dumb) matched characters are shown in [brackets]. When standard input is not a
    terminal, every character read is a keystroke and a frame is printed after each, for
    scripts and tests.
    """

  static var options: [CommandOption] {
    CorpusOptions.options
      + [
        .value("--backends", "A,B", "the backends to run (default: trie,inverted-index,linear)")
      ]
      + KeyboardArgument.options
      + FuzzyArgument.options
      + [
        .note("(Ctrl-F switches them on and off; an executor that does not read them says so)")
      ]
      + ScopeArguments.options
      + TwoLevelArgument.options
      + [
        .note("(not with --executor)"),
        .repeatable("--executor", "NAME=CMD", "also run a command speaking the executor protocol; repeatable"),
        .flag("--no-color", "no colour or highlighting escapes"),
      ]
  }

  static func run(_ args: ParsedArguments) throws -> Int32 {
    let types = try BackendSelection.select(args["--backends"] ?? "trie,inverted-index,linear")
    guard !types.isEmpty else { throw UsageError(message: "--backends names no backend") }
    let specs = try args.executorSpecs()
    let keyboard = try KeyboardArgument.keyboard(args["--keyboard"])
    let scopeRequest = try ScopeArguments.request(args)
    if !scopeRequest.isEverything && !specs.isEmpty {
      throw UsageError(message: "an executor answers every place: drop --cities, --level and --under")
    }
    let twoLevel = args.has("--two-level")
    if twoLevel && !specs.isEmpty {
      throw UsageError(message: "an executor is not asked for two-level queries: drop --two-level")
    }
    let fuzzy = try FuzzyArgument.rules(args)
    let corpusOptions = CorpusOptions(args)
    let corpus = try corpusOptions.load()
    let scope = try ScopeArguments.scope(scopeRequest, in: corpus)
    let backends = try types.map { try $0.init(corpus: corpus, options: BackendOptions()) }
    let file = specs.isEmpty ? nil : try corpusOptions.file()
    let environment = ProcessInfo.processInfo.environment
    let colour =
      !args.has("--no-color") && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
      && Terminal.isInteractive
    // Every player in the executor seat, made again for each mode (an executor's handshake
    // names one mode); one that does not start is shown failed.
    let names = types.map { $0.name } + specs.map(\.name)
    var box = SearchBox(
      corpus: corpus, corpusName: corpusOptions.name, names: names, colour: colour,
      interactive: Terminal.isInteractive, keyboard: keyboard, layouts: try EmbeddedCorpus.keyboards(), fuzzy: fuzzy
    ) { mode, rules in
      backends.map {
        $0.executor(name: type(of: $0).name, mode: mode, limit: 10, scope: scope, fuzzy: rules, twoLevel: twoLevel)
      }
        + specs.map { spec -> any Executor in
          let start = ExternalStart.start(
            spec, corpus: corpus, path: file!.path, format: file!.format, mode: mode, limit: 10, fuzzy: rules)
          return start.executor ?? FailedExecutor(name: spec.name, failure: start.failure ?? "did not start")
        }
    }
    let terminal = Terminal()
    if box.interactive { terminal.enterRawMode() }
    defer { terminal.restore() }
    terminal.write(box.frame(columns: terminal.columns))
    var pending: [UInt8] = []
    while let bytes = terminal.read() {
      pending += bytes
      let (keys, rest) = Key.parse(pending, interactive: box.interactive)
      pending = rest
      for key in keys {
        if key == .quit { return ExitStatus.success }
        box.handle(key)
        terminal.write(box.frame(columns: terminal.columns))
      }
    }
    return ExitStatus.success
  }
}

/// A keystroke of the search box.
enum Key: Equatable {
  case character(Character)
  case backspace, clear, nextBackend, toggleMode, toggleFuzzy, nextKeyboard, quit

  /// The keys in `bytes`, and the bytes of an unfinished UTF-8 character to keep for later.
  /// Escape sequences (arrow keys and the like) are skipped; a lone Esc quits.
  static func parse(_ bytes: [UInt8], interactive: Bool) -> (keys: [Key], rest: [UInt8]) {
    var keys: [Key] = []
    var i = 0
    while i < bytes.count {
      let byte = bytes[i]
      switch byte {
      case 0x1B:
        if i + 1 < bytes.count && (bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O")) {
          i += 2
          while i < bytes.count && !(0x40...0x7E).contains(bytes[i]) { i += 1 }
          i += 1
          continue
        }
        keys.append(.quit)
      case 0x03, 0x04: keys.append(.quit)
      case 0x7F, 0x08: keys.append(.backspace)
      case 0x15: keys.append(.clear)
      case 0x09: keys.append(.nextBackend)
      case 0x14: keys.append(.toggleMode)
      case 0x06: keys.append(.toggleFuzzy)
      case 0x0B: keys.append(.nextKeyboard)
      case 0x0A, 0x0D: if !interactive { keys.append(.clear) }  // a script's next line: a new query
      case ..<0x20: break
      default:
        let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        guard i + length <= bytes.count else { return (keys, Array(bytes[i...])) }
        if let text = String(validating: bytes[i..<i + length], as: UTF8.self), let c = text.first {
          keys.append(.character(c))
        }
        i += length
        continue
      }
      i += 1
    }
    return (keys, [])
  }
}

/// The state of the search box and how it draws itself.
struct SearchBox {
  let corpus: Corpus
  let corpusName: String
  /// The players' names, in order.
  let names: [String]
  let colour: Bool
  let interactive: Bool
  /// The keyboards Ctrl-K goes through: full pinyin (`nil`), then every layout.
  let keyboards: [Keyboard?]
  /// The keyboard the box is typed on now (first `--keyboard`), as an index of `keyboards`.
  var keyboardIndex: Int
  /// The keyboard the box is typed on now; `nil` for full pinyin.
  var keyboard: Keyboard? { keyboards[keyboardIndex] }
  var mode = MatchMode.syllable
  /// The fuzzy rules Ctrl-F switches on (`--fuzzy`, else all), and whether they are on.
  let fuzzyChoice: FuzzyRules
  var fuzzyOn: Bool
  var text = ""
  var shown = 0
  /// The rules every player reads the box with now.
  var fuzzy: FuzzyRules { fuzzyOn ? fuzzyChoice : [] }
  /// What a set of players answers in: a mode and fuzzy rules.
  private struct Setting: Hashable {
    var mode: MatchMode
    var fuzzy: FuzzyRules
  }
  /// Makes every player for a mode and fuzzy rules.
  private let makePlayers: (MatchMode, FuzzyRules) -> [any Executor]
  /// The players of each setting used so far (an external executor keeps its process).
  private var players: [Setting: [any Executor]] = [:]
  private var setting: Setting { Setting(mode: mode, fuzzy: fuzzy) }
  private var answers: [Result<ExecutorAnswer, Error>] = []

  init(
    corpus: Corpus, corpusName: String, names: [String], colour: Bool, interactive: Bool,
    keyboard: Keyboard? = nil, layouts: [Keyboard] = [], fuzzy: FuzzyRules = [],
    makePlayers: @escaping (MatchMode, FuzzyRules) -> [any Executor]
  ) {
    let keyboards = [nil] + (layouts.isEmpty ? keyboard.map { [$0] } ?? [] : layouts)
    self.keyboards = keyboards
    self.keyboardIndex = keyboards.firstIndex { $0 == keyboard } ?? 0
    self.fuzzyChoice = fuzzy.isEmpty ? .all : fuzzy
    self.fuzzyOn = !fuzzy.isEmpty
    self.corpus = corpus
    self.corpusName = corpusName
    self.names = names
    self.colour = colour
    self.interactive = interactive
    self.makePlayers = makePlayers
    restart()
  }

  /// New sessions (for a new mode or rules), answering the current text from scratch.
  private mutating func restart() {
    let setting = self.setting
    if players[setting] == nil { players[setting] = makePlayers(setting.mode, setting.fuzzy) }
    for player in players[setting]! { try? player.startSession() }
    answers = []
    if !text.isEmpty { answer() }
  }

  /// What the players are asked: the box's text, read through the keyboard when there is one.
  var query: String { keyboard?.read(text) ?? text }

  private mutating func answer() {
    let query = self.query
    answers = players[setting]!.map { player in Result { try player.answer(query) } }
  }

  mutating func handle(_ key: Key) {
    switch key {
    case .character(let c):
      text.append(c)
      answer()
    case .backspace:
      guard !text.isEmpty else { return }
      text.removeLast()
      if text.isEmpty { restart() } else { answer() }
    case .clear:
      text = ""
      restart()
    case .nextBackend: shown = (shown + 1) % names.count
    case .toggleMode:
      mode = mode == .syllable ? .seed : .syllable
      restart()
    case .toggleFuzzy:
      fuzzyOn.toggle()
      restart()
    case .nextKeyboard:
      // The same keys read on the next layout, as a new search.
      keyboardIndex = (keyboardIndex + 1) % keyboards.count
      restart()
    case .quit: break
    }
  }

  /// The whole screen for the current state, cut to `columns`.
  func frame(columns: Int) -> String {
    let name = { (i: Int) in names[i] }
    let board = keyboard.map { " · \($0.name) keyboard" } ?? ""
    let rules = fuzzy.isEmpty ? "" : " · fuzzy \(fuzzy)"
    var lines = [
      "citybench try · \(corpusName) · \(mode) mode\(board)\(rules) · showing \(name(shown)) · Tab backend, Ctrl-T mode, Ctrl-F fuzzy, Ctrl-K keyboard, Esc quit",
      "> \(text)" + (interactive ? "▏" : "") + (keyboard != nil && !text.isEmpty ? "  (\(query))" : ""),
    ]
    if text.isEmpty {
      lines.append("  type pinyin (beijing), initials (bj), Hanzi (北京) or a mix")
    } else if answers.indices.contains(shown) {
      let times = answers.indices.map { i in
        switch answers[i] {
        case .success(let answer): "\(name(i)) \(Formatting.duration(nanoseconds: Double(answer.nanoseconds)))"
        case .failure: "\(name(i)) failed"
        }
      }
      let result: SearchResult
      switch answers[shown] {
      case .success(let answer): result = answer.result
      case .failure(let error):
        lines.append("  " + times.joined(separator: " · "))
        lines.append("  \(name(shown)): \(error)")
        return finish(lines, columns: columns)
      }
      lines.append("  \(result.total) place\(result.total == 1 ? "" : "s") · " + times.joined(separator: " · "))
      for (rank, hit) in result.hits.prefix(10).enumerated() {
        let path = corpus.pathNames(to: hit.index).dropLast().joined(separator: " › ")
        let reading = corpus.pinyin(at: hit.index).joined(separator: " ")
        lines.append(
          "  \(String(rank + 1).leftPadded(2)). \(highlighted(corpus.name(at: hit.index), hit.match.start..<hit.match.end))  \(reading)\(path.isEmpty ? "" : "  \(path)")"
        )
      }
    }
    return finish(lines, columns: columns)
  }

  /// The screen of `lines`: cleared and cut to `columns` in a terminal, else a frame.
  private func finish(_ lines: [String], columns: Int) -> String {
    let body = lines.map { interactive ? cut($0, to: columns) : $0 }.joined(separator: "\n")
    return interactive ? "\u{1B}[H\u{1B}[2J" + body : body + "\n\n"
  }

  /// The name with its matched characters bold and underlined, or in brackets without colour.
  func highlighted(_ name: String, _ range: Range<Int>) -> String {
    let characters = Array(name)
    guard range.lowerBound >= 0, range.upperBound <= characters.count, !range.isEmpty else { return name }
    let before = String(characters[..<range.lowerBound])
    let matched = String(characters[range])
    let after = String(characters[range.upperBound...])
    return colour ? "\(before)\u{1B}[1;4m\(matched)\u{1B}[0m\(after)" : "\(before)[\(matched)]\(after)"
  }

  /// A line cut to the terminal's width (wide characters count two columns; escapes none).
  func cut(_ line: String, to columns: Int) -> String {
    var width = 0
    var out = ""
    var inEscape = false
    for c in line {
      if c == "\u{1B}" { inEscape = true }
      if inEscape {
        out.append(c)
        if c.isLetter { inEscape = false }
        continue
      }
      let w = String(c).terminalColumns
      if width + w > columns { break }
      width += w
      out.append(c)
    }
    return out + (colour ? "\u{1B}[0m" : "")
  }
}

/// An implementation that did not start, in the executor seat: every answer throws why.
final class FailedExecutor: Executor {
  let name: String
  let capabilities = ExecutorCapabilities()
  let failure: ExecutorError?
  /// Why it did not start, as the start reported it.
  private let reason: CommandError

  init(name: String, failure: String) {
    self.name = name
    self.failure = ExecutorError(
      executor: name, query: nil, error: WireError(kind: .exited, message: "did not start"), received: nil)
    reason = CommandError(message: failure)
  }

  func startSession() throws { throw reason }
  func answer(_ text: String) throws -> ExecutorAnswer { throw reason }
  func answerAlone(_ text: String) throws -> ExecutorAnswer { throw reason }
}
