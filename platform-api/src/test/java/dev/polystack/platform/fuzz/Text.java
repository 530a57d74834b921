package dev.polystack.platform.fuzz;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Writing trees as JSON or YAML, and small text helpers. */
final class Text {

    static String abbreviate(String text, int max) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length() && out.length() < max; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                out.append(String.format("\\x%02x", (int) c));
            } else {
                out.append(c);
            }
        }
        return text.length() > max ? out + "… (" + text.length() + " chars)" : out.toString();
    }

    static String percentEncode(String text) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z'
                    || c >= 'A' && c <= 'Z'
                    || c >= '0' && c <= '9'
                    || c == '-'
                    || c == '_'
                    || c == '.') {
                out.append((char) c);
            } else {
                out.append('%').append(String.format("%02X", c));
            }
        }
        return out.toString();
    }

    /** JSON; with {@code sloppy} some strings keep raw control characters or broken escapes. */
    static void json(Object value, StringBuilder out, Gen g, boolean sloppy) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Raw raw) {
            out.append(raw.text());
        } else if (value instanceof Boolean b) {
            out.append(b);
        } else if (value instanceof Number n) {
            out.append(n);
        } else if (value instanceof String s) {
            jsonString(s, out, g, sloppy);
        } else if (value instanceof Obj obj) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : obj) {
                out.append(first ? "" : ",");
                first = false;
                jsonString(e.getKey(), out, g, sloppy);
                out.append(':');
                json(e.getValue(), out, g, sloppy);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i == 0 ? "" : ",");
                json(list.get(i), out, g, sloppy);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException(value.getClass().getName());
        }
    }

    static void jsonString(String s, StringBuilder out, Gen g, boolean sloppy) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c == 0x7f) {
                if (sloppy && g.chance(0.3)) {
                    out.append(c);
                } else {
                    out.append(String.format("\\u%04x", (int) c));
                }
            } else {
                out.append(c);
            }
        }
        if (sloppy && g.chance(0.05)) {
            out.append(g.oneOf("\\ud800", "\\udc00x", "\\x41", "\\u12", "\\"));
        }
        out.append('"');
    }

    static String json(Object value) {
        StringBuilder out = new StringBuilder();
        json(value, out, null, false);
        return out.toString();
    }

    /** YAML in a random mix of block and flow styles, with anchors, aliases, tags and comments. */
    static final class Yaml {
        final Gen g;
        final boolean hostile;
        final StringBuilder out = new StringBuilder();
        final List<String> anchors = new ArrayList<>();
        final String step;

        Yaml(Gen g, boolean hostile) {
            this.g = g;
            this.hostile = hostile;
            this.step = hostile && g.chance(0.1) ? g.oneOf(" ", "   ", "\t", "     ") : g.oneOf("  ", "  ", "    ");
        }

        String write(Object root) {
            if (hostile && g.chance(0.1)) {
                out.append(g.oneOf(
                        "%YAML 1.2\n---\n",
                        "%YAML 1.1\n---\n", "---\n", "# comment\n", "\uFEFF", "%TAG ! tag:x,2024:\n---\n"));
            }
            if (root instanceof Obj obj && !obj.isEmpty()) {
                blockMap(obj, "");
            } else if (root instanceof List<?> list && !list.isEmpty()) {
                blockList(list, "");
            } else {
                scalarOrFlow(root, false);
                out.append('\n');
            }
            if (hostile && g.chance(0.05)) {
                out.append(g.oneOf("---\nworkloads: {}\n", "...\n", "--- !!str\nx\n", "# trailing comment"));
            }
            return out.toString();
        }

        private void blockMap(Obj obj, String indent) {
            for (Map.Entry<String, Object> e : obj) {
                out.append(indent);
                key(e.getKey());
                out.append(':');
                value(e.getValue(), indent);
            }
        }

        private void blockList(List<?> list, String indent) {
            for (Object item : list) {
                out.append(indent).append('-');
                value(item, indent);
            }
        }

        private void value(Object value, String indent) {
            if (hostile && !anchors.isEmpty() && g.chance(0.03)) {
                out.append(" *").append(g.oneOf(anchors)).append('\n');
                return;
            }
            String prefix = "";
            if (hostile && g.chance(0.03)) {
                String anchor = "a" + anchors.size();
                anchors.add(anchor);
                prefix = " &" + anchor;
            }
            if (hostile && g.chance(0.02)) {
                prefix += " "
                        + g.oneOf(
                                "!!str",
                                "!!map",
                                "!!seq",
                                "!!binary",
                                "!!int",
                                "!!float",
                                "!!timestamp",
                                "!!set",
                                "!!omap",
                                "!custom",
                                "!!python/object/apply:os.system",
                                "!!java.net.URL",
                                "!<tag:yaml.org,2002:str>");
            }
            if (value instanceof Obj obj && !obj.isEmpty() && !g.chance(0.2)) {
                out.append(prefix)
                        .append(hostile && g.chance(0.05) ? "   # comment" : "")
                        .append('\n');
                blockMap(obj, indent + step);
            } else if (value instanceof List<?> list && !(value instanceof Obj) && !list.isEmpty() && !g.chance(0.2)) {
                out.append(prefix).append('\n');
                blockList(list, indent + step);
            } else {
                out.append(prefix).append(' ');
                scalarOrFlow(value, false);
                out.append('\n');
            }
        }

        private void scalarOrFlow(Object value, boolean flow) {
            if (value instanceof Obj obj) {
                out.append('{');
                boolean first = true;
                for (Map.Entry<String, Object> e : obj) {
                    out.append(first ? " " : ", ");
                    first = false;
                    key(e.getKey());
                    out.append(": ");
                    scalarOrFlow(e.getValue(), true);
                }
                out.append(obj.isEmpty() ? "}" : " }");
            } else if (value instanceof List<?> list) {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    out.append(i == 0 ? "" : ", ");
                    scalarOrFlow(list.get(i), true);
                }
                out.append(']');
            } else if (value == null) {
                out.append(g.oneOf("null", "~", "null"));
            } else if (value instanceof Raw raw) {
                out.append(raw.text());
            } else if (value instanceof Boolean b) {
                out.append(b);
            } else if (value instanceof Number n) {
                out.append(n);
            } else {
                string((String) value, flow);
            }
        }

        private void key(String key) {
            if (hostile && g.chance(0.02)) {
                out.append(g.oneOf("? ", ""))
                        .append(g.oneOf("[a, b]", "{a: b}", "*a0", "&k " + key, "!!str " + key, "\"\"", "''", "? x"));
                return;
            }
            string(key, true);
        }

        private void string(String s, boolean flow) {
            boolean plain =
                    s.matches("[A-Za-z][A-Za-z0-9_.-]*") && !s.matches("(?i)(y|n|yes|no|on|off|true|false|null)");
            if (plain && !(hostile && g.chance(0.1))) {
                out.append(s);
            } else if (hostile && g.chance(0.15)) {
                out.append(s); // as it comes: may break the document, which is the point
            } else if (!s.contains("'")
                    && !s.contains("\n")
                    && !s.contains("\r")
                    && g.chance(0.3)
                    && s.chars().allMatch(c -> c >= 0x20)) {
                out.append('\'').append(s).append('\'');
            } else {
                out.append('"');
                for (int i = 0; i < s.length(); i++) {
                    char c = s.charAt(i);
                    if (c == '"' || c == '\\') {
                        out.append('\\').append(c);
                    } else if (c < 0x20 || c == 0x7f || c == 0x85 || c == 0x2028 || c == 0x2029 || c == 0xFEFF) {
                        out.append(c == 0 ? "\\0" : String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
                out.append('"');
            }
        }
    }
}
