import CitySearchTestSupport
import Foundation
import Testing

/// The CI snippets of docs/CI.md: each parses as the YAML its server expects, and every
/// `citybench` command in them is one the binary accepts.
@Suite(.timed) struct CIDocsTests {
  /// A node of block-style YAML, the subset the snippets use: mappings, sequences (also of
  /// mappings), plain scalars and `|` literal blocks.
  indirect enum Node: Equatable {
    case scalar(String)
    case map([(String, Node)])
    case sequence([Node])

    static func == (a: Node, b: Node) -> Bool {
      switch (a, b) {
      case (.scalar(let x), .scalar(let y)): x == y
      case (.sequence(let x), .sequence(let y)): x == y
      case (.map(let x), .map(let y)): x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
      default: false
      }
    }

    subscript(key: String) -> Node? {
      if case .map(let pairs) = self { return pairs.first { $0.0 == key }?.1 }
      return nil
    }

    var items: [Node] {
      if case .sequence(let items) = self { return items }
      return []
    }

    var text: String? {
      if case .scalar(let s) = self { return s }
      return nil
    }
  }

  struct YAMLError: Error, CustomStringConvertible {
    let line: Int
    let message: String
    var description: String { "line \(line): \(message)" }
  }

  /// A parser for that subset; anything else (tabs, an indentation that fits no parent, a
  /// duplicate key) is an error with its line.
  struct MiniYAML {
    var lines: [(number: Int, indent: Int, text: String)] = []
    var index = 0

    init(_ source: String) throws {
      for (n, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        if raw.contains("\t") { throw YAMLError(line: n + 1, message: "a tab") }
        let text = raw.drop { $0 == " " }
        if text.isEmpty || text.hasPrefix("#") { continue }
        lines.append((n + 1, raw.count - text.count, String(text)))
      }
    }

    static func parse(_ source: String) throws -> Node {
      var parser = try MiniYAML(source)
      guard let first = parser.lines.first else { return .map([]) }
      let node = try parser.node(indent: first.indent)
      if parser.index < parser.lines.count {
        let line = parser.lines[parser.index]
        throw YAMLError(line: line.number, message: "unexpected indentation")
      }
      return node
    }

    mutating func node(indent: Int) throws -> Node {
      lines[index].text.hasPrefix("- ") || lines[index].text == "-"
        ? try sequence(indent: indent) : try mapping(indent: indent)
    }

    mutating func sequence(indent: Int) throws -> Node {
      var items: [Node] = []
      while index < lines.count, lines[index].indent == indent, lines[index].text.hasPrefix("-") {
        let rest = String(lines[index].text.dropFirst()).drop { $0 == " " }
        if rest.isEmpty {
          index += 1
          guard index < lines.count, lines[index].indent > indent else {
            throw YAMLError(line: lines[index - 1].number, message: "an empty sequence item")
          }
          items.append(try node(indent: lines[index].indent))
        } else if Self.keyValue(String(rest)) != nil {
          // `- key: value` opens a mapping whose keys sit where `key` does.
          let inner = indent + (lines[index].text.count - rest.count)
          lines[index] = (lines[index].number, inner, String(rest))
          items.append(try mapping(indent: inner))
        } else {
          items.append(.scalar(String(rest)))
          index += 1
        }
      }
      return .sequence(items)
    }

    mutating func mapping(indent: Int) throws -> Node {
      var pairs: [(String, Node)] = []
      while index < lines.count, lines[index].indent == indent {
        let line = lines[index]
        guard let (key, value) = Self.keyValue(line.text) else {
          throw YAMLError(line: line.number, message: "not 'key: value': \(line.text)")
        }
        guard !pairs.contains(where: { $0.0 == key }) else {
          throw YAMLError(line: line.number, message: "key '\(key)' twice")
        }
        index += 1
        if value == "|" {
          var block: [String] = []
          while index < lines.count, lines[index].indent > indent {
            block.append(String(repeating: " ", count: lines[index].indent) + lines[index].text)
            index += 1
          }
          let margin = block.map { $0.prefix { $0 == " " }.count }.min() ?? 0
          pairs.append((key, .scalar(block.map { String($0.dropFirst(margin)) }.joined(separator: "\n"))))
        } else if value.isEmpty {
          guard index < lines.count, lines[index].indent > indent else {
            pairs.append((key, .scalar("")))
            continue
          }
          pairs.append((key, try node(indent: lines[index].indent)))
        } else {
          pairs.append((key, .scalar(value)))
        }
      }
      return .map(pairs)
    }

    /// `key: value` or `key:`; a URL-like `a:b` is not a key.
    static func keyValue(_ text: String) -> (String, String)? {
      if text.hasSuffix(":"), !text.contains(": ") { return (String(text.dropLast()), "") }
      guard let range = text.range(of: ": ") else { return nil }
      let key = String(text[..<range.lowerBound])
      guard !key.isEmpty, !key.contains(" ") || key.hasPrefix("\"") else { return nil }
      return (key, String(text[range.upperBound...]).trimmingCharacters(in: .whitespaces))
    }
  }

  /// The fenced `yaml` blocks of docs/CI.md, in order.
  static func yamlBlocks() throws -> [String] {
    let doc = try String(
      contentsOf: CLI.packageRoot.appendingPathComponent("docs/CI.md"), encoding: .utf8)
    var blocks: [String] = []
    var current: [Substring]?
    for line in doc.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```yaml" {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current!.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  /// The arguments of every `citybench` invocation in a shell command line.
  static func citybenchCommands(_ shell: String) -> [[String]] {
    shell.split(separator: "\n").flatMap { $0.components(separatedBy: "&&") }
      .flatMap { $0.components(separatedBy: "||") }
      .compactMap { piece -> [String]? in
        let words = piece.split(separator: " ").map(String.init)
        // The binary (`citybench`, `.build/release/citybench`), not a product name to build.
        guard
          let at = words.indices.first(where: { i in
            (words[i] == "citybench" || words[i].hasSuffix("/citybench")) && (i == 0 || words[i - 1] != "--product")
          })
        else { return nil }
        return Array(words[(at + 1)...])
      }
  }

  @Test func theParserReadsTheSubsetAndRefusesTheRest() throws {
    let node = try MiniYAML.parse(
      "a: 1\nb:\n  - x\n  - k: v\n    l: |\n      one\n      two\nc:\n  d: e\n")
    #expect(node["a"] == .scalar("1"))
    #expect(node["b"]?.items.first == .scalar("x"))
    #expect(node["b"]?.items.last?["l"] == .scalar("one\ntwo"))
    #expect(node["c"]?["d"] == .scalar("e"))
    #expect(throws: YAMLError.self) { try MiniYAML.parse("a: 1\n   b: 2\n") }
    #expect(throws: YAMLError.self) { try MiniYAML.parse("a: 1\na: 2\n") }
    #expect(throws: YAMLError.self) { try MiniYAML.parse("a:\n\t- b\n") }
    #expect(
      Self.citybenchCommands(".build/release/citybench gate --out g || [ $? -eq 3 ]") == [["gate", "--out", "g"]])
    #expect(Self.citybenchCommands("swift build -c release --product citybench").isEmpty)
  }

  @Test func theGitHubWorkflowAndTheGitLabJobAreWellFormed() throws {
    let blocks = try Self.yamlBlocks()
    #expect(blocks.count == 4)
    let github = try MiniYAML.parse(blocks[0])
    #expect(github["on"]?["pull_request"] != nil)
    let job = try #require(github["jobs"]?["gate"])
    #expect(job["runs-on"]?.text?.isEmpty == false)
    let steps = job["steps"]?.items ?? []
    #expect(steps.count >= 4)
    for step in steps { #expect(step["uses"] != nil || step["run"] != nil, "a step without uses or run") }
    #expect(steps.last?["with"]?["path"]?.text?.contains("gate-junit.xml") == true)

    // The pull request against its base: both built, run alternately, compared.
    let compare = try #require(try MiniYAML.parse(blocks[2])["jobs"]?["compare"])
    let runs = compare["steps"]?.items.compactMap { $0["run"]?.text } ?? []
    #expect(runs.contains { $0.contains("git worktree add ../base") })
    #expect(runs.last?.contains("citybench compare base-2/results.json pr-2/results.json") == true)

    let gitlab = try MiniYAML.parse(blocks[3])
    let gate = try #require(gitlab["latency-gate"])
    #expect(gate["image"]?.text?.hasPrefix("swift:") == true)
    #expect(gate["script"]?.items.count == 3)
    #expect(gate["artifacts"]?["reports"]?["junit"]?.items.map(\.text) == ["gate-junit.xml", "conform-junit.xml"])
  }

  /// The matrix runs every shard of one sweep exactly once, and the verdict job merges the
  /// parts the shards upload.
  @Test func theShardMatrixCoversEveryShardOnce() throws {
    let workflow = try MiniYAML.parse(try Self.yamlBlocks()[1])
    let shardJob = try #require(workflow["jobs"]?["shard"])
    let values = try #require(shardJob["strategy"]?["matrix"]?["shard"]?.text)
    let shards = values.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    // The matrix variable as one word, so that the command splits into its arguments.
    let variable = "${{ matrix.shard }}"
    let run = try #require(shardJob["steps"]?.items.compactMap { $0["run"]?.text }.first { $0.contains("--shard") })
    let arguments = try #require(
      Self.citybenchCommands(run.replacingOccurrences(of: variable, with: "MATRIX_SHARD")).first)
    let shard = try #require(arguments.firstIndex(of: "--shard").map { arguments[$0 + 1] })
    #expect(shard == "MATRIX_SHARD/\(shards.count)")
    #expect(shards == (1...shards.count).map(String.init))
    let part = try #require(arguments.firstIndex(of: "--result").map { arguments[$0 + 1] })
    let verdict = try #require(workflow["jobs"]?["verdict"])
    #expect(verdict["needs"]?.text == "shard")
    let merge = try #require(
      verdict["steps"]?.items.compactMap { $0["run"]?.text }.flatMap(Self.citybenchCommands).first {
        $0.first == "merge"
      })
    // `part-*.json` matches every `part-K.json` the shards write and nothing else of theirs.
    let pattern = try #require(merge.first { $0.hasSuffix(".json") && $0.contains("*") })
    #expect(part.replacingOccurrences(of: "MATRIX_SHARD", with: "*") == pattern)
  }

  /// Every documented command parses: the binary accepts its options (with `--help` added,
  /// it parses them all, then prints its usage instead of running).
  @Test func everyDocumentedCommandIsAccepted() throws {
    let blocks = try Self.yamlBlocks().map(MiniYAML.parse)
    var shell: [String] = []
    for step in blocks[0]["jobs"]?["gate"]?["steps"]?.items ?? [] { shell += step["run"]?.text.map { [$0] } ?? [] }
    for job in ["shard", "verdict"] {
      for step in blocks[1]["jobs"]?[job]?["steps"]?.items ?? [] {
        // The matrix's variable as one of its values.
        shell += step["run"]?.text.map { [$0.replacingOccurrences(of: "${{ matrix.shard }}", with: "3")] } ?? []
      }
    }
    for step in blocks[2]["jobs"]?["compare"]?["steps"]?.items ?? [] {
      shell += step["run"]?.text.map { [$0.replacingOccurrences(of: "$round", with: "1")] } ?? []
    }
    shell += (blocks[3]["latency-gate"]?["script"]?.items ?? []).compactMap(\.text)
    let commands = shell.flatMap(Self.citybenchCommands)
    #expect(
      commands.map { $0.first } == [
        "conform", "gate", "history", "history", "conform", "merge", "bench", "bench", "compare", "conform", "gate",
      ])
    for arguments in commands where !arguments.isEmpty {
      let run = try CLI.run(arguments + ["--help"])
      #expect(run.status == 0, "citybench \(arguments.joined(separator: " ")): \(run.stderr)")
      #expect(run.stdout.hasPrefix("Usage: citybench \(arguments[0])"))
    }
  }
}
