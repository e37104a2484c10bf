#!/usr/bin/env bash
# Rebuilds the statement chart's fonts in assets/fonts from Debian's font packages:
#   DejaVuSans-LatinCyrillic.ttf  DejaVu Sans, Basic Latin, Latin-1, Cyrillic and the punctuation the titles use
#   WenQuanYiMicroHei-Chart.ttf   WenQuanYi Micro Hei, only the Han characters the zh chart texts use
# The Chinese subset holds just the characters of locales/zh/statement.ftl's statement-chart-* messages and
# the month names ("2026年11月"), so a new character there needs this script run again (the chart test fails
# until it is). Needs: apt-get install python3-fonttools fonts-dejavu-core fonts-wqy-microhei
set -euo pipefail
cd "$(dirname "$0")/.."
out=assets/fonts
subset() { /usr/bin/python3 -m fontTools.subset "$@" --layout-features='*' --no-hinting --desubroutinize; }

subset /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf --output-file="$out/DejaVuSans-LatinCyrillic.ttf" \
  --unicodes='U+0020-007E,U+00A0-00FF,U+0400-045F,U+2009,U+2013,U+2014,U+2019,U+201C,U+201D,U+2026,U+202F'

han=$( (grep -h '^statement-chart-' locales/zh/statement.ftl; echo '年月日') | grep -oP '\p{Han}|[\x{3000}-\x{303F}\x{FF00}-\x{FFEF}]' | sort -u | tr -d '\n')
subset /usr/share/fonts/truetype/wqy/wqy-microhei.ttc --font-number=0 --output-file="$out/WenQuanYiMicroHei-Chart.ttf" --text="$han"
ls -l "$out"
