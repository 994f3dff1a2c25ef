import CitySearchBench
import Foundation
import SQLiteSupport

/// A history file that cannot be used: what went wrong, naming the file.
public struct HistoryError: Error, CustomStringConvertible {
  public let description: String

  /// An error that says `description`.
  public init(_ description: String) { self.description = description }
}

/// Bench runs kept across commits in one SQLite database file (`citybench history`): each
/// run's commit, date, machine, settings, every figure per backend, and its `results.json`.
///
/// Runs are only comparable with runs of the same *series*: the same corpus, workload, mode,
/// limit, rounds, warm-up, budget, build configuration, reference and kind of machine.
///
/// ```swift
/// let store = try HistoryStore(path: "history.sqlite", create: true)
/// let outcomes = try store.add([("results.json", results, data)])
/// ```
public final class HistoryStore {
  /// The layout version, in the `meta` table; a file of another version is refused.
  public static let schemaVersion = 1

  /// The database file.
  public let path: String
  private let database: SQLiteDatabase

  /// Opens the history at `path`; with `create`, makes the file and its tables when missing.
  public init(path: String, create: Bool) throws {
    self.path = path
    if !create && !FileManager.default.fileExists(atPath: path) {
      throw HistoryError("\(path): no such history (add a run first: citybench history add results.json)")
    }
    do {
      database = try SQLiteDatabase(path: path, create: create)
      try database.execute("PRAGMA foreign_keys = ON")
      let tables = try database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").rows()
      if tables.isEmpty {
        guard create else { throw HistoryError("\(path): not a citybench history (no meta table)") }
        // Another process may make the tables between the check above and this transaction
        // (two jobs adding to one new history at once): the check is made again under the lock.
        try database.transaction {
          let made = try database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'")
            .rows()
          if made.isEmpty { try database.execute(Self.schema) }
        }
      }
      let version = try database.prepare("SELECT value FROM meta WHERE key = 'schema'").rows().first?.first?.text
      guard version == String(Self.schemaVersion) else {
        throw HistoryError(
          "\(path): history schema version \(version ?? "absent"), this build reads \(Self.schemaVersion)")
      }
    } catch let error as SQLiteError {
      throw HistoryError("\(path): \(error.message) (\(error.operation))")
    }
  }

  static let schema = """
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO meta VALUES ('schema', '\(schemaVersion)');
    CREATE TABLE runs(
      id INTEGER PRIMARY KEY,
      git_commit TEXT NOT NULL,
      started_at TEXT NOT NULL,
      added_at TEXT NOT NULL,
      machine TEXT NOT NULL,
      machine_description TEXT NOT NULL,
      series TEXT NOT NULL,
      series_description TEXT NOT NULL,
      digest TEXT NOT NULL UNIQUE,
      results TEXT NOT NULL
    );
    CREATE INDEX runs_by_series ON runs(series, started_at);
    CREATE TABLE metrics(
      run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
      backend TEXT NOT NULL,
      metric TEXT NOT NULL,
      value REAL NOT NULL,
      lower REAL,
      upper REAL,
      PRIMARY KEY (run, backend, metric)
    );
    """

  /// What adding one file did.
  public enum AddOutcome: Sendable, Equatable {
    /// Stored as run `run`, with `metrics` figures.
    case added(run: Int, metrics: Int)
    /// The same results were stored before, as run `run`; nothing changed.
    case duplicate(run: Int)
  }

  /// Adds runs in one transaction: all of them or, when one fails, none. A file stored before
  /// (the same bytes) is skipped. A shard of a run is refused (merge the shards first), and so
  /// is a run with injected work (`--inject-slowdown`, the gate's self-tests): the history
  /// keeps real runs only.
  public func add(_ runs: [(name: String, results: BenchResults, data: Data)]) throws -> [AddOutcome] {
    for (name, results, _) in runs {
      if let shard = results.metadata.shard {
        throw HistoryError(
          "\(name) is shard \(shard.index)/\(shard.count) of a run: merge its shards first (citybench merge)")
      }
      guard results.backends.contains(where: { $0.latency != nil }) else {
        throw HistoryError("\(name) measures no keystroke")
      }
      let m = results.metadata
      if !m.slowdownNanoseconds.isEmpty || !(m.injectedInstructionIterations ?? [:]).isEmpty {
        let injected = (m.slowdownNanoseconds.keys.sorted() + (m.injectedInstructionIterations ?? [:]).keys.sorted())
        throw HistoryError(
          "\(name) is not a real run: it injects work into \(Set(injected).sorted().joined(separator: ", ")) (a self-test of the gate); the history keeps real runs only"
        )
      }
    }
    do {
      return try database.transaction {
        let find = try database.prepare("SELECT id FROM runs WHERE digest = ?")
        let insertRun = try database.prepare(
          """
          INSERT INTO runs(git_commit, started_at, added_at, machine, machine_description, series,
            series_description, digest, results) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
          """)
        let insertMetric = try database.prepare(
          "INSERT INTO metrics(run, backend, metric, value, lower, upper) VALUES (?, ?, ?, ?, ?, ?)")
        let addedAt = RunEnvironment.timestamp(Date())
        var outcomes: [AddOutcome] = []
        for (_, results, data) in runs {
          var hash = FNV1a64()
          hash.add(bytes: data)
          if let known = try find.rows([hash.hex]).first?.first?.integer {
            outcomes.append(.duplicate(run: Int(known)))
            continue
          }
          let m = results.metadata
          let series = HistorySeries(results)
          try insertRun.run([
            m.gitCommit, m.startedAt, addedAt, m.machine.fingerprint,
            "\(m.machine.cpuModel), \(m.machine.cores) cores, \(m.machine.operatingSystem)", series.key,
            series.description, hash.hex, String(decoding: data, as: UTF8.self),
          ])
          let run = database.lastInsertedRowID
          let figures = HistoryMetric.figures(results)
          for figure in figures {
            try insertMetric.run([
              run, figure.backend, figure.metric, figure.value,
              figure.lower.map { $0 as any Sendable } ?? SQLiteValue.null,
              figure.upper.map { $0 as any Sendable } ?? SQLiteValue.null,
            ])
          }
          outcomes.append(.added(run: Int(run), metrics: figures.count))
        }
        return outcomes
      }
    } catch let error as SQLiteError {
      throw HistoryError("\(path): \(error.message) (\(error.operation)); nothing was added")
    }
  }

  /// One stored run.
  public struct Run: Sendable, Equatable {
    /// The run's key in the database.
    public var id: Int
    /// The commit its binary was built from.
    public var gitCommit: String
    /// When it started (ISO 8601, UTC).
    public var startedAt: String
    /// The kind of machine: `RunMetadata.Machine.fingerprint` of the run.
    public var machine: String
    /// The kind of machine, in words.
    public var machineDescription: String
    /// The key of its series: a digest of the settings comparable runs share.
    public var series: String
    /// The series' settings, in words.
    public var seriesDescription: String
  }

  /// Every stored run, oldest first (by the time the run started).
  public func runs() throws -> [Run] {
    try query(
      """
      SELECT id, git_commit, started_at, machine, machine_description, series, series_description
      FROM runs ORDER BY started_at, id
      """
    ).map { row in
      Run(
        id: Int(row[0].integer ?? 0), gitCommit: row[1].text ?? "", startedAt: row[2].text ?? "",
        machine: row[3].text ?? "", machineDescription: row[4].text ?? "", series: row[5].text ?? "",
        seriesDescription: row[6].text ?? "")
    }
  }

  /// Every stored figure, by run id.
  public func figures() throws -> [Int: [HistoryMetric.Figure]] {
    var byRun: [Int: [HistoryMetric.Figure]] = [:]
    for row in try query("SELECT run, backend, metric, value, lower, upper FROM metrics ORDER BY run, backend, metric")
    {
      byRun[Int(row[0].integer ?? 0), default: []].append(
        HistoryMetric.Figure(
          backend: row[1].text ?? "", metric: row[2].text ?? "", value: row[3].real ?? 0, lower: row[4].real,
          upper: row[5].real))
    }
    return byRun
  }

  private func query(_ sql: String) throws -> [[SQLiteValue]] {
    do {
      return try database.prepare(sql).rows()
    } catch let error as SQLiteError {
      throw HistoryError("\(path): \(error.message) (\(error.operation))")
    }
  }
}

/// What makes runs comparable: equal settings on the same kind of machine.
struct HistorySeries {
  let key: String
  let description: String

  init(_ results: BenchResults) {
    let m = results.metadata
    let parts = [
      m.corpus.checksum, m.workload.checksum, m.mode, String(m.limit), String(m.rounds), String(m.warmUpKeystrokes),
      String(format: "%g", m.budgetSeconds), m.buildConfiguration, results.reference, m.machine.fingerprint,
    ]
    // A backend timed on every k-th keystroke is another measurement: runs sampled
    // differently are a series of their own (every keystroke, the usual case, adds nothing).
    let sampled = results.backends.filter { $0.sampling.stride != 1 }.map { "\($0.name) 1 in \($0.sampling.stride)" }
    var hash = FNV1a64()
    for part in parts { hash.add(part) }
    if !sampled.isEmpty { hash.add("sampled: " + sampled.joined(separator: ", ")) }
    key = hash.hex
    description =
      "\(m.corpus.name), \(m.workload.name), \(m.mode) mode, limit \(m.limit), \(m.rounds) rounds, warm-up \(m.warmUpKeystrokes), budget \(String(format: "%g", m.budgetSeconds)) s, \(m.buildConfiguration) build, machine \(m.machine.fingerprint)"
      + (sampled.isEmpty ? "" : ", sampled: \(sampled.joined(separator: ", "))")
  }
}
