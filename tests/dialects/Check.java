// Home-engine oracle for java.util.regex: Matcher.matches() of base64 lines (protocol in
// README.md).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

public class Check {
    /** The code points of {@code lo-hi,c,...} (hex), surrogates left out, that pass. */
    interface CodeTest {
        boolean test(int code);
    }

    static String matching(String ranges, CodeTest test) {
        StringBuilder out = new StringBuilder();
        int runStart = -1;
        int runEnd = -2;
        for (String part : ranges.split(",")) {
            if (part.isEmpty()) continue;
            String[] bounds = part.split("-");
            int lo = Integer.parseInt(bounds[0], 16);
            int hi = Integer.parseInt(bounds[bounds.length - 1], 16);
            for (int code = lo; code <= hi; code++) {
                if (code >= 0xD800 && code <= 0xDFFF || !test.test(code)) continue;
                if (code == runEnd + 1) {
                    runEnd = code;
                    continue;
                }
                appendRun(out, runStart, runEnd);
                runStart = code;
                runEnd = code;
            }
        }
        appendRun(out, runStart, runEnd);
        return out.toString();
    }

    static void appendRun(StringBuilder out, int lo, int hi) {
        if (lo < 0) return;
        if (out.length() > 0) out.append(',');
        out.append(Integer.toHexString(lo));
        if (hi != lo) out.append('-').append(Integer.toHexString(hi));
    }

    /**
     * Whether {@code pattern} matches all of {@code text}. The engine's own failures while
     * matching (a {@code StackOverflowError} on a deep backtrack) answer no match, said on
     * stderr, rather than end the batch.
     */
    static boolean matches(Pattern pattern, String text) {
        if (pattern == null) return false;
        try {
            return pattern.matcher(text).matches();
        } catch (RuntimeException | StackOverflowError err) {
            System.err.println("Check.java: matching " + pattern + " failed: " + err);
            return false;
        }
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        Pattern pattern = null;
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) continue;
            String[] fields = line.split(" ", -1);
            String kind = fields[0];
            String data = fields.length > 1 ? fields[1] : "";
            if (kind.equals("A")) {
                Pattern compiled = pattern;
                String codes = matching(data, code -> compiled != null
                        && compiled.matcher(new String(Character.toChars(code))).matches());
                out.append(("r " + codes).trim()).append('\n');
                continue;
            }
            if (kind.equals("N")) {
                // Character.getName of the code points given, `hex:name` joined by `|`.
                StringBuilder names = new StringBuilder("n ");
                matching(data, code -> {
                    String name = Character.getName(code);
                    if (name != null) names.append(Integer.toHexString(code)).append(':').append(name).append('|');
                    return false;
                });
                out.append(names.toString().trim()).append('\n');
                continue;
            }
            if (kind.equals("V")) {
                // Java names no Unicode version at run time: the runtime's stands for it.
                String codes = matching("0-10ffff", code -> Character.getType(code) != Character.UNASSIGNED);
                out.append("v java-").append(Runtime.version().feature()).append(' ').append(codes).append('\n');
                continue;
            }
            String text = new String(Base64.getDecoder().decode(data), StandardCharsets.UTF_8);
            if (kind.equals("P")) {
                try {
                    pattern = Pattern.compile(text);
                    out.append("ok\n");
                } catch (PatternSyntaxException err) {
                    pattern = null;
                    out.append("E\n");
                }
            } else {
                out.append(matches(pattern, text) ? "1\n" : "0\n");
            }
        }
        System.out.print(out);
    }
}
