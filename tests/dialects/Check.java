// Home-engine oracle for java.util.regex: Matcher.matches() of base64 lines.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

public class Check {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        Pattern pattern = null;
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) continue;
            int space = line.indexOf(' ');
            String kind = space < 0 ? line : line.substring(0, space);
            String data = space < 0 ? "" : line.substring(space + 1);
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
                out.append(pattern != null && pattern.matcher(text).matches() ? "1\n" : "0\n");
            }
        }
        System.out.print(out);
    }
}
