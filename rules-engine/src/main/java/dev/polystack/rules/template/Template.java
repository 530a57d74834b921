package dev.polystack.rules.template;

import java.util.ArrayList;
import java.util.List;

/**
 * A string with {@code ${...}} placeholders, parsed. A template that is exactly one placeholder is a
 * <em>whole-value</em> template: it resolves to the referenced JSON value with its type; any other
 * template resolves to a string.
 */
public record Template(List<Segment> segments) {

    public Template {
        segments = List.copyOf(segments);
    }

    /** Parses {@code text}; see {@link TemplateParser} for the grammar. */
    public static Template parse(String text) {
        return TemplateParser.parse(text);
    }

    public boolean isWholeValue() {
        return segments.size() == 1 && segments.get(0) instanceof Segment.Placeholder;
    }

    public boolean hasPlaceholders() {
        return segments.stream().anyMatch(s -> s instanceof Segment.Placeholder);
    }

    public List<Segment.Placeholder> placeholders() {
        List<Segment.Placeholder> placeholders = new ArrayList<>();
        for (Segment segment : segments) {
            if (segment instanceof Segment.Placeholder p) {
                placeholders.add(p);
            }
        }
        return placeholders;
    }

    /** The canonical text, which parses back to an equal template (positions aside). */
    public String print() {
        StringBuilder out = new StringBuilder();
        for (Segment segment : segments) {
            if (segment instanceof Segment.Literal literal) {
                out.append(literal.text().replace("${", "$${"));
            } else {
                out.append("${")
                        .append(((Segment.Placeholder) segment).reference().text())
                        .append('}');
            }
        }
        return out.toString();
    }

    /** The same template without source positions, for comparisons. */
    public List<Object> shape() {
        List<Object> shape = new ArrayList<>();
        for (Segment segment : segments) {
            shape.add(segment instanceof Segment.Placeholder p ? p.reference() : segment);
        }
        return shape;
    }
}
