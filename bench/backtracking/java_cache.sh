#!/bin/sh
# Times Java's loop cache (issue 34, docs/benchmarks.md) with the engine test's Java driver
# (tests/backtracking/Time.java: the CPU time at the first pump count k, doubling from 8
# (`poly`) or counting from 1 (`exp`), that takes 0.05 s, then at 3k (`poly`) or k + 2
# (`exp`)). Each case is `mode kind pattern prefix pump suffix`; the output adds the
# degree a `poly` timing shows (log3 of the ratio); a 1 GB stack for the deep recursion of
# a linear loop over long inputs. Run from the repository root:
# `sh bench/backtracking/java_cache.sh`.
set -eu
cases='full poly (a+)+b - a !
full poly (a|a)*b - a !
full poly (a*)*b - a !
full poly (a|aa)+b - a !
full poly ^(\w+\s?)*$ - a !
full poly ^([a-z0-9]+\.?)+@x$ - a !
search poly (a+)+b - a !
full exp (a+)+?b - a !
full exp (?:(a+)+)?b - a !
full exp (a+)+\1 - a !
full poly \d+\d+ 00 0 a'
b64() { if [ "$1" = - ]; then printf ''; else printf '%s' "$1" | base64 | tr -d '\n'; fi; }
times=$(mktemp)
printf '%s\n' "$cases" | while read -r mode kind pattern prefix pump suffix; do
    printf 'C %s %s %s %s %s %s\n' "$mode" "$kind" "$(b64 "$pattern")" "$(b64 "$prefix")" \
        "$(b64 "$pump")" "$(b64 "$suffix")"
done | java -Xss1g tests/backtracking/Time.java >"$times"
printf '%s\n' "$cases" | paste -d ' ' - "$times" | awk '{
    printf "%-6s %-4s %-22s k=%s %ss, k=%s %ss", $1, $2, $3, $7, $8, $9, $10
    if ($2 == "poly") printf "  degree %.2f", log($10 / $8) / log(3)
    printf "\n" }'
rm -f "$times"
