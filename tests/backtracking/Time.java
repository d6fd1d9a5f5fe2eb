// Times java.util.regex on attack strings (see README.md); run as `java Time.java`.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

public class Time {
    static final double MIN_SECONDS = 0.02;
    static final int MAX_PUMPS = 1 << 22;
    static final int MAX_EXP_PUMPS = 64;

    static double timed(Pattern pattern, boolean full, String text) {
        double best = Double.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            Matcher matcher = pattern.matcher(text);
            boolean found = full ? matcher.matches() : matcher.find();
            best = Math.min(best, (System.nanoTime() - start) / 1e9);
        }
        return best;
    }

    static String decode(String text) {
        return new String(Base64.getDecoder().decode(text), StandardCharsets.UTF_8);
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] parts = line.split(" ", -1); // an empty suffix is an empty last field
            if (parts.length < 7 || !parts[0].equals("C")) continue;
            boolean full = parts[1].equals("full");
            boolean exp = parts[2].equals("exp");
            String prefix = decode(parts[4]), pump = decode(parts[5]), suffix = decode(parts[6]);
            Pattern pattern;
            try {
                pattern = Pattern.compile(decode(parts[3]));
            } catch (PatternSyntaxException err) {
                System.out.println("invalid");
                continue;
            }
            // Twice: the second round runs on the matcher the JIT compiled in the first.
            String answer = null;
            for (int round = 0; round < 2; round++) {
                answer = timeCase(pattern, full, exp, prefix, pump, suffix);
            }
            System.out.println(answer);
            System.out.flush();
        }
    }

    static String timeCase(Pattern pattern, boolean full, boolean exp, String prefix, String pump, String suffix) {
        int k = exp ? 1 : 8;
        double elapsed;
        while (true) {
            elapsed = timed(pattern, full, prefix + pump.repeat(k) + suffix);
            if (elapsed >= MIN_SECONDS || k >= (exp ? MAX_EXP_PUMPS : MAX_PUMPS)) break;
            k = exp ? k + 1 : k * 2;
        }
        int k2 = exp ? k + 4 : 3 * k;
        double t2 = timed(pattern, full, prefix + pump.repeat(k2) + suffix);
        return String.format("%d %.6f %d %.6f", k, elapsed, k2, t2);
    }
}
