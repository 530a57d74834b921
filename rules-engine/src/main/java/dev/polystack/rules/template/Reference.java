package dev.polystack.rules.template;

import java.util.List;

/**
 * What a placeholder refers to: a root ({@code context}, {@code resources}, {@code shared}) and a
 * path below it.
 */
public record Reference(String root, List<PathElement> path) {

    public Reference {
        path = List.copyOf(path);
    }

    /** The name at position {@code i} of the path, or null when it is absent or an index. */
    public String fieldAt(int i) {
        return i < path.size() && path.get(i) instanceof PathElement.Field f ? f.name() : null;
    }

    /** The canonical text of the reference, without {@code ${ }}. */
    public String text() {
        StringBuilder out = new StringBuilder(root);
        for (PathElement element : path) {
            if (element instanceof PathElement.Index index) {
                out.append('[').append(index.index()).append(']');
            } else {
                String name = ((PathElement.Field) element).name();
                if (TemplateParser.isIdentifier(name)) {
                    out.append('.').append(name);
                } else {
                    out.append("[\"")
                            .append(name.replace("\\", "\\\\").replace("\"", "\\\""))
                            .append("\"]");
                }
            }
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return text();
    }
}
