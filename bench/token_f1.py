"""Token F1 between two texts, as the C++ tests and benches score the corpora
(tests/support/token_f1.hpp): texts split on JavaScript's white space,
compared as multisets of tokens. Shared by the Python benches and tests."""
import re

# JavaScript's \s (WhiteSpace and LineTerminator).
JS_SPACE_CHARS = ("\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
                  "\u2028\u2029\u202f\u205f\u3000\ufeff")
JS_SPACE = re.compile("[" + JS_SPACE_CHARS + "]+")


def tokens(text):
    return [t for t in JS_SPACE.split(text) if t]


def token_f1(actual, expected):
    a, e = tokens(actual), tokens(expected)
    if not a and not e:
        return 1.0
    counts = {}
    for t in e:
        counts[t] = counts.get(t, 0) + 1
    common = 0
    for t in a:
        if counts.get(t, 0) > 0:
            counts[t] -= 1
            common += 1
    if common == 0:
        return 0.0
    p, r = common / len(a), common / len(e)
    return 2 * p * r / (p + r)
