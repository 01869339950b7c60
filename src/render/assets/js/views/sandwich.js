/* F's callees and callers, merged (graph()'s scope, only with the views; see views/stacks.js). */

/* A merged tree rooted at function F, of at most CAP nodes: parent, name and value per node
 * (typed arrays, N of them used); child() finds or adds a child by name through an open
 * hash of (parent, name). Nothing per node is left for the collector: a page holding 50k
 * frames makes every collection slow. */
function mergedTree(f, cap) {
    var size = 1;
    while (size < 2 * cap) {
        size *= 2;
    }
    var mask = size - 1;
    var slots = new Int32Array(size); /* node + 1; 0: free */
    var m = { n: 1, parent: new Int32Array(cap), name: new Int32Array(cap), value: new Float64Array(cap) };
    m.parent[0] = -1;
    m.name[0] = f;
    m.child = function (p, nm) {
        var h = (Math.imul(p, 0x9e3779b1) ^ Math.imul(nm + 1, 0x85ebca77)) & mask;
        for (;;) {
            var c = slots[h] - 1;
            if (c < 0) {
                c = m.n++;
                m.parent[c] = p;
                m.name[c] = nm;
                slots[h] = c + 1;
                return c;
            }
            if (m.parent[c] === p && m.name[c] === nm) {
                return c;
            }
            h = (h + 1) & mask;
        }
    };
    return m;
}

/* F's callees and callers trees (values: counts), its inclusive and self time. */
function sandwich(t, f) {
    var n = t.n;
    var parent = t.parent;
    var name = t.name;
    var self = t.self;
    var sub = new Float64Array(n);
    var i;
    for (i = n - 1; i > 0; i--) {
        sub[i] += self[i];
        sub[parent[i]] += sub[i];
    }
    /* a merged node stands for at least one node of T: N bounds both */
    var callees = mergedTree(f, n);
    var callers = mergedTree(f, n);
    var into = new Int32Array(n);  /* node -> its callees node; -1 outside F's subtrees */
    var selfTime = 0;
    into[0] = -1;
    for (i = 1; i < n; i++) {
        var up = into[parent[i]];
        if (name[i] === f) {
            selfTime += self[i];
        }
        if (up >= 0) {
            into[i] = callees.child(up, name[i]);
            callees.value[into[i]] += self[i];
        } else if (name[i] === f) {
            /* F's outermost occurrence on this path: the stacks below it count once */
            into[i] = 0;
            callees.value[0] += self[i];
            callers.value[0] += sub[i];
            for (var q = parent[i], c = 0; q > 0; q = parent[q]) {
                c = callers.child(c, name[q]);
                callers.value[c] += sub[i];
            }
        } else {
            into[i] = -1;
        }
    }
    /* a merged node comes after its parent: one backward pass sums the subtrees */
    for (i = callees.n - 1; i > 0; i--) {
        callees.value[callees.parent[i]] += callees.value[i];
    }
    return { callees: callees, callers: callers, total: callers.value[0], self: selfTime, of: sub[0] };
}
