#!/usr/bin/env python3
"""What an input method offers for a typed text: the first candidates of libime 1.0.16
(fcitx5's pinyin engine, Debian's libimepinyin-dev and libime-data), one line per text.

A cross-check of how people's keyboards read abbreviations such as `hrb` (哈尔滨: is r the
initial of er?), not a part of any build or test:

    apt-get install libimepinyin-dev libimecore-dev libfcitx5utils-dev libime-data g++
    python3 scripts/ime-candidates.py hrb heb qqhe qqhr eeds erds

prints, per text, the candidates in libime's order (8 by default, `--shown N`).
"""

import argparse
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("texts", nargs="+", help="what is typed, one text each")
    parser.add_argument("--shown", type=int, default=8, help="candidates shown per text (default 8)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        binary = Path(workdir) / "libime_candidates"
        subprocess.run(
            ["g++", "-std=c++17", "-O1", str(HERE / "ime" / "libime_candidates.cpp"), "-I/usr/include/LibIME",
             "-I/usr/include/Fcitx5/Utils", "-lIMEPinyin", "-lIMECore", "-lFcitx5Utils", "-o", str(binary)],
            check=True,
        )
        out = subprocess.run([str(binary), str(args.shown)], input="\n".join(args.texts) + "\n",
                             capture_output=True, text=True, check=True)
    for line in out.stdout.splitlines():
        text, *candidates = line.split("\t")
        print(f"{text}: {' '.join(candidates) if candidates else '(none)'}")


if __name__ == "__main__":
    main()
