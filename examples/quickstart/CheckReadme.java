import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fails when the README's quickstart snippets and this example drift apart. Run from this directory:
 * {@code java CheckReadme.java} (or {@code java CheckReadme.java PATH/TO/README.md}).
 *
 * <p>In the README, a code block preceded by {@code <!-- quickstart:NAME -->} must equal the lines of
 * {@code Quickstart.java} between {@code // tag::NAME[]} and {@code // end::NAME[]}, without their common indentation;
 * {@code <!-- quickstart:imports -->} must equal the file's import lines. Every tag of the file must be shown.
 */
public final class CheckReadme {
    private static final Path SOURCE = Path.of("src/main/java/com/example/quickstart/Quickstart.java");
    private static final Pattern MARKER = Pattern.compile("<!-- quickstart:([a-z-]+) -->\\s*\\n```java\\n(.*?)\\n```",
            Pattern.DOTALL);

    public static void main(String[] args) throws IOException {
        Path readme = Path.of(args.length > 0 ? args[0] : "../../README.md");
        List<String> source = Files.readAllLines(SOURCE);
        Map<String, String> regions = new LinkedHashMap<>();
        regions.put("imports", String.join("\n", source.stream().filter(l -> l.startsWith("import ")).toList()));
        String open = null;
        List<String> lines = new ArrayList<>();
        for (String line : source) {
            String t = line.strip();
            if (t.startsWith("// tag::") && t.endsWith("[]")) {
                open = t.substring("// tag::".length(), t.length() - 2);
                lines = new ArrayList<>();
            } else if (t.startsWith("// end::") && open != null) {
                regions.put(open, dedent(lines));
                open = null;
            } else if (open != null) {
                lines.add(line);
            }
        }
        Matcher m = MARKER.matcher(Files.readString(readme));
        Map<String, String> shown = new LinkedHashMap<>();
        while (m.find()) {
            shown.put(m.group(1), m.group(2));
        }
        List<String> problems = new ArrayList<>();
        regions.forEach((name, code) -> {
            String block = shown.remove(name);
            if (block == null) {
                problems.add("the README does not show '" + name + "'");
            } else if (!block.equals(code)) {
                problems.add("the README's '" + name + "' differs from " + SOURCE + ":\n--- README\n" + block
                        + "\n--- example\n" + code);
            }
        });
        shown.keySet().forEach(name -> problems.add("the README shows '" + name + "', which the example has no tag for"));
        if (!problems.isEmpty()) {
            problems.forEach(System.err::println);
            System.exit(1);
        }
        System.out.println(readme + " shows " + regions.keySet() + " exactly as " + SOURCE + " has them");
    }

    private static String dedent(List<String> lines) {
        int indent = lines.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        return String.join("\n", lines.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).toList());
    }
}
