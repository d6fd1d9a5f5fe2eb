"""Call every method of the published RegexSolver Python client against relang-server.

Usage: python python_scenario.py BASE_URL

Every answer is checked against an oracle that does not come from the server: Python's `re`
on the patterns and on generated strings, counts and lengths by brute force over small
alphabets, known limits. The scenario also checks that it called every public method of
`RegexSolverClient`, so a client release with a new method fails here until the method is
covered. Prints one JSON line, {"methods": [...], "checks": n}; the first wrong answer
stops it with a non-zero exit and the reason.
"""

import asyncio
import itertools
import json
import re
import sys

from regexsolver import (
    AccountLimits,
    AsyncRegexSolverClient,
    BigInteger,
    CharacterOrder,
    FairTerm,
    Infinite,
    Integer,
    PathOrder,
    RegexSolverClient,
    RegexSyntaxError,
    RegexTerm,
    ResponseFormat,
    Term,
)

CHECKS = 0


def check(condition, what):
    """Counts one check; stops the scenario when it fails."""
    global CHECKS
    if not condition:
        raise AssertionError(what)
    CHECKS += 1


def strings_over(alphabet, max_len):
    """Every string over `alphabet` of length at most `max_len`."""
    for length in range(max_len + 1):
        for chars in itertools.product(alphabet, repeat=length):
            yield "".join(chars)


def language(pattern, alphabet, max_len):
    """The strings over `alphabet` up to `max_len` that `pattern` matches whole, by `re`."""
    compiled = re.compile(pattern, re.DOTALL)
    return {s for s in strings_over(alphabet, max_len) if compiled.fullmatch(s)}


class Recorder:
    """Wraps the client and records which of its public methods were called."""

    def __init__(self, client):
        self._client = client
        self.called = set()

    def __getattr__(self, name):
        attr = getattr(self._client, name)
        if callable(attr) and not name.startswith("_"):
            self.called.add(name)
        return attr


def analyses(c):
    limits = c.get_account_limits()
    check(isinstance(limits, AccountLimits), f"limits: {limits!r}")
    check(limits.max_terms_count >= 2 and limits.max_states_count >= 1, f"limits: {limits!r}")
    check(limits.max_requests_rate == 0, f"auth off means no rate limit: {limits!r}")

    # Counts by brute force: every string of these languages is over `abc` and short.
    for pattern, max_len in [("(ab|c){1,3}", 6), ("a?b?c?", 3), ("[abc]{2}(a|bb)?", 4)]:
        expected = len(language(pattern, "abc", max_len))
        count = c.get_cardinality(Term.regex(pattern))
        check(count == Integer(expected), f"cardinality of {pattern}: {count!r} != {expected}")
    check(isinstance(c.get_cardinality(Term.regex("[a-z]{20}")), BigInteger), "26^20 is big")
    check(isinstance(c.get_cardinality(Term.regex("a*b")), Infinite), "a*b is infinite")
    check(c.get_cardinality(Term.regex("[]")) == Integer(0), "[] has no string")

    for pattern, max_len in [("(abc)?d", 4), ("a{2,5}|b", 5)]:
        lengths = sorted(len(s) for s in language(pattern, "abcd", max_len))
        got = c.get_length(Term.regex(pattern), execution_timeout=1000)
        check((got.min, got.max) == (lengths[0], lengths[-1]), f"length of {pattern}: {got!r}")
    got = c.get_length(Term.regex("x+"))
    check((got.min, got.max) == (1, None) and got.is_infinite(), f"length of x+: {got!r}")
    got = c.get_length(Term.regex("[]"))
    check((got.min, got.max) == (None, None), f"length of []: {got!r}")

    # Relations, held against brute force on {a,b} up to length 7.
    pairs = [("(a|b)*abb", "[ab]*abb"), ("(a|b)*abb", "[ab]*ab"), ("a(ba)*", "(ab)*a")]
    for left, right in pairs:
        expected = language(left, "ab", 7) == language(right, "ab", 7)
        got = c.equivalent(Term.regex(left), Term.regex(right))
        check(got == expected, f"equivalent({left}, {right}) = {got}")
    for small, big in [("[a-c]+", "[a-z]*"), ("[a-z]*", "[a-c]+"), ("(ab)+", "a[ab]*b")]:
        expected = language(small, "abcz", 4) <= language(big, "abcz", 4)
        got = c.subset(Term.regex(small), Term.regex(big))
        check(got == expected, f"subset({small}, {big}) = {got}")

    check(c.is_empty(Term.regex("[]")) is True, "[] is empty")
    check(c.is_empty(Term.regex("a")) is False, "a is not empty")
    check(c.is_empty_string(Term.regex("")) is True, "'' is exactly the empty string")
    check(c.is_empty_string(Term.regex("a?")) is False, "a? has more than ''")
    check(c.is_total(Term.regex("(a|[^a])*")) is True, "(a|[^a])* is total")
    check(c.is_total(Term.regex(".*")) is True, ".* is total (. matches newlines)")
    check(c.is_total(Term.regex("a*")) is False, "a* is not total")

    dot = c.get_dot(Term.regex("ab*"))
    check(dot.startswith("digraph") and '"a"' in dot and '"b"' in dot, f"dot: {dot!r}")

    # A pattern for the language, checked in Python's `re` against the original.
    for pattern in ["(a|b)*abb", "(ab|ba)*", "a{2,4}b?"]:
        got = c.get_pattern(Term.regex(pattern))
        check(
            language(got, "ab", 7) == language(pattern, "ab", 7),
            f"pattern {got!r} of {pattern} denotes another language",
        )
    nothing = c.intersection(Term.regex("a+"), Term.regex("b+"))
    check(c.get_pattern(nothing) == "[]", "the empty language is rendered []")
    check(not nothing.matches("a") and not nothing.matches(""), "[] matches nothing")


def computations(c):
    # Intersection to a regex, and to FAIR: the FAIR goes back in as a term.
    terms = [Term.regex("(abc|de){2}"), Term.regex("de.*"), Term.regex(".*abc")]
    got = c.intersection(*terms, response_format=ResponseFormat.REGEX)
    check(isinstance(got, RegexTerm) and got.matches("deabc"), f"intersection: {got}")
    check(not got.matches("abcde") and not got.matches("dede"), f"intersection: {got}")
    fair = c.intersection(*terms)
    check(isinstance(fair, FairTerm) and fair.get_fair(), f"intersection as FAIR: {fair}")
    check(c.get_cardinality(fair) == Integer(1), "deabc alone")
    check(c.generate_strings(fair, 10, 0) == ["deabc"], "the one string is deabc")

    # More terms than maxTermsCount: the client batches them into several requests.
    letters = [Term.regex(chr(ord("a") + i)) for i in range(12)]
    union = c.union(*letters, response_format="regex")
    check(language(union.get_pattern(), "abcdefghijklmn", 1) == set("abcdefghijkl"), f"{union}")
    check(c.get_cardinality(c.union(*letters)) == Integer(12), "12 letters")
    got = c.union(Term.regex("abc"), Term.regex("abd"), response_format=ResponseFormat.REGEX)
    check(language(got.get_pattern(), "abcd", 3) == {"abc", "abd"}, f"union: {got}")

    got = c.difference(Term.regex("[a-z]"), Term.regex("[aeiou]"), response_format="regex")
    expected = set("abcdefghijklmnopqrstuvwxyz") - set("aeiou")
    check(language(got.get_pattern(), "abcdefghijklmnopqrstuvwxyz", 1) == expected, f"{got}")

    got = c.concat(Term.regex("[0-9]{2}"), Term.regex("-"), Term.regex("[a-c]"))
    check(c.get_cardinality(got) == Integer(300), "100 * 1 * 3 strings")
    pattern = c.get_pattern(got)
    check(language(pattern, "019-ab", 4) == language("[0-9]{2}-[a-c]", "019-ab", 4), pattern)
    # Concatenation keeps the order of its terms.
    got = c.concat(Term.regex("a"), Term.regex("b"), response_format=ResponseFormat.REGEX)
    check(got.matches("ab") and not got.matches("ba"), f"concat order: {got}")

    got = c.complement(Term.regex("a+"), response_format=ResponseFormat.REGEX)
    check(language(got.get_pattern(), "ab", 4) == language("a+", "ab", 4) ^ set(strings_over("ab", 4)), f"{got}")
    both = c.union(Term.regex("a+"), c.complement(Term.regex("a+")))
    check(c.is_total(both), "L | not L is total")

    got = c.repeat(Term.regex("ab"), 2, None, response_format=ResponseFormat.REGEX)
    check(got.matches("abab") and got.matches("ababab") and not got.matches("ab"), f"{got}")
    got = c.repeat(Term.regex("a|bc"), 1, 3)
    check(c.get_cardinality(got) == Integer(2 + 4 + 8), "(a|bc){1,3}")

    # Determinize: a deterministic FAIR, and paging through it has no repeats or gaps.
    nfa = c.union(Term.regex("ab|ac"), Term.regex("a[b-d]"), response_format="fair", deterministic=False)
    det = c.determinize(Term.regex("(ab|ac)[xy]{3}"))
    check(isinstance(det, FairTerm) and det.is_deterministic is True, f"determinize: {det!r}")
    check(c.is_deterministic(det) is True, "a determinized FAIR is deterministic")
    check(c.is_deterministic(Term.regex("ab|ac")) is False, "ab|ac is not deterministic")
    check(c.get_cardinality(nfa) == Integer(3), "ab, ac, ad")
    pages = [c.generate_strings(det, 5, offset) for offset in range(0, 20, 5)]
    flat = [s for page in pages for s in page]
    check(sorted(flat) == sorted(language("(ab|ac)[xy]{3}", "abcxy", 5)), f"pages: {pages}")


def generation(c):
    # Sweep, ascending: one path, so the order is lexicographic.
    everything = sorted(language("[a-c]{2}", "abc", 2))
    check(c.generate_strings(Term.regex("[a-c]{2}"), 5, 2) == everything[2:7], "sweep page")

    term = "(ab|c){1,3}d?"
    expected = language(term, "abcd", 7)
    for path_order, char_order in itertools.product(
        [PathOrder.SWEEP, PathOrder.INTERLEAVE, PathOrder.SHUFFLED, "interleave"],
        [CharacterOrder.ASCENDING, CharacterOrder.SHUFFLED],
    ):
        got = c.generate_strings(
            Term.regex(term), 100, 0, path_order=path_order, character_order=char_order, seed=7
        )
        what = f"{path_order}/{char_order}"
        check(len(got) == len(set(got)) and set(got) == expected, f"{what}: {got}")
        again = c.generate_strings(
            Term.regex(term), 100, 0, path_order=path_order, character_order=char_order, seed=7
        )
        check(got == again, f"{what}: same request, same answer")

    got = c.generate_strings(
        Term.regex("[a-z]+"), 50, 10, min_length=3, max_length=4, charset="[a-d]",
        execution_timeout=2000,
    )
    check(len(got) == 50 and len(set(got)) == 50, f"charset page: {got}")
    check(all(3 <= len(s) <= 4 and set(s) <= set("abcd") for s in got), f"bounds: {got}")
    check(c.generate_strings(Term.regex("a{5}"), 10, 0, max_length=3) == [], "nothing that short")


def terms_and_errors(c):
    term = Term.regex("a+b")
    check(Term.deserialize(term.serialize()) == term and term.get_value() == "a+b", "round trip")
    fair = c.concat(Term.regex("x"), Term.regex("y+"))
    check(Term.deserialize(fair.serialize()) == fair and Term.fair(fair.get_value()) == fair, "fair")
    check(fair.get_pattern() is None, "a FAIR knows no pattern before get_pattern")
    c.get_pattern(fair)
    check(fair.matches("xyy") and not fair.matches("x"), "matches after get_pattern")
    try:
        c.is_empty(Term.regex("a(?|b)c"))
        check(False, "a branch reset is refused")
    except RegexSyntaxError as err:
        check("branch reset" in str(err), f"the message names the problem: {err}")


async def async_client(base_url):
    async with AsyncRegexSolverClient("no-token", base_url=base_url) as client:
        got = await client.get_cardinality(Term.regex("[ab]{3}"))
        check(got == Integer(8), f"async cardinality: {got!r}")


def main():
    base_url = sys.argv[1]
    with RegexSolverClient("no-token", base_url=base_url) as client:
        recorder = Recorder(client)
        analyses(recorder)
        computations(recorder)
        generation(recorder)
        terms_and_errors(recorder)
    asyncio.run(async_client(base_url))
    public = {
        name
        for name in dir(RegexSolverClient)
        if not name.startswith("_") and callable(getattr(RegexSolverClient, name))
    } - {"close"}
    missing = public - recorder.called
    check(not missing, f"client methods never called: {sorted(missing)}")
    print(json.dumps({"methods": sorted(recorder.called), "checks": CHECKS}))


if __name__ == "__main__":
    main()
