import CitySearch
import Testing

/// The canonical pinyin of polyphonic county-level-and-above names, checked by hand
/// (Corpus/README.md, "Canonical pinyin").
@Suite struct ReviewedReadingsTests {
  static let readings: [(String, String)] = [
    ("长沙市", "chang sha shi"), ("长春市", "chang chun shi"), ("长治市", "chang zhi shi"), ("长子县", "zhang zi xian"),
    ("长安区", "chang an qu"), ("长宁区", "chang ning qu"), ("延长县", "yan chang xian"),
    ("长白朝鲜族自治县", "chang bai chao xian zu zi zhi xian"),
    ("厦门市", "xia men shi"), ("重庆市", "chong qing shi"), ("六安市", "lu an shi"), ("六合区", "lu he qu"),
    ("六盘水市", "liu pan shui shi"), ("六枝特区", "liu zhi te qu"), ("蚌埠市", "beng bu shi"), ("蚌山区", "beng shan qu"),
    ("漯河市", "luo he shi"), ("朝阳区", "chao yang qu"), ("朝阳市", "chao yang shi"), ("单县", "shan xian"),
    ("乐清市", "yue qing shi"), ("乐亭县", "lao ting xian"), ("乐山市", "le shan shi"), ("乐都区", "le du qu"),
    ("南乐县", "nan le xian"), ("民乐县", "min le xian"), ("成都市", "cheng du shi"), ("都江堰市", "du jiang yan shi"),
    ("丰都县", "feng du xian"), ("三都水族自治县", "san du shui zu zi zhi xian"), ("闵行区", "min hang qu"),
    ("行唐县", "xing tang xian"),
    ("番禺区", "pan yu qu"), ("尉犁县", "yu li xian"), ("尉氏县", "wei shi xian"), ("蔚县", "yu xian"),
    ("栖霞市", "qi xia shi"), ("泌阳县", "bi yang xian"), ("浚县", "xun xian"), ("会理市", "hui li shi"),
    ("洪洞县", "hong tong xian"), ("吴堡县", "wu bu xian"), ("大埔县", "da bu xian"), ("黄埔区", "huang pu qu"),
    ("西藏自治区", "xi zang zi zhi qu"), ("库尔勒市", "ku er le shi"), ("喀什地区", "ka shi di qu"), ("什邡市", "shi fang shi"),
    ("莘县", "shen xian"), ("中牟县", "zhong mou xian"), ("牟平区", "mu ping qu"), ("召陵区", "shao ling qu"),
    ("荥阳市", "xing yang shi"), ("荥经县", "ying jing xian"), ("铅山县", "yan shan xian"), ("涡阳县", "guo yang xian"),
    ("珲春市", "hun chun shi"), ("色达县", "se da xian"), ("扎囊县", "zha nang xian"), ("东阿县", "dong e xian"),
    ("宿州市", "su zhou shi"), ("覃塘区", "tan tang qu"), ("筠连县", "jun lian xian"), ("枞阳县", "zong yang xian"),
    ("犍为县", "qian wei xian"), ("称多县", "chen duo xian"), ("宕昌县", "tan chang xian"), ("石鼓区", "shi gu qu"),
    ("万柏林区", "wan bai lin qu"), ("麦盖提县", "mai gai ti xian"), ("阿里地区", "a li di qu"), ("绿春县", "lv chun xian"),
    ("句容市", "ju rong shi"), ("台州市", "tai zhou shi"), ("天台县", "tian tai xian"), ("繁峙县", "fan shi xian"),
  ]

  @Test func atLeastSixtyNames() { #expect(Self.readings.count >= 60) }

  @Test(arguments: readings)
  func canonicalPinyin(_ name: String, _ pinyin: String) {
    let corpus = Fixtures.cities
    let matches = (0..<corpus.count).filter { corpus.name(at: $0) == name }
    #expect(!matches.isEmpty, "\(name) is not in the cities tier")
    for index in matches {
      #expect(corpus.place(at: index).pinyin.joined(separator: " ") == pinyin, "\(name)")
      #expect(corpus.level(at: index) <= .county)
    }
  }
}
