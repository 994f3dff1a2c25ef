import CSQLite

/// A failed SQLite call: the result code, SQLite's message, and what was being done.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
  /// SQLite's result code.
  public let code: Int32
  /// SQLite's message (`sqlite3_errmsg`).
  public let message: String
  /// What was being done (`prepare SELECT …`).
  public let operation: String
  public var description: String { "SQLite \(operation) failed (\(code)): \(message)" }
}

/// The SQLite library version (`3.40.1`).
public var sqliteVersion: String { String(cString: sqlite3_libversion()) }

/// The bytes SQLite has allocated, process-wide (`sqlite3_memory_used`).
package var sqliteMemoryUsed: Int64 { sqlite3_memory_used() }

/// One SQLite connection; every C call of the package goes through this file. Closed in `deinit`.
/// Not thread-safe: its owner serializes access.
package final class SQLiteDatabase {
  fileprivate let handle: OpaquePointer

  /// Opens a private in-memory database.
  package convenience init() throws {
    try self.init(opening: ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, what: "an in-memory database")
  }

  /// Opens the database file at `path`, creating it when `create` is set. The connection
  /// waits up to `busyTimeout` seconds for another writer's lock.
  package convenience init(path: String, create: Bool, busyTimeout: Double = 5) throws {
    let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
    try self.init(opening: path, flags: flags, what: "'\(path)'")
    sqlite3_busy_timeout(handle, Int32(busyTimeout * 1000))
  }

  private init(opening name: String, flags: Int32, what: String) throws {
    var db: OpaquePointer?
    let code = sqlite3_open_v2(name, &db, flags, nil)
    guard code == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(db)
      throw SQLiteError(code: code, message: message, operation: "opening \(what)")
    }
    handle = db
  }

  deinit { sqlite3_close_v2(handle) }

  /// Runs one or more statements that return no rows.
  package func execute(_ sql: String) throws {
    let code = sqlite3_exec(handle, sql, nil, nil, nil)
    try check(code, "executing '\(sql.prefix(60))'")
  }

  package func prepare(_ sql: String) throws -> SQLiteStatement { try SQLiteStatement(database: self, sql: sql) }

  /// Runs `body` in one transaction (`BEGIN IMMEDIATE`): committed when it returns, rolled
  /// back when it throws, so a failure leaves the database as it was.
  package func transaction<T>(_ body: () throws -> T) throws -> T {
    try execute("BEGIN IMMEDIATE")
    do {
      let value = try body()
      try execute("COMMIT")
      return value
    } catch {
      sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
      throw error
    }
  }

  /// The rowid of the last row inserted on this connection.
  package var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  fileprivate func check(_ code: Int32, _ operation: @autoclosure () -> String) throws {
    guard code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW else {
      throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), operation: operation())
    }
  }
}

/// A value of a result column.
package enum SQLiteValue: Sendable, Equatable {
  case integer(Int64)
  case real(Double)
  case text(String)
  case null

  package var text: String? { if case .text(let s) = self { s } else { nil } }
  package var integer: Int64? { if case .integer(let n) = self { n } else { nil } }
  /// An integer or real column as a double.
  package var real: Double? {
    switch self {
    case .real(let x): x
    case .integer(let n): Double(n)
    default: nil
    }
  }
}

/// A prepared statement, finalized in `deinit`.
package final class SQLiteStatement {
  private let database: SQLiteDatabase
  private let handle: OpaquePointer
  private let sql: String

  fileprivate init(database: SQLiteDatabase, sql: String) throws {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    try database.check(code, "preparing '\(sql)'")
    guard let statement else {
      throw SQLiteError(code: code, message: "empty statement", operation: "preparing '\(sql)'")
    }
    self.database = database
    self.handle = statement
    self.sql = sql
  }

  deinit { sqlite3_finalize(handle) }

  /// Binds parameters (1-based, in order): `Int` and `Int64` as integers, `Double` as a real,
  /// `String` as text, ``SQLiteValue/null`` as NULL.
  package func bind(_ values: [any Sendable]) throws {
    try database.check(sqlite3_reset(handle), "resetting '\(sql)'")
    for (i, value) in values.enumerated() {
      let code: Int32
      switch value {
      case let int as Int: code = sqlite3_bind_int64(handle, Int32(i + 1), Int64(int))
      case let int as Int64: code = sqlite3_bind_int64(handle, Int32(i + 1), int)
      case let real as Double: code = sqlite3_bind_double(handle, Int32(i + 1), real)
      case let value as SQLiteValue where value == .null: code = sqlite3_bind_null(handle, Int32(i + 1))
      case let text as String:
        // SQLITE_TRANSIENT: SQLite copies the text before this call returns.
        code = sqlite3_bind_text(handle, Int32(i + 1), text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
      default: code = SQLITE_MISUSE
      }
      try database.check(code, "binding parameter \(i + 1) of '\(sql)'")
    }
  }

  /// Runs the statement to completion (for inserts).
  package func run(_ values: [any Sendable]) throws {
    try bind(values)
    try database.check(sqlite3_step(handle), "running '\(sql)'")
  }

  /// Runs a query and returns every row, each column as its ``SQLiteValue``.
  package func rows(_ values: [any Sendable] = []) throws -> [[SQLiteValue]] {
    try bind(values)
    var rows: [[SQLiteValue]] = []
    while true {
      let code = sqlite3_step(handle)
      if code == SQLITE_DONE { return rows }
      try database.check(code, "stepping '\(sql)'")
      rows.append(
        (0..<sqlite3_column_count(handle)).map { column in
          switch sqlite3_column_type(handle, column) {
          case SQLITE_INTEGER: .integer(sqlite3_column_int64(handle, column))
          case SQLITE_FLOAT: .real(sqlite3_column_double(handle, column))
          case SQLITE_NULL: .null
          default: .text(sqlite3_column_text(handle, column).map { String(cString: $0) } ?? "")
          }
        })
    }
  }

  /// Runs a query and calls `body` with the first column of each row as an integer.
  package func forEachInteger(_ values: [any Sendable], _ body: (Int64) -> Void) throws {
    try bind(values)
    while true {
      let code = sqlite3_step(handle)
      if code == SQLITE_DONE { return }
      try database.check(code, "stepping '\(sql)'")
      body(sqlite3_column_int64(handle, 0))
    }
  }
}
