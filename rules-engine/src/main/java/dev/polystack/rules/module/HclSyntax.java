package dev.polystack.rules.module;

import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Reads the structure of HCL native syntax ({@code .tf} files): bodies of attributes and blocks, with the
 * source text of each attribute's expression. Expressions are scanned, not evaluated: strings with
 * {@code ${ }} and {@code %{ }} templates, heredocs, comments and brackets are followed exactly, so that a
 * syntax error is found with its line and column, but nothing is computed and nothing is fetched.
 * Stateless and thread-safe; one instance per parse.
 *
 * <p>Why not a library: the Java HCL parser on Maven Central (hcl4j) evaluates expressions (functions,
 * HTTP data lookups), reports errors without positions and brings an HTTP client along. Polystack only
 * needs the shape of a module (its variables and outputs) and the syntax errors, with where they are.
 */
public final class HclSyntax {

    /** A syntax error at a position (lines and columns from 1). */
    public static final class SyntaxError extends RuntimeException {
        private final int line;
        private final int column;

        SyntaxError(String message, int line, int column) {
            super(message, null, false, false);
            this.line = line;
            this.column = column;
        }

        public int line() {
            return line;
        }

        public int column() {
            return column;
        }
    }

    /** An attribute {@code name = expression}. */
    public record Attribute(String name, String expression, int line, int column) {

        /** The value when the expression is a plain literal: a string without templates, a number, true, false or null. */
        public Object literal() {
            String text = expression.strip();
            if (text.equals("true") || text.equals("false")) {
                return Boolean.valueOf(text);
            }
            if (text.equals("null")) {
                return null;
            }
            if (text.matches("-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?")) {
                return new BigDecimal(text);
            }
            if (text.length() >= 2
                    && text.startsWith("\"")
                    && text.endsWith("\"")
                    && !text.contains("${")
                    && !text.contains("%{")) {
                return unescape(text.substring(1, text.length() - 1));
            }
            return expression;
        }
    }

    /** A block {@code type "label" ... { body }}. */
    public record Block(String type, List<String> labels, Body body, int line, int column) {}

    /** Attributes and blocks, in source order. */
    public record Body(List<Attribute> attributes, List<Block> blocks) {

        public Attribute attribute(String name) {
            return attributes.stream()
                    .filter(a -> a.name().equals(name))
                    .findFirst()
                    .orElse(null);
        }
    }

    /** What may stand between the names, numbers, strings and brackets of an expression. */
    private static final String OPERATORS = "+-*/%<>=!&|?:.,";

    private final String source;
    private int pos;
    private int line = 1;
    private int column = 1;

    private HclSyntax(String source) {
        this.source = source;
    }

    /**
     * Reads a whole file.
     *
     * @throws SyntaxError at the first place where the text is not HCL
     */
    public static Body parse(String source) {
        HclSyntax parser = new HclSyntax(source);
        return parser.body(null);
    }

    // ---- bodies ------------------------------------------------------------------------------

    /** A body up to the closing brace of {@code opened} (consumed), or to the end of the file when it is null. */
    private Body body(Block opening) {
        List<Attribute> attributes = new ArrayList<>();
        List<Block> blocks = new ArrayList<>();
        while (true) {
            skipBlankAndComments(true);
            if (atEnd()) {
                if (opening != null) {
                    throw new SyntaxError(
                            "Unclosed configuration block: there is no closing brace for the `" + opening.type()
                                    + "` block opened here",
                            opening.line(),
                            opening.column());
                }
                return new Body(attributes, blocks);
            }
            if (peek() == '}') {
                if (opening == null) {
                    throw error("Argument or block definition required: unexpected `}`");
                }
                advance();
                return new Body(attributes, blocks);
            }
            int startLine = line;
            int startColumn = column;
            String name = identifier("An argument or block definition is required here");
            skipInlineSpace();
            if (peek() == '=' && peekAt(1) != '=') {
                advance();
                String expression = expression(startLine, startColumn, false);
                attributes.add(new Attribute(name, expression, startLine, startColumn));
                endOfDefinition();
            } else {
                blocks.add(block(name, startLine, startColumn));
            }
        }
    }

    private Block block(String type, int startLine, int startColumn) {
        List<String> labels = new ArrayList<>();
        while (true) {
            skipInlineSpace();
            if (atEnd()) {
                throw error("Invalid block definition: a block `" + type + "` needs `{` after its labels");
            }
            char c = peek();
            if (c == '{') {
                advance();
                break;
            }
            if (c == '"') {
                int labelLine = line;
                int labelColumn = column;
                String label = quotedLabel();
                if (label == null) {
                    throw new SyntaxError(
                            "Invalid block label: a label cannot contain a template", labelLine, labelColumn);
                }
                labels.add(label);
            } else if (isIdentifierStart(c)) {
                labels.add(identifier(null));
            } else if (c == '\n' || c == '\r') {
                throw error("Invalid block definition: `" + type + "` is neither an argument (`" + type
                        + " = …`) nor a block" + " (`" + type + " { … }`)");
            } else {
                throw error("Invalid block definition: unexpected `" + c + "` after `" + type
                        + "`; an argument needs `=`," + " a block needs `{`");
            }
        }
        Block opening = new Block(type, labels, null, startLine, startColumn);
        skipInlineSpace();
        skipComment();
        Body body;
        if (peek() == '\n' || peek() == '\r') {
            body = body(opening);
        } else if (peek() == '}') {
            advance();
            body = new Body(List.of(), List.of());
        } else {
            // a one-line block holds at most one argument: `lifecycle { create_before_destroy = true }`
            int attributeLine = line;
            int attributeColumn = column;
            String name = identifier("An argument definition is required here");
            skipInlineSpace();
            if (peek() != '=') {
                throw error(
                        "Invalid single-argument block definition: a block on one line may hold one argument, not a block");
            }
            advance();
            String expression = expression(attributeLine, attributeColumn, true);
            skipInlineSpace();
            if (peek() != '}') {
                throw error("Invalid single-argument block definition: expected `}` after the argument");
            }
            advance();
            body = new Body(List.of(new Attribute(name, expression, attributeLine, attributeColumn)), List.of());
        }
        endOfDefinition();
        return new Block(type, List.copyOf(labels), body, startLine, startColumn);
    }

    /** After an argument or a block: only a comment may follow on the same line. */
    private void endOfDefinition() {
        skipInlineSpace();
        skipComment();
        if (atEnd() || peek() == '\n' || peek() == '\r' || peek() == '}') {
            return;
        }
        throw error("Missing newline after argument or block definition: unexpected `" + peek() + "`");
    }

    // ---- expressions -------------------------------------------------------------------------

    /**
     * Scans an expression to the end of its line (newlines inside brackets belong to it) and returns its
     * text. In a one-line block it also ends before a {@code }} that closes nothing. Outside brackets,
     * operands and operators must alternate, so that {@code a = 1 b = 2} and {@code a = 1 +} are refused as
     * OpenTofu refuses them; inside brackets only the brackets, strings and comments are followed.
     */
    private String expression(int attributeLine, int attributeColumn, boolean inOneLineBlock) {
        skipInlineSpace();
        int start = pos;
        Deque<int[]> brackets = new ArrayDeque<>();
        boolean expectOperand = true;
        boolean any = false;
        while (!atEnd()) {
            char c = peek();
            boolean outside = brackets.isEmpty();
            if (outside && (c == '\n' || c == '\r' || (c == '}' && inOneLineBlock))) {
                break;
            }
            if (c == '#' || (c == '/' && peekAt(1) == '/')) {
                if (outside) {
                    break;
                }
                skipComment();
                continue;
            }
            if (c == '/' && peekAt(1) == '*') {
                skipComment();
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                advance();
                continue;
            }
            any = true;
            int tokenLine = line;
            int tokenColumn = column;
            boolean operand;
            if (c == '"') {
                quotedTemplate();
                operand = true;
            } else if (c == '<'
                    && peekAt(1) == '<'
                    && (isIdentifierStart(peekAt(2)) || peekAt(2) == '-')
                    && expectOperand) {
                heredoc();
                operand = true;
            } else if (c == '(' || c == '[' || c == '{') {
                if (outside && !expectOperand && c == '{') {
                    throw new SyntaxError("Missing newline after argument: unexpected `{`", tokenLine, tokenColumn);
                }
                brackets.push(new int[] {c, line, column});
                advance();
                continue;
            } else if (c == ')' || c == ']' || c == '}') {
                if (outside) {
                    throw error("Unexpected `" + c + "`: it closes nothing");
                }
                int[] open = brackets.pop();
                char expected = closing((char) open[0]);
                if (c != expected) {
                    throw error("Mismatched brackets: `" + (char) open[0] + "` opened at line " + open[1] + " column "
                            + open[2] + " is closed by `" + c + "`, not `" + expected + "`");
                }
                advance();
                operand = true;
                if (!brackets.isEmpty()) {
                    continue;
                }
            } else if (isIdentifierStart(c)) {
                while (!atEnd() && (isIdentifierStart(peek()) || Character.isDigit(peek()) || peek() == '-')) {
                    advance();
                }
                operand = true;
            } else if (Character.isDigit(c)) {
                number();
                operand = true;
            } else if (c == '.') {
                // a traversal (.name, .0, .*) or an ellipsis: part of the operand before it
                while (peek() == '.') {
                    advance();
                }
                if (peek() == '*') {
                    advance();
                } else if (isIdentifierStart(peek()) || Character.isDigit(peek())) {
                    while (!atEnd() && (isIdentifierStart(peek()) || Character.isDigit(peek()) || peek() == '-')) {
                        advance();
                    }
                }
                continue;
            } else if (OPERATORS.indexOf(c) >= 0) {
                advance();
                if ((c == '=' || c == '!' || c == '<' || c == '>') && peek() == '='
                        || c == '&' && peek() == '&'
                        || c == '|' && peek() == '|'
                        || c == '=' && peek() == '>') {
                    advance();
                }
                if (outside) {
                    // a unary minus or not keeps expecting an operand; a binary operator starts expecting one
                    expectOperand = true;
                }
                continue;
            } else {
                throw error("Invalid character: `" + c + "` cannot appear in an expression"
                        + (c == '\'' ? "; strings are written in double quotes" : ""));
            }
            if (outside && operand) {
                if (!expectOperand) {
                    throw new SyntaxError(
                            "Missing newline after argument: an argument's value ends before this",
                            tokenLine,
                            tokenColumn);
                }
                expectOperand = false;
            } else if (operand && brackets.isEmpty()) {
                expectOperand = false;
            }
        }
        if (!brackets.isEmpty()) {
            int[] open = brackets.peek();
            throw new SyntaxError(
                    "Unclosed `" + (char) open[0] + "`: there is no `" + closing((char) open[0]) + "` for it",
                    open[1],
                    open[2]);
        }
        if (!any) {
            throw new SyntaxError(
                    "Missing expression: the argument on this line has no value after `=`",
                    attributeLine,
                    attributeColumn);
        }
        if (expectOperand) {
            throw new SyntaxError(
                    "Invalid expression: an operator at the end of the value needs an operand after it",
                    attributeLine,
                    attributeColumn);
        }
        return source.substring(start, pos).strip();
    }

    private void number() {
        while (Character.isDigit(peek())) {
            advance();
        }
        if (peek() == '.' && Character.isDigit(peekAt(1))) {
            advance();
            while (Character.isDigit(peek())) {
                advance();
            }
        }
        if ((peek() == 'e' || peek() == 'E')
                && (Character.isDigit(peekAt(1))
                        || (peekAt(1) == '+' || peekAt(1) == '-') && Character.isDigit(peekAt(2)))) {
            advance();
            advance();
            while (Character.isDigit(peek())) {
                advance();
            }
        }
    }

    private static char closing(char open) {
        return open == '(' ? ')' : open == '[' ? ']' : '}';
    }

    /** A quoted string with templates: {@code "a ${b} %{ if c }d%{ endif }"}; the opening quote is next. */
    private void quotedTemplate() {
        int startLine = line;
        int startColumn = column;
        advance();
        while (true) {
            if (atEnd() || peek() == '\n' || peek() == '\r') {
                throw new SyntaxError(
                        "Unterminated template string: the string has no closing quote on its line",
                        startLine,
                        startColumn);
            }
            char c = peek();
            if (c == '"') {
                advance();
                return;
            }
            if (c == '\\') {
                escape();
            } else if ((c == '$' || c == '%') && peekAt(1) == c && peekAt(2) == '{') {
                advance();
                advance();
                advance();
            } else if ((c == '$' || c == '%') && peekAt(1) == '{') {
                interpolation();
            } else {
                advance();
            }
        }
    }

    private void escape() {
        int startLine = line;
        int startColumn = column;
        advance();
        if (atEnd()) {
            throw new SyntaxError("Invalid escape sequence at the end of the file", startLine, startColumn);
        }
        char c = peek();
        switch (c) {
            case 'n', 'r', 't', '"', '\\' -> advance();
            case 'u', 'U' -> {
                int digits = c == 'u' ? 4 : 8;
                advance();
                for (int i = 0; i < digits; i++) {
                    if (atEnd() || Character.digit(peek(), 16) < 0) {
                        throw new SyntaxError(
                                "Invalid escape sequence: `\\" + c + "` needs " + digits + " hexadecimal digits",
                                startLine,
                                startColumn);
                    }
                    advance();
                }
            }
            default ->
                throw new SyntaxError(
                        "Invalid escape sequence: `\\" + c + "` is not one; use \\n, \\r, \\t, \\\", \\\\,"
                                + " \\uNNNN or \\UNNNNNNNN",
                        startLine,
                        startColumn);
        }
    }

    /** {@code ${ expression }} or {@code %{ directive }}, nested expressions and strings included. */
    private void interpolation() {
        int startLine = line;
        int startColumn = column;
        advance();
        advance();
        int depth = 0;
        while (true) {
            if (atEnd()) {
                throw new SyntaxError(
                        "Unclosed template interpolation: `${` or `%{` has no `}`", startLine, startColumn);
            }
            char c = peek();
            if (c == '"') {
                quotedTemplate();
            } else if (c == '<' && peekAt(1) == '<' && (isIdentifierStart(peekAt(2)) || peekAt(2) == '-')) {
                heredoc();
            } else if (c == '{' || c == '(' || c == '[') {
                depth++;
                advance();
            } else if (c == ')' || c == ']') {
                depth--;
                advance();
            } else if (c == '}') {
                advance();
                if (depth == 0) {
                    return;
                }
                depth--;
            } else if (c == '#' || (c == '/' && (peekAt(1) == '/' || peekAt(1) == '*'))) {
                skipComment();
            } else {
                advance();
            }
        }
    }

    /** {@code <<EOT} or {@code <<-EOT}, up to a line that holds only the marker. */
    private void heredoc() {
        int startLine = line;
        int startColumn = column;
        advance();
        advance();
        if (peek() == '-') {
            advance();
        }
        String marker = identifier("Invalid heredoc: `<<` needs a marker such as EOT");
        skipInlineSpace();
        if (peek() == '\r') {
            advance();
        }
        if (peek() != '\n') {
            throw error("Invalid heredoc: the marker `" + marker + "` must end its line");
        }
        advance();
        while (!atEnd()) {
            int lineStart = pos;
            while (!atEnd() && peek() != '\n') {
                advance();
            }
            String text = source.substring(lineStart, pos).strip();
            if (text.equals(marker)) {
                return;
            }
            if (!atEnd()) {
                advance();
            }
        }
        throw new SyntaxError(
                "Unterminated heredoc: no line holds only `" + marker + "` after it", startLine, startColumn);
    }

    /** A block label in quotes; null when it holds a template. */
    private String quotedLabel() {
        int start = pos;
        quotedTemplate();
        String text = source.substring(start + 1, pos - 1);
        return text.contains("${") || text.contains("%{") ? null : unescape(text);
    }

    // ---- characters --------------------------------------------------------------------------

    private String identifier(String expectation) {
        if (atEnd() || !isIdentifierStart(peek())) {
            throw error(
                    expectation == null
                            ? "Invalid block definition: a label must be an identifier or a quoted string"
                            : expectation + (atEnd() ? "" : ": unexpected `" + peek() + "`"));
        }
        int start = pos;
        while (!atEnd() && (isIdentifierStart(peek()) || Character.isDigit(peek()) || peek() == '-')) {
            advance();
        }
        return source.substring(start, pos);
    }

    private static boolean isIdentifierStart(char c) {
        return c == '_' || Character.isLetter(c);
    }

    private void skipBlankAndComments(boolean newlines) {
        while (!atEnd()) {
            char c = peek();
            if (c == ' ' || c == '\t' || (newlines && (c == '\n' || c == '\r')) || c == '\uFEFF') {
                advance();
            } else if (c == '#' || (c == '/' && (peekAt(1) == '/' || peekAt(1) == '*'))) {
                skipComment();
            } else {
                return;
            }
        }
    }

    private void skipInlineSpace() {
        while (!atEnd() && (peek() == ' ' || peek() == '\t')) {
            advance();
        }
    }

    /** A comment at the position, if there is one: {@code # …}, {@code // …} (to the line's end) or {@code /* … *}{@code /}. */
    private void skipComment() {
        if (atEnd()) {
            return;
        }
        if (peek() == '#' || (peek() == '/' && peekAt(1) == '/')) {
            while (!atEnd() && peek() != '\n') {
                advance();
            }
        } else if (peek() == '/' && peekAt(1) == '*') {
            int startLine = line;
            int startColumn = column;
            advance();
            advance();
            while (!(peek() == '*' && peekAt(1) == '/')) {
                if (atEnd()) {
                    throw new SyntaxError("Unterminated comment: `/*` has no `*/`", startLine, startColumn);
                }
                advance();
            }
            advance();
            advance();
        }
    }

    private boolean atEnd() {
        return pos >= source.length();
    }

    private char peek() {
        return atEnd() ? '\0' : source.charAt(pos);
    }

    private char peekAt(int offset) {
        int at = pos + offset;
        return at < source.length() ? source.charAt(at) : '\0';
    }

    private void advance() {
        char c = source.charAt(pos++);
        if (c == '\n') {
            line++;
            column = 1;
        } else if (!Character.isLowSurrogate(c)) {
            column++;
        }
    }

    private SyntaxError error(String message) {
        return new SyntaxError(message, line, column);
    }

    static String unescape(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\' || i + 1 >= text.length()) {
                out.append(c);
                continue;
            }
            char next = text.charAt(++i);
            switch (next) {
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u', 'U' -> {
                    int digits = next == 'u' ? 4 : 8;
                    out.appendCodePoint(Integer.parseInt(text.substring(i + 1, i + 1 + digits), 16));
                    i += digits;
                }
                default -> out.append(next);
            }
        }
        return out.toString();
    }
}
