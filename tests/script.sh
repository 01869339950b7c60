#!/bin/sh
# The embedded scripts: jsbundle (cmake/jsbundle.c), which joins src/render/assets/js/ and
# strips it at build time, keeps what JavaScript means (strings, regular expressions,
# template literals, line ends that semicolon insertion needs) and fails on what it cannot
# strip safely; the scripts foldsvg embeds carry no comments and no indentation; the
# example's SVG stays under 45 KB (45,000 bytes) with its script.
#   tests/script.sh BIN JSBUNDLE REPO
bin=$(realpath "$1")
jsbundle=$(realpath "$2")
repo=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

# same NAME EXPECTED: res (jsbundle's output) is EXPECTED
same() {
    printf '%s\n' "$2" >want
    if cmp -s want res; then ok; else bad "$1: got $(cat res), expected $2"; fi
}

# ---- what stripping keeps --------------------------------------------------------------
cat >strings.js <<'EOF'
/* a header */
var a = "// not a comment", b = '/* nor this */';   // a comment
var c = a + +b, d = a - -b, e = a+ ++b, f = a - --b, g = a < !b;
EOF
expect 0 strings "$jsbundle" strings.js res
same strings-out "var a=\"// not a comment\",b='/* nor this */';var c=a+ +b,d=a- -b,e=a+ ++b,f=a- --b,g=a< !b;"

cat >regex.js <<'EOF'
var r = /[/]\/x/g.test(s) ? x / 2 / y : (a) / 3;
var q = f(a)[1] / 2, u = typeof /x/;
if (a) / x y /.test(s);
function k() {
    return /re \/ /i;
}
EOF
expect 0 regex "$jsbundle" regex.js res
same regex-out 'var r=/[/]\/x/g.test(s)?x/2/y:(a)/3;var q=f(a)[1]/2,u=typeof/x/;if(a)/ x y /.test(s);function k(){return/re \/ /i;}'

cat >template.js <<'EOF'
var t = `a ${ b + `c ${ { d: 1 }.d } e` } // kept
  /* kept */ f`;
EOF
expect 0 template "$jsbundle" template.js res
printf '%s\n' 'var t=`a ${b+`c ${{d:1}.d} e`} // kept' '  /* kept */ f`;' >want
if cmp -s want res; then ok; else bad "template-out: got $(cat res)"; fi

# line ends where semicolon insertion reads them; a comment over lines counts as one
cat >asi.js <<'EOF'
var x = a
++b
function g() {
    return
    x /* two
    lines */ y
}
EOF
expect 0 asi "$jsbundle" asi.js res
printf '%s\n' 'var x=a' '++b' 'function g(){return' 'x' 'y}' >want
if cmp -s want res; then ok; else bad "asi-out: got $(cat res)"; fi

# ]] > must not become the CDATA terminator; a number before a dot keeps its space
printf '%s\n' 'var y = a[b[c]] > d, z = 1 .toFixed(2);' >cdata.js
expect 0 cdata "$jsbundle" cdata.js res
same cdata-out 'var y=a[b[c]] >d,z=1 .toFixed(2);'

# //#include (relative to the including file) and //#if NAME ... //#endif
mkdir -p sub
cat >main.js <<'EOF'
(function () {
    //#include "sub/part.js"
    //#if extra
    var more = 2;
    //#endif
})();
EOF
printf '%s\n' '/* part */' 'var part = 1;' >sub/part.js
expect 0 include "$jsbundle" main.js res
same include-out '(function(){var part=1;})();'
expect 0 include-d "$jsbundle" -D extra main.js res
same include-d-out '(function(){var part=1;var more=2;})();'

# ---- what it refuses, naming the file and line -------------------------------------------
# refuse NAME 'MESSAGE' SOURCE: jsbundle fails on SOURCE with MESSAGE on stderr
refuse() {
    printf '%s\n' "$3" >"$1.js"
    rm -f res
    expect 1 "$1" "$jsbundle" "$1.js" res
    has "$1-msg" err "$2"
    if [ -e res ]; then bad "$1: an output was written"; else ok; fi
}
refuse unterminated-string 'unterminated-string.js:2: unterminated string' 'var a;
var s = "abc;'
refuse unterminated-comment 'unterminated-comment.js:1: unterminated comment' 'var a; /* open'
refuse unterminated-regex 'unterminated-regex.js:1: unterminated regular expression' 'var r = /abc'
refuse unterminated-template 'unterminated-template.js:1: unterminated template literal' 'var t = `abc'
refuse after-brace 'after-brace.js:1: a slash after "}" may divide or start a regular expression' 'if (a) {} /x/.test(s);'
refuse after-increment 'after-increment.js:1: a slash after "++" may divide' 'var q = a++ / 2;'
refuse unclosed 'unclosed.js:2: this "(" is not closed in this file' 'var a;
f(a, b;'
refuse mismatched 'mismatched.js:1: ")" does not close the "[" of line 1' 'var a = [1, 2);'
refuse stray 'stray.js:1: "}" closes nothing' 'var a; }'
refuse non-ascii 'non-ascii.js:1: byte 0xc3 outside strings and comments' 'var é = 1;'
refuse directive 'directive.js:1: unknown directive //#define' '//#define x'
refuse directive-inline 'directive-inline.js:1: a //# line must be alone on its line' 'var a; //#include "b.js"'
refuse no-endif 'no-endif.js:1: //#if without //#endif' '//#if views
var a;'
refuse endif 'endif.js:1: //#endif without //#if' '//#endif'
refuse if-open 'if-open.js:4: the lines of //#if ... //#endif are not whole statements' 'f(
//#if views
a)
//#endif'
refuse no-file 'no-such.js: cannot open' '//#include "no-such.js"'
refuse cdata-end 'would hold "]]>"' 'var s = "]]>";'
refuse script-end 'would hold "</script"' 'var s = "</SCRIPT>";'
refuse html-comment 'would hold "<!--"' 'var s = "<!--";'
printf 'var s = "\000]]>";\n' >nul.js
expect 1 nul "$jsbundle" nul.js res
has nul-msg err 'nul.js: holds a NUL byte'

# ---- the scripts foldsvg embeds ---------------------------------------------------------
# the text of the <script> elements of FILE, one after another, in scripts
scripts_of() {
    awk '/<script/ { on = 1 } on { print } /<\/script>/ { on = 0 }' "$1" |
        grep -v 'type="application/json"' >scripts
}
# no comments (the only // are those of the URLs in strings), no indentation, no blank line
stripped() {
    scripts_of "$2"
    if grep -q '/\*\|\*/' scripts; then bad "$1: a /* comment */ in the script: $(grep -m1 -o '.\{0,40\}/\*.\{0,40\}' scripts)"; else ok; fi
    if grep -o '.\{0,7\}//' scripts | grep -qv '"https\{0,1\}://$'; then
        bad "$1: a // comment in the script: $(grep -o '.\{0,7\}//.\{0,30\}' scripts | grep -v '"https\{0,1\}://' | head -n 1)"
    else ok; fi
    if grep -q '^[[:space:]]' scripts || grep -q '^$' scripts; then bad "$1: indented or blank lines in the script"; else ok; fi
    if [ "$(wc -c <scripts)" -gt 2000 ]; then ok; else bad "$1: no script found"; fi
}
expect 0 example-svg "$bin" -q "$repo/examples/example.folded" -o example.svg
stripped example-svg example.svg
size=$(wc -c <example.svg)
if [ "$size" -lt 45000 ]; then ok; else bad "example-svg: $size bytes, 45,000 or more"; fi
has example-svg-code example.svg 'function graph(settings,root,given)'
hasnt example-svg-views example.svg 'function drawView('
expect 0 example-html "$bin" -q "$repo/examples/example.folded" -o example.html
stripped example-html example.html
has example-html-views example.html 'function drawView('

finish script
