import CitySearch
import Foundation

/// What `citybench conform` found, as a file (`--result FILE`): the settings that make up the
/// run, and per tier, backend and mode the counts, the first unexpected divergences and the
/// places involved. The shards of one run (`--shard K/N`) each write one; ``merged(_:)`` joins
/// them into exactly the result of the unsharded run (but for the seconds spent).
public struct ConformanceResult: Codable, Sendable, Equatable {
  /// The `kind` of every conformance result file (a bench `results.json` has none).
  public static let fileKind = "citybench-conformance"
  /// The layout version of the files this build writes; readers refuse others.
  public static let currentSchemaVersion = 1

  /// What makes two results parts of one run: equal settings.
  public struct Settings: Codable, Sendable, Equatable {
    /// A tier the run checked, named and identified by its content.
    public struct Tier: Codable, Sendable, Equatable {
      /// The tier's name (`cities`, `towns`, `villages`).
      public var name: String
      /// How many places the tier holds.
      public var places: Int
      /// `Corpus/checksum`-style digest of the tier's content.
      public var checksum: String

      /// A tier from its name, its place count and its content's digest.
      public init(name: String, places: Int, checksum: String) {
        self.name = name
        self.places = places
        self.checksum = checksum
      }
    }

    /// The tiers checked, in order.
    public var tiers: [Tier]
    /// The match modes checked (`syllable`, `seed`).
    public var modes: [String]
    /// Backend labels, in the order checked (`icu-raw` variants included).
    public var backends: [String]
    /// Distinct queries per sampled tier (`--sample`).
    public var sample: Int
    /// The seed of the query sample (`--seed`).
    public var seed: Int
    /// On `cities`, the stride over places whose forms are queried (`--every`; 1 for all).
    public var every: Int
    /// The queries per tier and mode that the slow `icu` backend answers (`--icu-sample`);
    /// `nil` for the default.
    public var slowSample: Int?
    /// A digest of the expected-failures file's content (`none` without one).
    public var expectedFailures: String
    /// The commit the binary was built from (`-dirty` with uncommitted changes).
    public var gitCommit: String
    /// `release` or `debug`.
    public var buildConfiguration: String
    /// The scope every answer was asked for (`PlaceScope.Request`'s text, MatchSpec §9.1);
    /// `nil` for every place.
    public var scope: String?
    /// The fuzzy rules every query was read with (`FuzzyRules`' text, MatchSpec §3.5); `nil`
    /// for none.
    public var fuzzy: String?
    /// The keyboard the targets were typed on (MatchSpec §2.10); `nil` for full pinyin.
    public var keyboard: String?
    /// Whether every query was read as a two-level query too (MatchSpec §9.2); `nil` when not.
    public var twoLevel: Bool?

    /// Settings from their parts, as `citybench conform` records them.
    public init(
      tiers: [Tier], modes: [String], backends: [String], sample: Int, seed: Int, every: Int, slowSample: Int?,
      expectedFailures: String, gitCommit: String, buildConfiguration: String
    ) {
      self.tiers = tiers
      self.modes = modes
      self.backends = backends
      self.sample = sample
      self.seed = seed
      self.every = every
      self.slowSample = slowSample
      self.expectedFailures = expectedFailures
      self.gitCommit = gitCommit
      self.buildConfiguration = buildConfiguration
    }

    /// The settings that differ from `other`, each as `name: mine ≠ theirs`.
    public func differences(from other: Settings) -> [String] {
      func field<T: Equatable>(_ name: String, _ mine: T, _ theirs: T) -> String? {
        mine == theirs ? nil : "\(name): \(mine) ≠ \(theirs)"
      }
      let tierText = { (tiers: [Tier]) in tiers.map { "\($0.name) (\($0.places), \($0.checksum))" } }
      return [
        field("tiers", tierText(tiers), tierText(other.tiers)), field("modes", modes, other.modes),
        field("backends", backends, other.backends), field("sample", sample, other.sample),
        field("seed", seed, other.seed), field("every", every, other.every),
        field("icu sample", slowSample.map(String.init) ?? "default", other.slowSample.map(String.init) ?? "default"),
        field("expected failures", expectedFailures, other.expectedFailures),
        field("commit", gitCommit, other.gitCommit),
        field("build configuration", buildConfiguration, other.buildConfiguration),
      ].compactMap { $0 }
    }
  }

  /// One unexpected divergence as reported: where, and the reproduction to print.
  public struct ReportedDivergence: Codable, Sendable, Equatable {
    /// ``Divergence/position``: the order of divergences, the same in every shard.
    public var position: Int
    /// The search box's text when the answers differed.
    public var query: String
    /// For a session divergence, the texts typed before it (oldest first); empty when stateless.
    public var typed: [String]
    /// The lines printed for it: the command to reproduce it and the answers side by side.
    public var reproduction: String

    /// A reported divergence from its position, query, typed texts and reproduction.
    public init(position: Int, query: String, typed: [String], reproduction: String) {
      self.position = position
      self.query = query
      self.typed = typed
      self.reproduction = reproduction
    }
  }

  /// The input-cost bound of a fuzzed run (never sharded: the bound is a median over every query).
  public struct InputCostCheck: Codable, Sendable, Equatable {
    /// The line that reports the bound: the median ratio and the slowest queries.
    public var summary: String
    /// Whether every query stayed within the bound.
    public var withinBound: Bool

    /// A check of the bound from its summary line and its outcome.
    public init(summary: String, withinBound: Bool) {
      self.summary = summary
      self.withinBound = withinBound
    }
  }

  /// One backend on one tier in one mode.
  public struct Check: Codable, Sendable, Equatable {
    /// The tier's name.
    public var tier: String
    /// The backend's label (`trie`, `icu-raw`, …).
    public var backend: String
    /// The match mode.
    public var mode: String
    /// Why the backend could not be built; the counts are zero then.
    public var buildError: String?
    /// The first error the backend's executor threw during the check, which fails it.
    public var executorError: String?
    /// Distinct queries this check answered stateless (in a shard, its slice of them).
    public var statelessChecked = 0
    /// Distinct queries of the tier's whole query set.
    public var statelessTotal = 0
    /// Keystrokes replayed through the backend's typing session.
    public var keystrokesChecked = 0
    /// Why sessions were not replayed, when they were not.
    public var sessionNote: String?
    /// Divergences the expected failures accept.
    public var expectedCount = 0
    /// Divergences they do not accept: each fails the run.
    public var unexpectedCount = 0
    /// The first unexpected divergences by position (at most ``BackendOutcome/keptDivergences``).
    public var divergences: [ReportedDivergence] = []
    /// Every place that took part in a divergence, expected or not, ascending.
    public var culprits: [PlaceID] = []
    /// The wall time the check took, in seconds.
    public var seconds: Double = 0
    /// The input-cost bound of a fuzzed run (`--fuzz`); `nil` otherwise.
    public var inputCost: InputCostCheck?

    /// A backend that failed to build.
    public init(tier: String, backend: String, mode: String, buildError: String) {
      self.tier = tier
      self.backend = backend
      self.mode = mode
      self.buildError = buildError
    }

    /// The check of `outcome`; `reproduce` renders a divergence's reproduction.
    public init(
      tier: String, outcome: BackendOutcome, seconds: Double, reproduce: (Divergence) -> String
    ) {
      self.tier = tier
      backend = outcome.backend
      mode = outcome.mode.rawValue
      statelessChecked = outcome.statelessChecked
      statelessTotal = outcome.statelessTotal
      keystrokesChecked = outcome.keystrokesChecked
      sessionNote = outcome.sessionNote
      expectedCount = outcome.expectedCount
      unexpectedCount = outcome.unexpectedCount
      divergences = outcome.unexpected.map {
        ReportedDivergence(position: $0.position, query: $0.query, typed: $0.typed, reproduction: reproduce($0))
      }
      culprits = outcome.culprits.sorted()
      executorError = outcome.executorError
      self.seconds = seconds
    }

    /// Whether the check fails the run: a failed build, an unexpected divergence or a query over
    /// the input-cost bound.
    public var failed: Bool {
      buildError != nil || executorError != nil || unexpectedCount > 0 || inputCost?.withinBound == false
    }

    /// The line `citybench conform` prints for it, in a shard or in a whole run.
    public func line(shard: Shard? = nil) -> String {
      if let buildError { return "\(backend): build failed: \(buildError)" }
      let queries =
        if let shard {
          "\(statelessChecked) queries in shard \(shard) of \(statelessTotal)"
        } else if statelessChecked == statelessTotal {
          "\(statelessChecked) queries"
        } else {
          "\(statelessChecked) of \(statelessTotal) queries (even sample)"
        }
      let sessions = sessionNote.map { "sessions: \($0)" } ?? "\(keystrokesChecked) session keystrokes"
      var status: [String] = []
      if expectedCount == 0 && unexpectedCount == 0 && executorError == nil { status.append("conforms") }
      if expectedCount > 0 { status.append("\(expectedCount) expected failures") }
      if unexpectedCount > 0 { status.append("\(unexpectedCount) UNEXPECTED divergences") }
      if let executorError { status.append("FAILED: \(executorError)") }
      return "  \(mode.padding(toLength: 8, withPad: " ", startingAt: 0)) \(queries), \(sessions): "
        + status.joined(separator: ", ")
    }
  }

  /// The places an expected-failures file lists for a backend on a tier, when the run
  /// exercised all of them: each must take part in some divergence (else it is an unexpected pass).
  public struct ListedPlaces: Codable, Sendable, Equatable {
    /// The tier's name.
    public var tier: String
    /// The backend's label.
    public var backend: String
    /// The listed places, ascending.
    public var places: [PlaceID]

    /// The listed places of `backend` on `tier`.
    public init(tier: String, backend: String, places: [PlaceID]) {
      self.tier = tier
      self.backend = backend
      self.places = places
    }
  }

  /// ``fileKind``: tells a conformance result from other JSON files.
  public var kind = Self.fileKind
  /// The layout version the file was written in.
  public var schemaVersion = Self.currentSchemaVersion
  /// The settings of the run; shards of one run have equal settings.
  public var settings: Settings
  /// The slice this result holds; `nil` for a whole run (unsharded, or merged).
  public var shard: Shard?
  /// How many shards were merged into it: 1 for an unsharded run.
  public var mergedShards = 1
  /// One check per tier, backend and mode, in the order run.
  public var checks: [Check] = []
  /// The listed places of each backend on each tier that the run exercised whole.
  public var listedPlaces: [ListedPlaces] = []

  /// An empty result of a run with `settings`, holding `shard` (`nil` for a whole run).
  public init(settings: Settings, shard: Shard?) {
    self.settings = settings
    self.shard = shard
  }

  /// An unexpected pass: a listed place of `backend` on `tier` that no divergence involved.
  public struct UnexpectedPasses: Sendable, Equatable {
    /// The tier's name.
    public var tier: String
    /// The backend's label.
    public var backend: String
    /// The listed places no divergence involved, ascending.
    public var places: [PlaceID]
  }

  /// The listed places that took part in no divergence, per tier and backend (none when
  /// every listed place was seen). Only meaningful for a whole run.
  public var unexpectedPasses: [UnexpectedPasses] {
    listedPlaces.compactMap { listed in
      let seen = Set(checks.filter { $0.tier == listed.tier && $0.backend == listed.backend }.flatMap(\.culprits))
      let passes = listed.places.filter { !seen.contains($0) }
      return passes.isEmpty ? nil : UnexpectedPasses(tier: listed.tier, backend: listed.backend, places: passes)
    }
  }

  /// Whether anything failed: a build, an unexpected divergence, the input-cost bound, or (for a
  /// whole run) an unexpected pass.
  public var failed: Bool { checks.contains(where: \.failed) || (shard == nil && !unexpectedPasses.isEmpty) }

  // MARK: Files

  /// A result file that cannot be read or merged: the reason, naming the file.
  public struct FileError: Error, CustomStringConvertible {
    public let description: String
  }

  /// The JSON text, keys sorted, so equal results are equal files.
  public func jsonData() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self) + Data("\n".utf8)
  }

  /// Reads a result written by ``jsonData()``; `name` is how errors call it.
  public init(jsonData data: Data, name: String) throws {
    struct Header: Decodable {
      var kind: String?
      var schemaVersion: Int?
    }
    guard let header = try? JSONDecoder().decode(Header.self, from: data) else {
      throw FileError(description: "\(name): not a JSON object")
    }
    guard header.kind == Self.fileKind else {
      throw FileError(
        description: "\(name): not a conformance result (kind \(header.kind.map { "'\($0)'" } ?? "absent"))")
    }
    guard header.schemaVersion == Self.currentSchemaVersion else {
      throw FileError(
        description:
          "\(name): schema version \(header.schemaVersion.map(String.init) ?? "absent"), this build reads \(Self.currentSchemaVersion)"
      )
    }
    do {
      self = try JSONDecoder().decode(Self.self, from: data)
    } catch {
      throw FileError(description: "\(name): malformed conformance result: \(error)")
    }
  }

  // MARK: Merging

  /// Joins the shards of one run into its whole result: counts and seconds add up, the
  /// divergences keep the first ``BackendOutcome/keptDivergences`` by position, the places
  /// involved unite. Refuses (naming the file and the reason) parts of different runs, a whole
  /// run among them, a shard missing or given twice, and fuzzed parts.
  ///
  /// - Parameter parts: each part with the name errors call it by.
  /// - Complexity: O(total divergences × log) plus the culprits' union.
  public static func merged(_ parts: [(name: String, result: ConformanceResult)]) throws -> ConformanceResult {
    guard let (firstName, first) = parts.first else { throw FileError(description: "no parts to merge") }
    var seen: [Int: String] = [:]
    for (name, part) in parts {
      guard let shard = part.shard else {
        throw FileError(description: "\(name) is a whole run, not a shard (written without --shard)")
      }
      let differences = part.settings.differences(from: first.settings)
      guard differences.isEmpty else {
        throw FileError(
          description: "\(name) is not a shard of the same run as \(firstName): " + differences.joined(separator: "; "))
      }
      guard shard.count == first.shard!.count else {
        throw FileError(
          description: "\(name) is shard \(shard) but \(firstName) is shard \(first.shard!): different shard counts")
      }
      if let other = seen[shard.index] {
        throw FileError(description: "\(name) and \(other) are both shard \(shard)")
      }
      seen[shard.index] = name
      guard part.checks.map(\.key) == first.checks.map(\.key) else {
        throw FileError(description: "\(name) checked other backends, tiers or modes than \(firstName)")
      }
      if part.checks.contains(where: { $0.inputCost != nil }) {
        throw FileError(description: "\(name) is a fuzzed run, whose input-cost bound cannot be merged")
      }
    }
    let count = first.shard!.count
    let missing = (1...count).filter { seen[$0] == nil }
    guard missing.isEmpty else {
      throw FileError(
        description:
          "shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing"
      )
    }
    var whole = ConformanceResult(settings: first.settings, shard: nil)
    whole.mergedShards = count
    whole.listedPlaces = first.listedPlaces
    whole.checks = first.checks.indices.map { i in
      let slices = parts.map { $0.result.checks[i] }
      var check = slices[0]
      if let failed = slices.first(where: { $0.buildError != nil }) { return failed }
      check.statelessChecked = slices.reduce(0) { $0 + $1.statelessChecked }
      check.keystrokesChecked = slices.reduce(0) { $0 + $1.keystrokesChecked }
      check.expectedCount = slices.reduce(0) { $0 + $1.expectedCount }
      check.unexpectedCount = slices.reduce(0) { $0 + $1.unexpectedCount }
      check.seconds = slices.reduce(0) { $0 + $1.seconds }
      check.divergences = Array(
        slices.flatMap(\.divergences).sorted { $0.position < $1.position }.prefix(BackendOutcome.keptDivergences))
      check.culprits = slices.reduce(into: Set<PlaceID>()) { $0.formUnion($1.culprits) }.sorted()
      check.executorError = slices.lazy.compactMap(\.executorError).first
      return check
    }
    return whole
  }
}

extension ConformanceResult.Check {
  /// What identifies a check within a run.
  fileprivate var key: String { "\(tier)\t\(backend)\t\(mode)" }
}
