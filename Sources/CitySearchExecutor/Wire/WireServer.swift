import Foundation

/// The executor's side of the wire protocol, for an implementation written in Swift: reads
/// the handshake from standard input, lets the implementation build itself, writes its reply,
/// then answers one query line with one answer line until the input ends. `citybench serve`
/// and `citybench-transliteration` are both this loop around their own search.
public enum WireServer {
  /// What an implementation gives once it is built: its reply to the handshake and the
  /// function that answers one query (timing its own search call).
  public typealias Start = (reply: WireHandshake.Reply, answer: (WireQuery) throws -> WireAnswer)

  /// Serves standard input and output with the implementation `start` builds for the
  /// handshake's request. A line that is not a query is answered with an error of id -1;
  /// empty input ends at once.
  ///
  /// - Throws: ``WireError`` (`malformed`) when the first line is not a handshake request,
  ///   (`incompatible`) when it asks another protocol version; what `start` or `answer` throws.
  public static func serve(_ start: (WireHandshake.Request) throws -> Start) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let decoder = JSONDecoder()
    func send(_ value: some Encodable) throws {
      var line = try encoder.encode(value)
      line.append(UInt8(ascii: "\n"))
      FileHandle.standardOutput.write(line)
    }
    guard let first = readLine(strippingNewline: true) else { return }
    let request: WireHandshake.Request
    do {
      request = try decoder.decode(WireHandshake.Request.self, from: Data(first.utf8))
    } catch {
      throw WireError(kind: .malformed, message: "the first line is not a handshake request: \(error)")
    }
    guard request.version == WireProtocol.version else {
      throw WireError(
        kind: .incompatible, message: "protocol \(request.version) asked; this build speaks \(WireProtocol.version)")
    }
    let (reply, answer) = try start(request)
    try send(reply)
    while let line = readLine(strippingNewline: true) {
      guard let query = try? decoder.decode(WireQuery.self, from: Data(line.utf8)) else {
        let error = WireError(kind: .malformed, message: "not a query: \(line.prefix(200))")
        try send(WireAnswer(id: -1, ids: [], total: 0, matches: nil, nanoseconds: 0, error: error))
        continue
      }
      try send(try answer(query))
    }
  }
}
