import CSQLite

/// A failed SQLite call: the result code, SQLite's message, and what was being done.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
  public let code: Int32
  public let message: String
  public let operation: String
  public var description: String { "SQLite \(operation) failed (\(code)): \(message)" }
}

/// The SQLite library version (`3.40.1`).
public var sqliteVersion: String { String(cString: sqlite3_libversion()) }

/// The bytes SQLite has allocated, process-wide (`sqlite3_memory_used`).
var sqliteMemoryUsed: Int64 { sqlite3_memory_used() }

/// One SQLite connection; every C call of the package goes through this file. Closed in `deinit`.
/// Not thread-safe: its owner serializes access.
final class SQLiteDatabase {
  fileprivate let handle: OpaquePointer

  /// Opens a private in-memory database.
  init() throws {
    var db: OpaquePointer?
    let code = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
    guard code == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close(db)
      throw SQLiteError(code: code, message: message, operation: "opening an in-memory database")
    }
    handle = db
  }

  deinit { sqlite3_close_v2(handle) }

  /// Runs one or more statements that return no rows.
  func execute(_ sql: String) throws {
    let code = sqlite3_exec(handle, sql, nil, nil, nil)
    try check(code, "executing '\(sql.prefix(60))'")
  }

  func prepare(_ sql: String) throws -> SQLiteStatement { try SQLiteStatement(database: self, sql: sql) }

  fileprivate func check(_ code: Int32, _ operation: @autoclosure () -> String) throws {
    guard code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW else {
      throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), operation: operation())
    }
  }
}

/// A prepared statement, finalized in `deinit`.
final class SQLiteStatement {
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

  /// Binds parameters (1-based, in order): `Int` as an integer, `String` as text.
  func bind(_ values: [any Sendable]) throws {
    try database.check(sqlite3_reset(handle), "resetting '\(sql)'")
    for (i, value) in values.enumerated() {
      let code: Int32
      switch value {
      case let int as Int: code = sqlite3_bind_int64(handle, Int32(i + 1), Int64(int))
      case let text as String:
        // SQLITE_TRANSIENT: SQLite copies the text before this call returns.
        code = sqlite3_bind_text(handle, Int32(i + 1), text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
      default: code = SQLITE_MISUSE
      }
      try database.check(code, "binding parameter \(i + 1) of '\(sql)'")
    }
  }

  /// Runs the statement to completion (for inserts).
  func run(_ values: [any Sendable]) throws {
    try bind(values)
    try database.check(sqlite3_step(handle), "running '\(sql)'")
  }

  /// Runs a query and calls `body` with the first column of each row as an integer.
  func forEachInteger(_ values: [any Sendable], _ body: (Int64) -> Void) throws {
    try bind(values)
    while true {
      let code = sqlite3_step(handle)
      if code == SQLITE_DONE { return }
      try database.check(code, "stepping '\(sql)'")
      body(sqlite3_column_int64(handle, 0))
    }
  }
}
