package dev.polystack.rules.template;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses the placeholder language.
 *
 * <pre>
 * template    = { literal | "$${" | placeholder }
 * placeholder = "${" ws reference ws "}"
 * reference   = identifier { "." identifier | "[" digits "]" | "[" quoted "]" }
 * identifier  = letter-or-underscore { letter | digit | "_" | "-" }
 * quoted      = '"' { char | '\"' | '\\' } '"'   (or the same with single quotes)
 * </pre>
 * Adjacent literals are merged, so a parsed template never holds two literals in a row nor an empty one.
 */
public final class TemplateParser {

    private TemplateParser() {}

    public static Template parse(String text) {
        if (text == null) {
            throw new TemplateException("a template cannot be null", 0);
        }
        List<Segment> segments = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '$' && text.startsWith("$${", i)) {
                literal.append("${");
                i += 3;
            } else if (c == '$' && text.startsWith("${", i)) {
                if (!literal.isEmpty()) {
                    segments.add(new Segment.Literal(literal.toString()));
                    literal.setLength(0);
                }
                int start = i;
                Cursor cursor = new Cursor(text, i + 2);
                cursor.skipSpaces();
                Reference reference = reference(cursor);
                cursor.skipSpaces();
                if (cursor.atEnd()) {
                    throw new TemplateException("unclosed placeholder: expected `}`", cursor.pos);
                }
                if (cursor.peek() != '}') {
                    throw new TemplateException(
                            "unexpected `" + cursor.peek() + "` in placeholder: expected `.`, `[` or `}`", cursor.pos);
                }
                segments.add(new Segment.Placeholder(reference, start));
                i = cursor.pos + 1;
            } else {
                literal.append(c);
                i++;
            }
        }
        if (!literal.isEmpty()) {
            segments.add(new Segment.Literal(literal.toString()));
        }
        return new Template(segments);
    }

    /** Whether a string can be used as a dotted path step. */
    public static boolean isIdentifier(String name) {
        if (name.isEmpty() || !(Character.isLetter(name.charAt(0)) || name.charAt(0) == '_') || name.charAt(0) > 127) {
            return false;
        }
        for (int k = 1; k < name.length(); k++) {
            char ch = name.charAt(k);
            if (ch > 127 || !(Character.isLetterOrDigit(ch) || ch == '_' || ch == '-')) {
                return false;
            }
        }
        return true;
    }

    private static Reference reference(Cursor cursor) {
        String root = identifier(cursor, "a reference such as context.env_id");
        List<PathElement> path = new ArrayList<>();
        while (!cursor.atEnd()) {
            char c = cursor.peek();
            if (c == '.') {
                cursor.pos++;
                path.add(new PathElement.Field(identifier(cursor, "a name after `.`")));
            } else if (c == '[') {
                cursor.pos++;
                cursor.skipSpaces();
                if (cursor.atEnd()) {
                    throw new TemplateException("unclosed `[`", cursor.pos);
                }
                char first = cursor.peek();
                if (first == '"' || first == '\'') {
                    path.add(new PathElement.Field(quoted(cursor, first)));
                } else if (first >= '0' && first <= '9') {
                    path.add(new PathElement.Index(digits(cursor)));
                } else {
                    throw new TemplateException("expected a number or a quoted name after `[`", cursor.pos);
                }
                cursor.skipSpaces();
                if (cursor.atEnd() || cursor.peek() != ']') {
                    throw new TemplateException("expected `]`", cursor.pos);
                }
                cursor.pos++;
            } else {
                break;
            }
        }
        return new Reference(root, path);
    }

    private static String identifier(Cursor cursor, String expected) {
        int start = cursor.pos;
        if (cursor.atEnd() || !isIdentifierStart(cursor.peek())) {
            throw new TemplateException("expected " + expected, start);
        }
        cursor.pos++;
        while (!cursor.atEnd() && isIdentifierPart(cursor.peek())) {
            cursor.pos++;
        }
        return cursor.text.substring(start, cursor.pos);
    }

    private static int digits(Cursor cursor) {
        int start = cursor.pos;
        while (!cursor.atEnd() && cursor.peek() >= '0' && cursor.peek() <= '9') {
            cursor.pos++;
        }
        String number = cursor.text.substring(start, cursor.pos);
        if (number.length() > 9) {
            throw new TemplateException("index too large", start);
        }
        return Integer.parseInt(number);
    }

    private static String quoted(Cursor cursor, char quote) {
        int start = cursor.pos;
        cursor.pos++;
        StringBuilder out = new StringBuilder();
        while (true) {
            if (cursor.atEnd()) {
                throw new TemplateException("unclosed quoted name", start);
            }
            char c = cursor.peek();
            if (c == '\\') {
                cursor.pos++;
                if (cursor.atEnd() || (cursor.peek() != '\\' && cursor.peek() != quote)) {
                    throw new TemplateException("only \\\\ and \\" + quote + " may be escaped", cursor.pos);
                }
                out.append(cursor.peek());
                cursor.pos++;
            } else if (c == quote) {
                cursor.pos++;
                return out.toString();
            } else {
                out.append(c);
                cursor.pos++;
            }
        }
    }

    private static boolean isIdentifierStart(char c) {
        return c < 128 && (Character.isLetter(c) || c == '_');
    }

    private static boolean isIdentifierPart(char c) {
        return c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == '-');
    }

    private static final class Cursor {
        final String text;
        int pos;

        Cursor(String text, int pos) {
            this.text = text;
            this.pos = pos;
        }

        boolean atEnd() {
            return pos >= text.length();
        }

        char peek() {
            return text.charAt(pos);
        }

        void skipSpaces() {
            while (!atEnd() && (peek() == ' ' || peek() == '\t')) {
                pos++;
            }
        }
    }
}
