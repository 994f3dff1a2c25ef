#!/usr/bin/env bash
# Renders a report.html in headless Chromium (Debian: chromium) as a reader's browser would,
# and fails when the page does not hold up:
#   - a console error or an uncaught exception while loading;
#   - any SVG text (a label, a legend entry) that does not fit inside its chart or overlaps
#     another, measured by the browser's own layout (getBBox), not estimated from character counts;
#   - a page wider than the window, or a table wider than its box (a column hidden behind a
#     scroll bar), at 1,280 px and at a phone's 390 px.
# Keeps screenshots of the page beside the report (report.png, report-phone.png) for CI to keep.
#
# Usage: scripts/render-report.sh REPORT_DIR     (REPORT_DIR/report.html; a few seconds)
set -uo pipefail

dir=${1:?usage: scripts/render-report.sh REPORT_DIR}
page=$dir/report.html
[ -f "$page" ] || { echo "render: no $page"; exit 1; }
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "render: skipped: no chromium here (Debian: apt-get install chromium)"
  exit 0
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$scratch/profile")

# The check runs in the page, at a desktop width and at a phone's: every <text> of every <svg>
# must lie inside the svg's box and overlap no other text of it; the page must be no wider than
# the window, and no table wider than its box (a column behind a scroll bar is hidden).
cat >"$scratch/check.js" <<'EOF'
<script>
(function () {
  var problems = [];
  document.querySelectorAll("svg").forEach(function (svg, n) {
    var view = svg.viewBox.baseVal;
    var w = view && view.width ? view.width : svg.width.baseVal.value;
    var h = view && view.height ? view.height : svg.height.baseVal.value;
    var boxes = [];
    svg.querySelectorAll("text").forEach(function (t) {
      var b = t.getBBox();
      if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > w + 0.5 || b.y + b.height > h + 0.5) {
        problems.push("chart " + (n + 1) + ": '" + t.textContent + "' spans x " + b.x.toFixed(1) + "–" +
          (b.x + b.width).toFixed(1) + ", y " + b.y.toFixed(1) + "–" + (b.y + b.height).toFixed(1) +
          " in " + w + "×" + h);
      }
      boxes.forEach(function (o) {
        var dx = Math.min(b.x + b.width, o.b.x + o.b.width) - Math.max(b.x, o.b.x);
        var dy = Math.min(b.y + b.height, o.b.y + o.b.height) - Math.max(b.y, o.b.y);
        if (dx > 1 && dy > 1) {
          problems.push("chart " + (n + 1) + ": '" + t.textContent + "' overlaps '" + o.text + "'");
        }
      });
      boxes.push({ b: b, text: t.textContent });
    });
  });
  var page = document.documentElement;
  if (page.scrollWidth > window.innerWidth + 1) {
    problems.push("page: " + page.scrollWidth + " px wide in a " + window.innerWidth + " px window");
  }
  document.querySelectorAll("table").forEach(function (table, n) {
    var box = table.parentElement;
    if (table.scrollWidth > box.clientWidth + 1) {
      problems.push("table " + (n + 1) + ": " + table.scrollWidth + " px wide in a " + box.clientWidth + " px box");
    }
  });
  var out = document.createElement("pre");
  out.id = "render-check";
  out.textContent = "texts-checked " + document.querySelectorAll("svg text").length + "\n" + problems.join("\n");
  document.body.appendChild(out);
})();
</script>
EOF
cat "$page" "$scratch/check.js" >"$scratch/check.html"

failed=0
for width in 1280 390; do
  "$browser" "${flags[@]}" --enable-logging=stderr --v=0 --virtual-time-budget=5000 --window-size="$width,2000" \
    --dump-dom "file://$(realpath "$scratch/check.html")" >"$scratch/dom.html" 2>"$scratch/console.txt"
  if grep -E 'CONSOLE|Uncaught' "$scratch/console.txt" | grep -v 'render-check' | grep -qiE 'error|uncaught'; then
    echo "render: console errors:"
    grep -E 'CONSOLE|Uncaught' "$scratch/console.txt" | head -10
    failed=1
  fi
  report=$(sed -n '/<pre id="render-check">/,/<\/pre>/p' "$scratch/dom.html" | sed 's/<[^>]*>//g')
  checked=$(echo "$report" | sed -n 's/^texts-checked \([0-9]*\).*/\1/p' | head -1)
  if [ -z "$checked" ]; then
    echo "render: the page's check did not run at $width px"
    failed=1
  elif [ "$checked" -eq 0 ]; then
    echo "render: the page has no chart text to check"
    failed=1
  else
    found=$(echo "$report" | grep -cE '^(chart|page|table) ' || true)
    if [ "$found" -gt 0 ]; then
      echo "render: at $width px, $found problems (chart text clipped or overlapping, a hidden column):"
      echo "$report" | grep -E '^(chart|page|table) ' | head -20
      failed=1
    else
      echo "render: at $width px, all $checked chart texts fit apart, and no table or page overflows"
    fi
  fi
done

"$browser" "${flags[@]}" --screenshot="$dir/report.png" --window-size=1280,2400 "file://$(realpath "$page")" \
  >/dev/null 2>&1 && echo "render: screenshot $dir/report.png"
"$browser" "${flags[@]}" --screenshot="$dir/report-phone.png" --window-size=390,2400 "file://$(realpath "$page")" \
  >/dev/null 2>&1 && echo "render: screenshot $dir/report-phone.png"
exit "$failed"
