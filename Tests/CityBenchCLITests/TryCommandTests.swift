import CitySearchTestSupport
import Foundation
import Testing

/// `citybench try`, driven as a script (standard input not a terminal) and in a real terminal
/// (tmux), whose screen is read back.
@Suite(.timed) struct TryCommandTests {
  static let plist = CLI.packageRoot.appendingPathComponent("Tests/CitySearchTests/Fixtures/Cities.plist").path

  @Test func aScriptGetsOneFramePerKeystroke() throws {
    let r = try CLI.run(["try", "--corpus", Self.plist, "--backends", "trie,linear"], input: "bj\u{7F}j\t")
    #expect(r.status == 0, "\(r.stderr)")
    let frames = r.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(frames.count == 6)  // the empty box, then b, bj, b, bj, and Tab
    #expect(frames[0].contains("type pinyin"))
    #expect(frames[2].contains("> bj\n") && frames[2].contains("[北京]"))
    #expect(frames[3].contains("> b\n"))
    #expect(frames[4].contains("> bj\n") && frames[4].contains("showing trie"))
    #expect(frames[5].contains("showing linear"))
    #expect(frames[2].contains("trie ") && frames[2].contains(" · linear "))
    #expect(!r.stdout.contains("\u{1B}"), "no escapes when not a terminal")
  }

  /// On a double-pinyin keyboard the box shows what was typed and its reading, and every
  /// backend is asked the reading, each syllable closed by a boundary: Xiaohe's `bwjk` is
  /// `bei'jing'`, 北京 first.
  @Test func aKeyboardReadsTheBoxAsItsKeyPairs() throws {
    let r = try CLI.run(["try", "--backends", "trie,linear", "--keyboard", "xiaohe"], input: "bwjk")
    #expect(r.status == 0, "\(r.stderr)")
    let frames = r.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(frames.count == 5)
    #expect(frames[0].contains("· xiaohe keyboard ·"))
    #expect(frames[2].contains("> bw  (bei')\n"))
    #expect(frames[4].contains("> bwjk  (bei'jing')\n") && frames[4].contains("1. [北京]"))
    let wrong = try CLI.run(["try", "--keyboard", "xiaohee"], input: "")
    #expect(wrong.status == 64 && wrong.stderr.contains("did you mean 'xiaohe'"), "\(wrong.stderr)")
  }

  /// Ctrl-K reads the same keys on the next keyboard: full pinyin, then each layout in the
  /// tables' order (Xiaohe first), back to full pinyin after the last (Daqian).
  @Test func ctrlKSwitchesTheKeyboard() throws {
    let r = try CLI.run(["try", "--backends", "trie,linear"], input: "bwjk\u{0B}")
    #expect(r.status == 0, "\(r.stderr)")
    let frames = r.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(frames.count == 6)  // the empty box, four keys, Ctrl-K
    #expect(!frames[4].contains("keyboard ·") && frames[4].contains("0 places"), "\(frames[4])")
    #expect(frames[5].contains("· xiaohe keyboard ·") && frames[5].contains("> bwjk  (bei'jing')\n"))
    #expect(frames[5].contains("1. [北京]"), "\(frames[5])")
    let around = try CLI.run(["try", "--backends", "trie", "--keyboard", "daqian"], input: "1o3\u{0B}")
    let last = around.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }.last ?? ""
    #expect(!last.contains("keyboard ·") && last.contains("> 1o3\n"), "\(last)")
  }

  /// Ctrl-F switches the fuzzy rules on and off (all of them without `--fuzzy`): `lanzou` finds
  /// 兰州 only with them, and the header says which rules are on.
  @Test func ctrlFSwitchesFuzzyPinyin() throws {
    let r = try CLI.run(["try", "--backends", "trie,linear"], input: "lanzou\u{06}\u{06}")
    #expect(r.status == 0, "\(r.stderr)")
    let frames = r.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(frames.count == 9)  // the empty box, six letters, Ctrl-F twice
    #expect(frames[6].contains("0 places") && !frames[6].contains("fuzzy all"))
    #expect(frames[7].contains(" · fuzzy all · ") && frames[7].contains("1. [兰州]市"), "\(frames[7])")
    #expect(frames[8].contains("0 places"))
    let given = try CLI.run(["try", "--backends", "trie", "--fuzzy", "n-l"], input: "lanjing")
    #expect(given.stdout.contains(" · fuzzy n-l · ") && given.stdout.contains("1. [南京]市"), "\(given.stdout)")
    // An executor that does not read the rules says so in its column, and the backends go on.
    let mute = try CLI.run(
      ["try", "--backends", "trie", "--fuzzy", "all", "--executor", "x=read h; exit 3"], input: "l")
    #expect(mute.status == 0 && mute.stdout.contains("x failed"), "\(mute.stdout)")
  }

  /// `--cities` and the other scope options: every backend's session answers in the scope.
  @Test func aScopeLimitsEveryBackend() throws {
    let r = try CLI.run(["try", "--backends", "trie,inverted-index,linear", "--cities"], input: "heb\t\t")
    #expect(r.status == 0, "\(r.stderr)")
    let frames = r.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(frames.count == 6)
    for frame in frames[3...] {
      #expect(frame.contains("1. [哈尔滨]") && !frame.contains("河北省"), "\(frame)")
    }
    let refused = try CLI.run(["try", "--cities", "--executor", "x=true"], input: "")
    #expect(refused.status == 64 && refused.stderr.contains("an executor answers every place"))
  }

  @Test func executorsAnswerBesideTheBackendsAndOneThatDidNotStartSaysWhy() throws {
    let r = try CLI.run(
      [
        "try", "--corpus", Self.plist, "--backends", "trie", "--executor",
        "served='\(CLI.binary.path)' serve --backend trie", "--executor", "mute=read h; exit 3",
      ], input: "bj\t\t")
    #expect(r.status == 0, "\(r.stderr)")
    let frames = r.stdout.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(frames.count == 5)  // the empty box, b, bj, then two Tabs
    #expect(frames[2].contains(" · served ") && frames[2].contains(" · mute failed"), "\(frames[2])")
    #expect(frames[3].contains("showing served") && frames[3].contains("[北京]"), "\(frames[3])")
    #expect(frames[4].contains("mute: executor 'mute', handshake: exited: its output ended; exit status 3"))
  }

  static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }

  @Test(.enabled(if: tmux != nil, "needs tmux (Debian: apt-get install tmux)"))
  func inATerminalItHighlightsSwitchesAndRestoresTheTerminal() throws {
    let tmux = try #require(Self.tmux)
    let socket = "citybench-test-\(UUID().uuidString)"
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
    defer { try? FileManager.default.removeItem(at: scratch) }
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let after = scratch.appendingPathComponent("stty.txt").path
    /// Runs a tmux command with posix_spawn (Foundation's `Process` would wait for ever: the
    /// server that the first command starts keeps the descriptors it inherits), its output
    /// through a file.
    func run(_ arguments: [String]) throws -> String {
      let output = scratch.appendingPathComponent("tmux-\(UUID().uuidString).txt").path
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
      let argv = ([tmux, "-L", socket] + arguments).map { strdup($0) } + [nil]
      defer { for pointer in argv { free(pointer) } }
      var pid: pid_t = 0
      guard posix_spawn(&pid, tmux, &actions, nil, argv, environ) == 0 else {
        Issue.record("cannot start tmux")
        return ""
      }
      var status: Int32 = 0
      waitpid(pid, &status, 0)
      return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }
    defer { _ = try? run(["kill-server"]) }
    func screen() throws -> String { try run(["capture-pane", "-p", "-t", "try"]) }
    func waitFor(_ text: String) throws -> String {
      for _ in 0..<600 {
        let shown = try screen()
        if shown.contains(text) { return shown }
        usleep(50_000)
      }
      Issue.record("the screen never showed '\(text)':\n\(try screen())")
      return try screen()
    }
    let command =
      "env -u NO_COLOR TERM=xterm-256color \(CLI.binary.path) try --corpus \(Self.plist) --backends trie,linear; stty -a > \(after)"
    _ = try run(["new-session", "-d", "-s", "try", "-x", "110", "-y", "30", "sh", "-c", command])
    _ = try waitFor("type pinyin")
    _ = try run(["send-keys", "-t", "try", "b", "j"])
    let typed = try waitFor("> bj")
    #expect(typed.contains("北京"))
    #expect(!typed.contains("[北京]"), "highlighted with escapes, not brackets, in a colour terminal")
    #expect(typed.contains("trie ") && typed.contains(" · linear "))
    _ = try run(["send-keys", "-t", "try", "Tab"])
    _ = try waitFor("showing linear")
    _ = try run(["send-keys", "-t", "try", "BSpace"])
    _ = try waitFor("> b▏")
    _ = try run(["send-keys", "-t", "try", "Escape"])
    // The shell runs `stty -a` once citybench has exited; wait for its whole output.
    var settings = ""
    for _ in 0..<200 where !settings.contains("\n") || !settings.contains("icanon") {
      usleep(50_000)
      settings = (try? String(contentsOfFile: after, encoding: .utf8)) ?? ""
    }
    // Line editing and echo are back on after the raw mode.
    let flags = Set(settings.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
    #expect(flags.isSuperset(of: ["icanon", "echo", "isig", "iexten", "icrnl"]), "\(settings)")
  }
}
