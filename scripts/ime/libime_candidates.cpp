// Prints the first candidates libime's pinyin engine (fcitx5's, with its system dictionary and
// language model from Debian's libime-data) offers for each line of standard input:
// `text<TAB>candidate<TAB>…`. Built and run by scripts/ime-candidates.py.
#include <libime/core/userlanguagemodel.h>
#include <libime/pinyin/pinyincontext.h>
#include <libime/pinyin/pinyindictionary.h>
#include <libime/pinyin/pinyinime.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

int main(int argc, char **argv) {
    const size_t shown = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 8;
    auto dictionary = std::make_unique<libime::PinyinDictionary>();
    dictionary->load(libime::PinyinDictionary::SystemDict, "/usr/share/libime/sc.dict",
                     libime::PinyinDictFormat::Binary);
    auto model = std::make_unique<libime::UserLanguageModel>("/usr/lib/x86_64-linux-gnu/libime/zh_CN.lm");
    libime::PinyinIME ime(std::move(dictionary), std::move(model));
    std::string line;
    while (std::getline(std::cin, line)) {
        libime::PinyinContext context(&ime);
        context.type(line);
        std::cout << line;
        size_t count = 0;
        for (const auto &candidate : context.candidates()) {
            if (count++ == shown) break;
            std::cout << '\t' << candidate.toString();
        }
        std::cout << '\n';
    }
    return 0;
}
