package dev.polystack.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Collects the error diagnostics of one job's tofu commands, whether they come as {@code -json} messages
 * ({@code plan}, {@code apply}) or as the human-readable text that {@code init} and older releases print:
 * <pre>
 * Error: Unclosed configuration block
 *
 *   on module/main.tf line 2, in resource "terraform_data" "a":
 *    2: resource "terraform_data" "a" {
 *
 * There is no closing brace for this block before the end of the file.
 * </pre>
 * (with {@code │} in front of each line and {@code ╷ ╵} around the block when colours are on). The
 * summary, the file and line, and the first paragraph of the detail are kept. Thread-safe.
 */
public final class Diagnostics {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern START = Pattern.compile("^(Error|Warning): (.+)$");
    private static final Pattern SUBJECT = Pattern.compile("^\\s+on (.+?) line (\\d+)(?:, in .*)?:?$");
    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*m");
    private static final Pattern SNIPPET = Pattern.compile("^\\s+(\\d+:|├|│|└|\\|).*");

    /** One error: what tofu said, and where when it said so. */
    public record Diagnostic(String summary, String detail, String file, Integer line) {

        /** "Unclosed configuration block: There is no closing brace… (module/main.tf line 2)". */
        public String describe() {
            StringBuilder out = new StringBuilder(summary);
            if (detail != null && !detail.isBlank()) {
                out.append(": ").append(detail);
            }
            if (file != null) {
                out.append(" (")
                        .append(file)
                        .append(line == null ? "" : " line " + line)
                        .append(')');
            }
            return out.toString();
        }
    }

    private final List<Diagnostic> errors = new ArrayList<>();

    // the text diagnostic being read
    private String severity;
    private String summary;
    private String file;
    private Integer line;
    private final List<String> paragraph = new ArrayList<>();
    private String detail;
    private boolean inSnippet;

    /** The errors seen so far, in order. */
    public synchronized List<Diagnostic> errors() {
        List<Diagnostic> all = new ArrayList<>(errors);
        Diagnostic open = current();
        if (open != null && "Error".equals(severity)) {
            all.add(open);
        }
        return all;
    }

    /** A line of stdout: a {@code -json} message, or text. Returns its level ("error", "warn" or null). */
    public synchronized String stdout(String raw) {
        String stripped = raw.strip();
        if (stripped.startsWith("{")) {
            try {
                JsonNode message = JSON.readTree(stripped);
                if (message != null && message.isObject() && message.has("@message")) {
                    if ("diagnostic".equals(message.path("type").asText())
                            && "error".equals(message.path("@level").asText())) {
                        errors.add(fromJson(
                                message.path("diagnostic"),
                                message.path("@message").asText()));
                    }
                    return null;
                }
            } catch (IOException e) {
                // text after all
            }
        }
        return text(raw);
    }

    /** A line of stderr, always text. Returns "error" inside an error diagnostic, "warn" otherwise. */
    public synchronized String stderr(String raw) {
        String level = text(raw);
        return level == null ? "warn" : level;
    }

    static Diagnostic fromJson(JsonNode diagnostic, String fallback) {
        JsonNode range = diagnostic.path("range");
        String summary =
                diagnostic.path("summary").asText(fallback.startsWith("Error: ") ? fallback.substring(7) : fallback);
        String detail = diagnostic.path("detail").asText("");
        // the first paragraph says what went wrong; later ones suggest commands to run
        String first = detail.strip().split("\\n\\s*\\n", 2)[0];
        return new Diagnostic(
                summary,
                first.isBlank() ? null : oneLine(first),
                range.has("filename") ? range.path("filename").asText() : null,
                range.path("start").has("line")
                        ? range.path("start").path("line").asInt()
                        : null);
    }

    private String text(String raw) {
        String text = unboxed(raw);
        if (text == null) {
            return severity == null ? null : level();
        }
        Matcher start = START.matcher(text);
        if (start.matches()) {
            finish();
            severity = start.group(1);
            summary = start.group(2).strip();
            return level();
        }
        if (severity == null) {
            return null;
        }
        if (text.isBlank()) {
            endParagraph();
            inSnippet = false;
            return level();
        }
        Matcher subject = SUBJECT.matcher(text);
        if (file == null && detail == null && paragraph.isEmpty() && subject.matches()) {
            file = subject.group(1);
            line = Integer.valueOf(subject.group(2));
            inSnippet = true;
            return level();
        }
        if (inSnippet || (paragraph.isEmpty() && SNIPPET.matcher(text).matches())) {
            return level();
        }
        if (detail == null) {
            paragraph.add(text.strip());
        }
        return level();
    }

    private String level() {
        return "Error".equals(severity) ? "error" : "warn";
    }

    /** The line without the box drawing of coloured output; null for a line that is only box drawing. */
    private static String unboxed(String raw) {
        String text = ANSI.matcher(raw).replaceAll("").replaceAll("\\s+$", "");
        if (text.equals("╷") || text.equals("╵")) {
            return null;
        }
        if (text.startsWith("│ ")) {
            return text.substring(2);
        }
        if (text.equals("│")) {
            return "";
        }
        return text;
    }

    private void endParagraph() {
        if (!paragraph.isEmpty() && detail == null) {
            detail = String.join(" ", paragraph);
        }
        paragraph.clear();
    }

    private Diagnostic current() {
        if (severity == null) {
            return null;
        }
        String text = detail != null ? detail : paragraph.isEmpty() ? null : String.join(" ", paragraph);
        return new Diagnostic(summary, text, file, line);
    }

    private void finish() {
        Diagnostic done = current();
        if (done != null && "Error".equals(severity)) {
            errors.add(done);
        }
        severity = null;
        summary = null;
        file = null;
        line = null;
        detail = null;
        paragraph.clear();
        inSnippet = false;
    }

    private static String oneLine(String text) {
        return text.strip().replaceAll("\\s*\\n\\s*", " ");
    }
}
