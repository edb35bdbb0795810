# Sourced by the command checks that write plots (issue 18: every plot has a title, labelled axes with
# units and a legend a reader can follow).
#
# check_plots DIR: every gnuplot script under DIR sets a title and both axis labels, and gives a unit in
# parentheses on the y axis (or, on a map whose axes are counts, on the colour box); with gnuplot installed,
# every script ran without a single warning (its .gp.log is empty), so no key option or label was ignored.
check_plots() {
  python3 - "$1" <<'PY'
import pathlib, re, shutil, sys
scripts = sorted(pathlib.Path(sys.argv[1]).rglob("*.gp"))
assert scripts, f"no gnuplot script under {sys.argv[1]}"
for gp in scripts:
    text = gp.read_text()
    assert re.search(r"\bset (multiplot\b.*\b)?title\b", text), f"{gp}: no title"
    assert re.search(r"\bset xlabel\b", text), f"{gp}: no x-axis label"
    assert re.search(r"\bset ylabel\b", text), f"{gp}: no y-axis label"
    unit = r"\bset (y|cb)label\s+(['\"])[^'\"]*\([^'\"()]+\)[^'\"]*\2"
    assert re.search(unit, text), f"{gp}: no unit in parentheses on the y axis or the colour box"
    log = gp.with_name(gp.name + ".log")
    if shutil.which("gnuplot"):
        assert log.exists() and log.read_text() == "", f"{gp}: gnuplot said:\n{log.read_text()}"
PY
}
