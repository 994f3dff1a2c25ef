import CICUShim

/// An ICU failure: the `UErrorCode`, its name, and what was being done.
public struct ICUError: Error, Sendable, CustomStringConvertible {
  /// The `UErrorCode`.
  public let code: Int32
  /// What was being done (`utrans_openU Han-Latin`).
  public let operation: String
  /// ICU's name of the code (`U_INVALID_ID`).
  public var name: String { String(cString: CICUShim_errorName(code)) }
  public var description: String { "ICU \(operation) failed: \(name)" }
}

/// The ICU version the package is linked against (`72.1`).
public var icuVersion: String {
  var info = [UInt8](repeating: 0, count: 4)
  CICUShim_version(&info)
  return "\(info[0]).\(info[1])"
}

/// An ICU transliterator (`utrans`), the engine behind `CFStringTransform` on Apple platforms.
///
/// Not safe to share between threads: ICU transliterators carry mutable state. Each thread
/// (or backend instance) opens its own; the handle is closed in `deinit`.
public final class Transliterator {
  private let handle: OpaquePointer
  /// The id it was opened with (with rules, the name ICU registers them under).
  public let id: String

  /// Opens a system transform by id, such as `Han-Latin; Latin-ASCII`, or compiles `rules`
  /// (ICU rule syntax, for example per-name overrides followed by `::Han-Latin;`).
  public init(id: String, rules: String? = nil) throws {
    let idUnits = Array(id.utf16)
    let ruleUnits = rules.map { Array($0.utf16) }
    var code: Int32 = 0
    var line: Int32 = 0
    var offset: Int32 = 0
    let opened: OpaquePointer? = idUnits.withUnsafeBufferPointer { idBuffer in
      if let ruleUnits {
        return ruleUnits.withUnsafeBufferPointer { ruleBuffer in
          CICUShim_transliterator_open(
            idBuffer.baseAddress!, Int32(idBuffer.count), ruleBuffer.baseAddress, Int32(ruleBuffer.count), &code,
            &line, &offset)
        }
      }
      return CICUShim_transliterator_open(idBuffer.baseAddress!, Int32(idBuffer.count), nil, 0, &code, &line, &offset)
    }
    guard let opened else {
      let at = rules == nil ? "" : " at rule line \(line), offset \(offset)"
      throw ICUError(code: code, operation: "opening transliterator '\(id)'\(at)")
    }
    handle = opened
    self.id = id
  }

  deinit { CICUShim_transliterator_close(handle) }

  /// Transliterates `text`.
  public func transliterate(_ text: String) throws -> String {
    let source = Array(text.utf16)
    var capacity = max(source.count * 4, 32)
    while true {
      var buffer = source + [UInt16](repeating: 0, count: capacity - source.count)
      var code: Int32 = 0
      let length = buffer.withUnsafeMutableBufferPointer { b in
        CICUShim_transliterate(handle, b.baseAddress!, Int32(source.count), Int32(capacity), &code)
      }
      if code == CICUShim_bufferOverflowError() {
        capacity = Int(length) + 16
        continue
      }
      if CICUShim_isFailure(code) != 0 { throw ICUError(code: code, operation: "transliterating with '\(id)'") }
      return String(decoding: buffer[0..<Int(length)], as: UTF16.self)
    }
  }
}
