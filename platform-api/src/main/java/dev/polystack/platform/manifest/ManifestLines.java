package dev.polystack.platform.manifest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.polystack.rules.manifest.ManifestParser;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Finds the line of a dotted manifest path ({@code workloads.api.resources.db.type}) by streaming
 * the document once and remembering where every key starts. Works for YAML and JSON.
 */
final class ManifestLines {

    private final Map<String, Integer> lines = new HashMap<>();

    ManifestLines(String content) {
        if (content != null && ManifestParser.firstLongLine(content) > 0) {
            // too long a line for the YAML reader (see MAX_YAML_LINE): the problem itself says which line
            return;
        }
        try (JsonParser parser = new YAMLFactory().createParser(content == null ? "" : content)) {
            Deque<String> path = new ArrayDeque<>();
            Deque<Boolean> inObject = new ArrayDeque<>();
            String pendingKey = null;
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                switch (token) {
                    case FIELD_NAME -> {
                        pendingKey = parser.currentName();
                        String full = join(path, pendingKey);
                        lines.putIfAbsent(full, parser.currentTokenLocation().getLineNr());
                    }
                    case START_OBJECT, START_ARRAY -> {
                        path.addLast(pendingKey == null ? "" : pendingKey);
                        inObject.addLast(token == JsonToken.START_OBJECT);
                        pendingKey = null;
                    }
                    case END_OBJECT, END_ARRAY -> {
                        if (!path.isEmpty()) {
                            path.removeLast();
                            inObject.removeLast();
                        }
                    }
                    default -> pendingKey = null;
                }
            }
        } catch (IOException | RuntimeException e) {
            // an unreadable manifest has no lines to offer; its problem says where it broke
        }
    }

    private static String join(Deque<String> path, String key) {
        StringBuilder out = new StringBuilder();
        for (String part : path) {
            if (!part.isEmpty()) {
                out.append(out.isEmpty() ? "" : ".").append(part);
            }
        }
        return out.isEmpty() ? key : out + "." + key;
    }

    /** The line of the longest known prefix of {@code dottedPath}, or null. */
    Integer lineOf(String dottedPath) {
        String candidate = dottedPath;
        while (candidate != null && !candidate.isEmpty()) {
            Integer line = lines.get(candidate);
            if (line != null) {
                return line;
            }
            int dot = candidate.lastIndexOf('.');
            candidate = dot < 0 ? null : candidate.substring(0, dot);
        }
        return null;
    }
}
