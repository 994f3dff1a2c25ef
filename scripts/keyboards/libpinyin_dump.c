/* Prints libpinyin's double-pinyin key pairs (every two keys that read as one syllable, `layout keys
   pinyin zhuyin`) and what its standard (Daqian) Zhuyin keyboard reads for each key alone and beside
   a few others. Built and run by scripts/keyboard-crosscheck.py. */
#include <stdbool.h>
#include <pinyin.h>
#include <stdio.h>
#include <string.h>

static const char *KEYS = "abcdefghijklmnopqrstuvwxyz;";

static void one(pinyin_instance_t *instance, const char *name, const char *typed, int zhuyin) {
    size_t parsed = zhuyin ? pinyin_parse_more_chewings(instance, typed) : pinyin_parse_more_double_pinyins(instance, typed);
    if (parsed != strlen(typed)) return;
    /* One key spanning everything typed: the pair (or key) is one syllable. */
    ChewingKey *key = NULL;
    ChewingKeyRest *rest = NULL;
    guint16 begin = 0, end = 0;
    if (!pinyin_get_pinyin_key(instance, 0, &key) || !pinyin_get_pinyin_key_rest(instance, 0, &rest)) return;
    if (!pinyin_get_pinyin_key_rest_positions(instance, rest, &begin, &end) || begin != 0 || end != strlen(typed)) return;
    gchar *pinyin = NULL, *symbols = NULL;
    pinyin_get_pinyin_string(instance, key, &pinyin);
    pinyin_get_zhuyin_string(instance, key, &symbols);
    printf("%s\t%s\t%s\t%s\n", name, typed, pinyin ? pinyin : "", symbols ? symbols : "");
    g_free(pinyin);
    g_free(symbols);
}

int main(int argc, char **argv) {
    pinyin_context_t *context = pinyin_init(argc > 1 ? argv[1] : "/usr/lib/x86_64-linux-gnu/libpinyin/data", argc > 2 ? argv[2] : "/tmp");
    if (!context) { fprintf(stderr, "pinyin_init failed\n"); return 1; }
    pinyin_set_options(context, USE_TONE | PINYIN_INCOMPLETE | ZHUYIN_INCOMPLETE);
    struct { DoublePinyinScheme scheme; const char *name; } schemes[] = {
        {DOUBLE_PINYIN_ZRM, "ziranma"}, {DOUBLE_PINYIN_MS, "microsoft"}, {DOUBLE_PINYIN_ZIGUANG, "ziguang"},
        {DOUBLE_PINYIN_ABC, "zhineng-abc"}, {DOUBLE_PINYIN_PYJJ, "pinyinpp"}, {DOUBLE_PINYIN_XHE, "xiaohe"}};
    pinyin_instance_t *instance = pinyin_alloc_instance(context);
    for (size_t s = 0; s < sizeof schemes / sizeof schemes[0]; s++) {
        pinyin_set_double_pinyin_scheme(context, schemes[s].scheme);
        for (const char *a = KEYS; *a; a++)
            for (const char *b = KEYS; *b; b++) {
                char typed[3] = {*a, *b, 0};
                one(instance, schemes[s].name, typed, 0);
            }
    }
    /* Daqian: every key alone and beside each of a few others, as libpinyin's standard Zhuyin
       keyboard reads them when the keys make one syllable; the script takes the symbol common to
       every reading of a key (its own symbol). */
    pinyin_set_zhuyin_scheme(context, ZHUYIN_STANDARD);
    const char *zkeys = "1qaz2wsxedcrfv5tgbyhnujm8ik,9ol.0p;/-";
    const char *companions = "8ujm1rx";
    for (const char *k = zkeys; *k; k++) {
        char tries[15][3];
        int count = 0;
        tries[count][0] = *k; tries[count][1] = 0; count++;
        for (const char *c = companions; *c; c++) {
            tries[count][0] = *k; tries[count][1] = *c; tries[count][2] = 0; count++;
            tries[count][0] = *c; tries[count][1] = *k; tries[count][2] = 0; count++;
        }
        for (int t = 0; t < count; t++) {
            if (pinyin_parse_more_chewings(instance, tries[t]) != strlen(tries[t])) continue;
            ChewingKey *key = NULL;
            ChewingKeyRest *rest = NULL;
            guint16 begin = 0, end = 0;
            if (!pinyin_get_pinyin_key(instance, 0, &key) || !pinyin_get_pinyin_key_rest(instance, 0, &rest)) continue;
            if (!pinyin_get_pinyin_key_rest_positions(instance, rest, &begin, &end) || begin != 0 || end != strlen(tries[t])) continue;
            gchar *symbols = NULL;
            if (pinyin_get_zhuyin_string(instance, key, &symbols) && symbols) {
                printf("daqian-reading\t%c\t%s\t%s\n", *k, tries[t], symbols);
                g_free(symbols);
            }
        }
    }
    /* The tone keys, after ㄧ (u): the tone libpinyin reads, as the mark it writes. */
    for (const char *k = "3467"; *k; k++) {
        char typed[3] = {'u', *k, 0};
        if (pinyin_parse_more_chewings(instance, typed) != 2) continue;
        ChewingKey *key = NULL;
        gchar *symbols = NULL;
        if (pinyin_get_pinyin_key(instance, 0, &key) && pinyin_get_zhuyin_string(instance, key, &symbols) && symbols) {
            printf("daqian-tone\t%c\t%s\n", *k, symbols + 3);
            g_free(symbols);
        }
    }
    pinyin_free_instance(instance);
    pinyin_fini(context);
    return 0;
}
