// Times java.util.regex on attack strings (see README.md); run as `java Time.java`.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

public class Time {
    static final double MIN_SECONDS = 0.05;
    static final int MAX_PUMPS = 1 << 22;
    static final int MAX_EXP_PUMPS = 64;
    static final int ROUNDS = 3;
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** The thread's CPU time, not the wall clock: time spent waiting for a core on a busy
     * machine (or compiling in the JIT's threads) is not the engine's. */
    static double timed(Pattern pattern, boolean full, String text) {
        long start = THREADS.getCurrentThreadCpuTime();
        Matcher matcher = pattern.matcher(text);
        boolean found = full ? matcher.matches() : matcher.find();
        return (THREADS.getCurrentThreadCpuTime() - start) / 1e9;
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
        int limit = exp ? MAX_EXP_PUMPS : MAX_PUMPS;
        while (timed(pattern, full, prefix + pump.repeat(k) + suffix) < MIN_SECONDS && k < limit) {
            k = exp ? k + 1 : k * 2;
        }
        int k2 = exp ? k + 2 : 3 * k;
        String text1 = prefix + pump.repeat(k) + suffix, text2 = prefix + pump.repeat(k2) + suffix;
        double t1 = Double.MAX_VALUE, t2 = Double.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++) {
            t1 = Math.min(t1, timed(pattern, full, text1));
            t2 = Math.min(t2, timed(pattern, full, text2));
        }
        return String.format("%d %.6f %d %.6f", k, t1, k2, t2);
    }
}
