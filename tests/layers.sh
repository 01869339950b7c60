#!/bin/sh
# The one-way layering of src/: util <- input <- formats <- transform <- aggregate <- frames <-
# analysis <- render <- api <- cli. A folder may include and call only its own and lower
# folders (formats/ has one subfolder per format: they rank as formats/) (include/foldsvg.h is for everyone; the
# command line sees nothing else), and no two files may depend on each other in a circle.
# Checked twice: on the #include "..." lines of every source and header (a module is a .c
# and its .h), and, given the library's object files, on the calls themselves (nm: who uses a
# symbol defined where), which also catches a function declared in one folder's header but
# defined in another's file.
#   tests/layers.sh SRC_DIR [OBJECT_DIR]
set -u
src=$1; objs=${2:-}
fail=0
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

rank() {
    case $1 in util) echo 0 ;; input) echo 1 ;; formats) echo 2 ;; transform) echo 3 ;;
        aggregate) echo 4 ;; frames) echo 5 ;; analysis) echo 6 ;; render) echo 7 ;; api) echo 8 ;;
        cli) echo 9 ;; *) echo 99 ;; esac
}

# "FROM TO" module pairs (folder/name), from the includes
for f in $(find "$src" -name '*.[ch]' | sort); do
    from=$(echo "$f" | sed "s|^$src/||; s|\.[ch]\$||")
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
        echo "$from $inc"
    done
done >"$work/includes"

# the direction of every include
while read -r from inc; do
    folder=${from%%/*}
    if [ "$inc" = foldsvg.h ] || { [ "$folder" = cli ] && [ "$inc" = api/cli.h ]; }; then
        continue
    fi
    if [ "$folder" = cli ] && [ "${inc%%/*}" = cli ]; then
        [ "${inc%.h}" != "$from" ] && echo "$from ${inc%.h}" >>"$work/edges"
        continue
    fi
    if [ "$folder" = cli ]; then
        echo "FAIL $from.c includes \"$inc\": the command line sees only foldsvg.h, api/cli.h and its own headers"
        fail=1
        continue
    fi
    case $inc in
        */*.h) ;;
        *) echo "FAIL $from includes \"$inc\": includes name their folder (\"util/buf.h\")"; fail=1; continue ;;
    esac
    to=${inc%.h}
    tofolder=${to%%/*}
    if [ ! -f "$src/$inc" ]; then
        echo "FAIL $from includes \"$inc\", which is not in src/"; fail=1; continue
    fi
    if [ "$(rank "$tofolder")" -gt "$(rank "$folder")" ]; then
        echo "FAIL $from includes \"$inc\": $folder/ may not depend on $tofolder/ (util <- input <- formats <- transform <- aggregate <- frames <- analysis <- render <- api <- cli)"
        fail=1
    fi
    [ "$to" != "$from" ] && echo "$from $to" >>"$work/edges"
done <"$work/includes"

# no circle of modules (tsort names one when there is)
check_cycles() { # EDGES WHAT
    if [ -s "$1" ] && ! sort -u "$1" | tsort >/dev/null 2>"$work/loop"; then
        echo "FAIL $2 in a circle:"; sed 's/^/    /' "$work/loop"; fail=1
    fi
}
check_cycles "$work/edges" "files that include each other"
n_inc=$(sort -u "$work/edges" | wc -l)

# the calls, from the object files
n_sym=0
if [ -n "$objs" ] && [ -d "$objs/src" ] && command -v nm >/dev/null 2>&1; then
    for o in $(find "$objs/src" -name '*.o' | sort); do
        mod=$(echo "$o" | sed "s|^$objs/src/||; s|\.c\.o\$||")
        nm -P "$o" 2>/dev/null | awk -v m="$mod" '$2 ~ /^[TDBRCVW]$/ { print "def", $1, m } $2 == "U" { print "use", $1, m }'
    done >"$work/symbols"
    awk '$1 == "def" { def[$2] = $3 } $1 == "use" { use[++n] = $2 " " $3 }
        END { for (i = 1; i <= n; i++) { split(use[i], u, " "); if ((u[1] in def) && def[u[1]] != u[2]) print u[2], def[u[1]], u[1] } }' \
        "$work/symbols" | sort -u >"$work/calls"
    while read -r from to sym; do
        if [ "$(rank "${to%%/*}")" -gt "$(rank "${from%%/*}")" ]; then
            echo "FAIL $from.c calls $sym, defined in $to.c: ${from%%/*}/ may not depend on ${to%%/*}/"
            fail=1
        fi
    done <"$work/calls"
    awk '{ print $1, $2 }' "$work/calls" | sort -u >"$work/callgraph"
    check_cycles "$work/callgraph" "files that call each other"
    n_sym=$(wc -l <"$work/callgraph")
else
    echo "skip: no object files given (or no nm): only the includes are checked"
fi

echo "layers: $n_inc include edges, $n_sym call edges checked; $([ $fail -eq 0 ] && echo passed || echo failed)"
[ $fail -eq 0 ]
