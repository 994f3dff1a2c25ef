// Prints libime's double-pinyin tables (its built-in ShuangpinProfile of each layout): one line per
// key pair and syllable, `layout keys syllable exact|fuzzy`. Built and run by
// scripts/keyboard-crosscheck.py, which compares them with Corpus/double-pinyin.tsv.
#include <libime/pinyin/shuangpinprofile.h>
#include <iostream>
using namespace libime;
int main() {
    struct P { ShuangpinBuiltinProfile p; const char *name; } ps[] = {
        {ShuangpinBuiltinProfile::Ziranma, "ziranma"}, {ShuangpinBuiltinProfile::MS, "microsoft"},
        {ShuangpinBuiltinProfile::Ziguang, "ziguang"}, {ShuangpinBuiltinProfile::ABC, "zhineng-abc"},
        {ShuangpinBuiltinProfile::PinyinJiajia, "pinyinpp"}, {ShuangpinBuiltinProfile::Xiaohe, "xiaohe"}};
    for (auto &p : ps) {
        ShuangpinProfile profile(p.p);
        for (auto &[keys, syllables] : profile.table()) {
            for (auto &[syllable, flags] : syllables) {
                std::cout << p.name << "\t" << keys << "\t" << syllable.toString() << "\t" << (flags == PinyinFuzzyFlag::None ? "exact" : "fuzzy") << "\n";
            }
        }
    }
}
