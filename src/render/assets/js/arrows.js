/* The arrow keys on a frame, in start()'s scope (graph.js): they follow what is shown (hidden
 * frames are skipped; while zoomed the focus goes to the element drawn, copy or original): Up
 * to the child under the frame's middle (else the widest; one level towards the leaves, drawn
 * below in an inverted graph), Down to the parent, Left and Right to the neighbours in the
 * same row; Home to the root frame. */
/* The frames of each row (depth) in x order, made on the first arrow key. The frames in
 * view in a row are consecutive in it: those inside the frame zoomed to, or the one
 * ancestor of it. */
var rowFrames = null;
var rowPos = null;             /* frame index -> its place in its row */
function byRow() {
    if (rowFrames) {
        return;
    }
    rowFrames = rows.map(function () {
        return [];
    });
    for (var i = 0; i < n; i++) {
        rowFrames[D[i]].push(i);
    }
    rowPos = new Int32Array(n);
    rowFrames.forEach(function (row) {
        row.sort(function (a, b) {
            return X[a] - X[b] || a - b;
        });
        for (var k = 0; k < row.length; k++) {
            rowPos[row[k]] = k;
        }
    });
}

/* the first place in ROW whose frame starts at or after x (AFTER: after x) */
function placeIn(row, x, after) {
    var lo = 0;
    var hi = row.length;
    while (lo < hi) {
        var mid = (lo + hi) >> 1;
        var xm = X[row[mid]];
        if (xm < x || (after && xm === x)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* the frame in view one level towards the leaves under frame I's middle, else the widest */
function childOf(i) {
    var r = D[i] + 1;
    if (r >= rowFrames.length) {
        return -1;
    }
    var row = rowFrames[r];
    var end = X[i] + Wd[i];
    var mid = X[i] + Wd[i] / 2;
    var best = -1;
    for (var k = placeIn(row, X[i], false); k < row.length && X[row[k]] < end; k++) {
        var j = row[k];
        if (!frameEl(j)) {
            continue;
        }
        if (X[j] <= mid && mid < X[j] + Wd[j]) {
            return j;
        }
        if (best < 0 || Wd[j] > Wd[best]) {
            best = j;
        }
    }
    return best;
}

/* the frame one level towards the root that holds frame I: the last in its row that
 * starts at or before frame I */
function parentOf(i) {
    var r = D[i] - 1;
    if (r < 0) {
        return -1;
    }
    var row = rowFrames[r];
    var k = placeIn(row, X[i], true) - 1;
    var j = k >= 0 ? row[k] : -1;
    return j >= 0 && X[j] + Wd[j] > X[i] && frameEl(j) ? j : -1;
}

/* the frame in view next to frame I in its row, DIR -1 to the left, 1 to the right */
function besideOf(i, dir) {
    var row = rowFrames[D[i]];
    var k = rowPos[i] + dir;
    return k >= 0 && k < row.length && frameEl(row[k]) ? row[k] : -1;
}

/* the frame key KEY moves the focus to from frame I: -1 for none, undefined for a key
 * that is not ours */
function frameForKey(key, i) {
    if (key === "Home") {
        return homeIdx;
    }
    var dir = { ArrowUp: 0, Up: 0, ArrowDown: 1, Down: 1, ArrowLeft: 2, Left: 2, ArrowRight: 3, Right: 3 }[key];
    if (dir === undefined) {
        return undefined;
    }
    byRow();
    return dir === 0 ? childOf(i) : dir === 1 ? parentOf(i) : besideOf(i, dir === 2 ? -1 : 1);
}
