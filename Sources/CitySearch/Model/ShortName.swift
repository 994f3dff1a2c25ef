/// The short-name rule of MatchSpec §5.1: a name less its administrative suffix, and less the
/// ethnic names before 自治 (延边朝鲜族自治州 → 延边), kept only where at least two units remain;
/// a name that is an ethnic group's name alone keeps it without 族 (鄂温克族自治旗 → 鄂温克).
public enum ShortName {
  /// Administrative suffixes, longest first so that 自治州 wins over 州-less forms. 苏木 and 嘎查
  /// are the township and village of Inner Mongolia.
  static let suffixes: [[UInt32]] = [
    "特别行政区", "自治区", "自治州", "自治县", "自治旗", "民族乡", "民族镇", "嘎查村", "地区", "林区", "特区",
    "新区", "街道", "社区", "苏木", "嘎查", "省", "市", "县", "区", "旗", "盟", "镇", "乡", "村",
  ].map(scalars)

  /// The 56 officially recognized ethnic groups (names without 族), and 各 of 各族.
  static let ethnicGroups: [[UInt32]] = [
    "汉", "蒙古", "回", "藏", "维吾尔", "苗", "彝", "壮", "布依", "朝鲜", "满", "侗", "瑶", "白", "土家",
    "哈尼", "哈萨克", "傣", "黎", "傈僳", "佤", "畲", "高山", "拉祜", "水", "东乡", "纳西", "景颇",
    "柯尔克孜", "土", "达斡尔", "仫佬", "羌", "布朗", "撒拉", "毛南", "仡佬", "锡伯", "阿昌", "普米",
    "塔吉克", "怒", "乌孜别克", "俄罗斯", "鄂温克", "德昂", "保安", "裕固", "京", "塔塔尔", "独龙",
    "鄂伦春", "赫哲", "门巴", "珞巴", "基诺", "各",
  ].map(scalars).sorted { $0.count > $1.count }

  static let zu = UInt32(("族" as Unicode.Scalar).value)
  static let zi = UInt32(("自" as Unicode.Scalar).value)
  static let min = UInt32(("民" as Unicode.Scalar).value)

  private static func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

  /// The number of leading units of `name` that form its short name (the whole name when the
  /// rule does not apply).
  ///
  /// ```swift
  /// ShortName.length(of: "延边朝鲜族自治州")  // 2 (延边)
  /// ShortName.length(of: "单县")              // 2 (stays 单县)
  /// ```
  public static func length(of name: String) -> Int { length(ofUnits: scalars(name)) }

  /// ``length(of:)`` for a name given as Unicode scalar values.
  public static func length(ofUnits units: [UInt32]) -> Int {
    let whole = units.count
    guard let suffix = suffixes.first(where: { units.count > $0.count && units.suffix($0.count).elementsEqual($0) })
    else { return whole }
    var end = whole - suffix.count
    guard end >= 2 else { return whole }
    let autonomous = suffix.first == zi || suffix.first == min
    if autonomous || units[end - 1] == zu {
      end = strippingEthnicNames(units, end: end, allowBare: autonomous)
    }
    return end
  }

  /// Strips trailing `X族` runs (and, before 自治, bare group names of two or more characters
  /// such as 哈萨克) while at least two units would remain. A head that is one group's `X族`
  /// alone, X of two or more units, becomes X.
  private static func strippingEthnicNames(_ units: [UInt32], end: Int, allowBare: Bool) -> Int {
    if units[end - 1] == zu, end - 1 >= 2,
      ethnicGroups.contains(where: { $0.count == end - 1 && units[0..<end - 1].elementsEqual($0) })
    {
      return end - 1
    }
    var end = end
    while true {
      let head = units[0..<end]
      var next: Int?
      for group in ethnicGroups {
        if head.last == zu, head.dropLast().suffix(group.count).elementsEqual(group), end - group.count - 1 >= 2 {
          next = end - group.count - 1
        } else if allowBare, group.count >= 2, head.suffix(group.count).elementsEqual(group), end - group.count >= 2 {
          next = end - group.count
        }
        if next != nil { break }
      }
      guard let n = next else { return end }
      end = n
    }
  }
}
