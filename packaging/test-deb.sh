#!/usr/bin/env bash
# Builds the Debian package from a built tree and checks it without installing anything: its
# control fields, its files, the unpacked programs, and the desktop file, metainfo and man pages
# through their validators. Registered with CTest (label "package").
# Usage: packaging/test-deb.sh BUILD_DIR [CPACK]
set -euo pipefail

build=$(cd "${1:?usage: test-deb.sh BUILD_DIR [CPACK]}" && pwd)
cpack=${2:-cpack}
app_id=io.github.capwatch.capwatch

work=$(mktemp -d "${TMPDIR:-/tmp}/capwatch-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The desktop client runs (offscreen) for --version and --help: give it a runtime dir of its own.
export XDG_RUNTIME_DIR=$work/runtime
mkdir -m 700 "$XDG_RUNTIME_DIR"

step() { echo "test-deb: $*"; }
fail() { echo "test-deb: FAIL: $*" >&2; exit 1; }
skip() { echo "test-deb: SKIP: $*"; }

command -v dpkg-deb >/dev/null || fail "dpkg-deb is missing"
command -v dpkg-shlibdeps >/dev/null || fail "dpkg-shlibdeps is missing (apt-get install dpkg-dev)"
[ -f "$build/CPackConfig.cmake" ] || fail "$build/CPackConfig.cmake is missing: not a configured build tree"

# --- build the package, into the temporary directory only ---
step "cpack -G DEB (from $build)"
if ! "$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1; then
    cat "$work/cpack.log" >&2
    fail "cpack failed"
fi
shopt -s nullglob
debs=("$work"/out/*.deb)
shopt -u nullglob
[ ${#debs[@]} -eq 1 ] || fail "expected one .deb in the cpack output, found ${#debs[@]}"
deb=${debs[0]}
step "built $(basename "$deb"), $(( $(stat -c %s "$deb") / 1024 )) KiB"

# --- control fields ---
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = capwatch ] || fail "Package is '$(field Package)', not capwatch"
version=$(field Version)
arch=$(dpkg --print-architecture)
[ "$(field Architecture)" = "$arch" ] || fail "Architecture is '$(field Architecture)', not $arch"
[ "$(basename "$deb")" = "capwatch_${version}_${arch}.deb" ] ||
    fail "file name $(basename "$deb") is not capwatch_${version}_${arch}.deb"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
[ -n "$(field Description)" ] || fail "no Description"
depends=$(field Depends)
step "Depends: $depends"
[ -n "$depends" ] || fail "Depends is empty (dpkg-shlibdeps did not run?)"
for lib in libqt6core6 libqt6widgets6 libqt6svg6 libqt6charts6; do
    grep -q "$lib" <<<"$depends" || fail "Depends does not mention $lib"
done

# --- files: exactly what should be installed, nothing else ---
root=$work/root
dpkg -x "$deb" "$root"
man1=$root/usr/share/man/man1
expected=(
    usr/bin/capwatch
    usr/bin/capwatch-cli
    "usr/share/applications/$app_id.desktop"
    "usr/share/metainfo/$app_id.metainfo.xml"
    "usr/share/icons/hicolor/scalable/apps/$app_id.svg"
)
for f in "${expected[@]}"; do
    [ -f "$root/$f" ] || fail "the package has no /$f"
done
# The Insights view's charts module, where the installed capwatch looks for it: lib/capwatch
# (or lib/<triplet>/capwatch) beside bin/.
module=$(cd "$root" && find usr/lib -name capwatch-charts.so | head -1)
[ -n "$module" ] || fail "the package has no charts module (usr/lib/.../capwatch/capwatch-charts.so)"
step "charts module: /$module"
for program in capwatch capwatch-cli; do
    [ -f "$man1/$program.1.gz" ] || [ -f "$man1/$program.1" ] || fail "the package has no man page $program.1"
done
unexpected=$(cd "$root" && find . -type f -o -type l | sed 's|^\./||' |
             grep -Ev '^(usr/bin/capwatch(-cli)?|usr/lib/([a-z0-9_-]+/)?capwatch/capwatch-charts\.so|usr/share/(applications|metainfo|icons/hicolor|man/man1|doc/capwatch)/.*)$' || true)
[ -z "$unexpected" ] || fail "unexpected files in the package:"$'\n'"$unexpected"
grep -q '<svg' "$root/usr/share/icons/hicolor/scalable/apps/$app_id.svg" || fail "the icon is not an SVG"

# --- the unpacked programs run, with the system's libraries only ---
cli=$root/usr/bin/capwatch-cli
if command -v readelf >/dev/null; then
    ! readelf -d "$cli" | grep -E 'NEEDED.*libQt6(Widgets|Gui)' ||
        fail "the packaged capwatch-cli links Qt Widgets or Qt Gui"
fi
out=$("$cli" --version) || fail "capwatch-cli --version failed"
[ "$out" = "capwatch-cli $version" ] || fail "capwatch-cli --version says '$out', the package is $version"
out=$(QT_QPA_PLATFORM=offscreen "$root/usr/bin/capwatch" --version) || fail "capwatch --version failed"
[ "$out" = "capwatch $version" ] || fail "capwatch --version says '$out', the package is $version"
out=$("$cli" explain --status 422 \
      --body '{"error":"Token limit exceeded: used 60323, limit 60000. Retry in 18 min."}') ||
    fail "capwatch-cli explain failed"
step "explain: $out"
grep -q '"category":"token_limit"' <<<"$out" || fail "explain did not classify the headline 422 as token_limit"

# --- desktop file and metainfo, through their validators ---
if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$root/usr/share/applications/$app_id.desktop" || fail "desktop-file-validate"
    step "desktop-file-validate: ok"
else
    skip "desktop-file-validate is missing (apt-get install desktop-file-utils); desktop file not validated"
fi
if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net "$root/usr/share/metainfo/$app_id.metainfo.xml" ||
        fail "appstreamcli validate"
else
    skip "appstreamcli is missing (apt-get install appstream); metainfo not validated"
fi

# --- man pages: every option of every command is there, and groff has nothing to say ---
page() { if [ -f "$man1/$1.1.gz" ]; then gzip -dc "$man1/$1.1.gz"; else cat "$man1/$1.1"; fi; }
# check_options WHAT MAN_TEXT MINIMUM HELP_TEXT: the --help text names at least MINIMUM distinct
# options (so a --help that prints nothing, or only a few, fails), and the man text names each
# one as a whole word (--model must not pass on --model-file alone).
check_options() {
    local what=$1 man_text=$2 minimum=$3 help_text=$4 option
    local options
    options=$(grep -o -- '--[a-z][a-z-]*' <<<"$help_text" | sort -u || true)
    local count
    count=$(grep -c . <<<"$options" || true)
    [ "$count" -ge "$minimum" ] ||
        fail "$what --help names $count options, expected at least $minimum:"$'\n'"$help_text"
    for option in $options; do
        grep -qE -- "$option([^a-z-]|\$)" <<<"$man_text" || fail "the man page of $what does not mention $option"
    done
    step "$what: $count options, each in the man page"
}
cli_page=$(page capwatch-cli | sed 's/\\-/-/g')
# The fewest options each --help lists today (--help included); more are fine.
declare -A min_options=([explain]=8 [chat]=13 [demo]=10 [history]=8 [profiles]=3 [rules]=2)
for command in explain chat demo history profiles rules; do
    grep -q "^\.SS \"$command\"" <<<"$cli_page" || fail "capwatch-cli.1 has no section for $command"
    help=$("$cli" "$command" --help) || fail "capwatch-cli $command --help failed"
    check_options "capwatch-cli $command" "$cli_page" "${min_options[$command]}" "$help"
done
# `profiles` has one subcommand, which its synopsis names.
grep -q -- 'capwatch-cli profiles\\fR list ' <<<"$cli_page" || fail "capwatch-cli.1 does not name profiles list"
# `rules` has two, check and list.
for sub in check list; do
    grep -q -- "capwatch-cli rules\\\\fR $sub" <<<"$cli_page" || fail "capwatch-cli.1 does not name rules $sub"
done
for text in OPENAI_COMPAT_API_KEY QT_LOGGING_RULES '^\.SH "EXIT STATUS"' '^\.SH "EXAMPLES"' '^\\fB130\\fR$'; do
    grep -q -- "$text" <<<"$cli_page" || fail "capwatch-cli.1 lacks $text"
done
gui_page=$(page capwatch | sed 's/\\-/-/g')
help=$(QT_QPA_PLATFORM=offscreen "$root/usr/bin/capwatch" --help) || fail "capwatch --help failed"
check_options capwatch "$gui_page" 10 "$help"
if command -v groff >/dev/null; then
    for program in capwatch capwatch-cli; do
        warnings=$(page "$program" | groff -man -Tutf8 -ww -z 2>&1)
        [ -z "$warnings" ] || fail "groff warns about $program.1:"$'\n'"$warnings"
    done
    step "man pages: groff -ww is silent"
else
    skip "groff is missing (apt-get install groff-base); man pages not checked for warnings"
fi

step "ok: $(basename "$deb") ($version, $arch)"
