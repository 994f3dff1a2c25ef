#!/usr/bin/env bash
# Renders a report.html in headless Chromium (Debian: chromium) as a reader's browser would,
# and fails when the page does not hold up:
#   - a console error or an uncaught exception while loading;
#   - any SVG text (a label, a legend entry) that does not fit inside its chart, measured by the
#     browser's own layout (getBBox), not estimated from character counts.
# Keeps a screenshot of the page beside the report (report.png) for CI to keep as an artifact.
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

# The check runs in the page: every <text> of every <svg> must lie inside the svg's box.
cp "$page" "$scratch/check.html"
cat >>"$scratch/check.html" <<'EOF'
<script>
(function () {
  var clipped = [];
  document.querySelectorAll("svg").forEach(function (svg, n) {
    var w = svg.width.baseVal.value, h = svg.height.baseVal.value;
    svg.querySelectorAll("text").forEach(function (t) {
      var b = t.getBBox();
      if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > w + 0.5 || b.y + b.height > h + 0.5) {
        clipped.push("chart " + (n + 1) + ": '" + t.textContent + "' spans x " + b.x.toFixed(1) + "–" +
          (b.x + b.width).toFixed(1) + ", y " + b.y.toFixed(1) + "–" + (b.y + b.height).toFixed(1) +
          " in " + w + "×" + h);
      }
    });
  });
  var out = document.createElement("pre");
  out.id = "render-check";
  out.textContent = "texts-checked " + document.querySelectorAll("svg text").length + "\n" + clipped.join("\n");
  document.body.appendChild(out);
})();
</script>
EOF
"$browser" "${flags[@]}" --enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom \
  "file://$(realpath "$scratch/check.html")" >"$scratch/dom.html" 2>"$scratch/console.txt"

failed=0
if grep -E 'CONSOLE|Uncaught' "$scratch/console.txt" | grep -v 'render-check' | grep -qiE 'error|uncaught'; then
  echo "render: console errors:"
  grep -E 'CONSOLE|Uncaught' "$scratch/console.txt" | head -10
  failed=1
fi
report=$(sed -n '/<pre id="render-check">/,/<\/pre>/p' "$scratch/dom.html" | sed 's/<[^>]*>//g')
checked=$(echo "$report" | sed -n 's/^texts-checked \([0-9]*\).*/\1/p' | head -1)
if [ -z "$checked" ]; then
  echo "render: the page's check did not run"
  failed=1
elif [ "$checked" -eq 0 ]; then
  echo "render: the page has no chart text to check"
  failed=1
else
  clipped=$(echo "$report" | grep -c '^chart ' || true)
  if [ "$clipped" -gt 0 ]; then
    echo "render: $clipped of $checked chart texts do not fit their chart:"
    echo "$report" | grep '^chart ' | head -20
    failed=1
  else
    echo "render: all $checked chart texts fit their charts"
  fi
fi

"$browser" "${flags[@]}" --screenshot="$dir/report.png" --window-size=1280,2400 "file://$(realpath "$page")" \
  >/dev/null 2>&1 && echo "render: screenshot $dir/report.png"
exit "$failed"
