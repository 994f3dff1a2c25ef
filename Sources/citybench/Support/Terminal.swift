import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The terminal of an interactive command: raw keystrokes in, whole frames out, and the
/// terminal's settings put back on every way out (a normal return, SIGTERM, SIGHUP).
///
/// Raw mode turns off line editing, echo and the signal keys, so Ctrl-C arrives as a byte the
/// command handles; output processing stays on, so `\n` still starts a new line (plain ANSI,
/// which works over ssh and in tmux).
final class Terminal {
  /// Whether standard input and output are both terminals.
  static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

  private var saved = termios()
  private var raw = false
  private var signalSources: [DispatchSourceSignal] = []

  /// Puts the terminal in raw mode (when it is one) until ``restore()`` or the end of the process.
  func enterRawMode() {
    guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
    var settings = saved
    settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
    settings.c_iflag &= ~tcflag_t(IXON | ICRNL)
    withUnsafeMutableBytes(of: &settings.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings) == 0 else { return }
    raw = true
    Terminal.active = self
    atexit { Terminal.active?.restore() }
    for signal in [SIGTERM, SIGHUP] {
      Foundation.signal(signal, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signal, queue: .main)
      source.setEventHandler {
        Terminal.active?.restore()
        exit(128 + signal)
      }
      source.resume()
      signalSources.append(source)
    }
    write("\u{1B}[?25l")  // hide the cursor while frames are drawn
  }

  /// Puts back the settings the terminal had, and the cursor.
  func restore() {
    guard raw else { return }
    raw = false
    write("\u{1B}[?25h\n")
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
  }

  deinit { restore() }

  /// The terminal's width in columns (80 when it cannot tell).
  var columns: Int {
    var size = winsize()
    return ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
  }

  /// Reads what is available (at least one byte); `nil` at the end of input.
  func read() -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 256)
    while true {
      let n = Glibc.read(STDIN_FILENO, &buffer, buffer.count)
      if n > 0 { return Array(buffer[..<n]) }
      if n < 0 && errno == EINTR { continue }
      return nil
    }
  }

  func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  nonisolated(unsafe) static var active: Terminal?
}
