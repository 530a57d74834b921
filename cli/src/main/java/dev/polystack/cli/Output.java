package dev.polystack.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Writing answers as a table for people, or as JSON or YAML for scripts. */
public final class Output {

    public enum Format {
        table,
        json,
        yaml
    }

    private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    private Output() {}

    public static String json(JsonNode value) {
        try {
            return PRETTY.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String yaml(JsonNode value) {
        try {
            return YAML.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Items as rows: the given columns, each a field name (nested with dots), in that order. */
    public static void print(PrintWriter out, Format format, JsonNode items, List<String> columns) {
        switch (format) {
            case json -> out.println(json(items));
            case yaml -> out.print(yaml(items));
            case table -> out.print(table(items, columns));
        }
        out.flush();
    }

    public static String table(JsonNode items, List<String> columns) {
        List<String[]> rows = new ArrayList<>();
        rows.add(columns.stream()
                .map(c -> c.replace('_', ' ').replace('.', ' ').toUpperCase(Locale.ROOT))
                .toArray(String[]::new));
        for (JsonNode item : items) {
            rows.add(columns.stream().map(c -> cell(field(item, c))).toArray(String[]::new));
        }
        int[] widths = new int[columns.size()];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(row[i]);
                if (i < row.length - 1) {
                    line.append(" ".repeat(widths[i] - row[i].length() + 2));
                }
            }
            text.append(line.toString().stripTrailing()).append('\n');
        }
        if (rows.size() == 1) {
            text.append("(none)\n");
        }
        return text.toString();
    }

    static JsonNode field(JsonNode item, String path) {
        JsonNode node = item;
        for (String part : path.split("\\.")) {
            node = node.path(part);
        }
        return node;
    }

    private static String cell(JsonNode value) {
        if (value == null || value.isMissingNode() || value.isNull()) {
            return "-";
        }
        if (value.isValueNode()) {
            String text = value.asText().replace('\n', ' ');
            return text.length() > 80 ? text.substring(0, 79) + "…" : text;
        }
        String text = value.toString();
        return text.length() > 80 ? text.substring(0, 79) + "…" : text;
    }
}
