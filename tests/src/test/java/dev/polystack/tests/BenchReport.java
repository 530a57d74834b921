package dev.polystack.tests;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.polystack.tests.Figures.round;

/**
 * What a benchmark run measured: the figures for benchmark.json, the rows of the printed table, and the
 * targets, each met or not.
 */
final class BenchReport {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Map<String, Object> figures = new LinkedHashMap<>();
    private final List<String[]> table = new ArrayList<>();
    private final List<Map<String, Object>> targets = new ArrayList<>();

    /** A figure for benchmark.json. */
    void put(String key, Object value) {
        figures.put(key, value);
    }

    /** A row of the printed table. */
    void row(String group, String what, String figure, String note) {
        table.add(new String[] {group, what, figure, note});
    }

    /** A figure and its target: in the targets table and benchmark.json, and checked with -Dbench.enforce=true. */
    void target(String figure, double measured, String unit, String comparison, double limit) {
        boolean met = switch (comparison) {
            case "<" -> measured < limit;
            case "<=" -> measured <= limit;
            case ">=" -> measured >= limit;
            default -> throw new IllegalArgumentException(comparison);
        };
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("figure", figure);
        t.put("measured", round(measured));
        t.put("unit", unit);
        t.put(
                "target",
                comparison + " " + (limit == Math.rint(limit) ? Long.toString((long) limit) : Double.toString(limit)));
        t.put("met", met);
        targets.add(t);
    }

    /** Prints the table and the targets and writes {@code target} (benchmark.json). */
    void print(Path target) throws IOException {
        StringBuilder out = new StringBuilder("\nPolystack benchmarks\n");
        for (String[] r : table) {
            out.append(String.format("  %-12s %-62s %16s  %s%n", r[0], r[1], r[2], r[3]));
        }
        out.append("\nTargets\n");
        for (Map<String, Object> t : targets) {
            out.append(String.format(
                    "  %-70s %12s %-4s  %-12s %s%n",
                    t.get("figure"),
                    t.get("measured"),
                    t.get("unit"),
                    t.get("target"),
                    (Boolean) t.get("met") ? "met" : "NOT MET"));
        }
        System.out.println(out);
        figures.put("targets", targets);
        Files.createDirectories(target.getParent());
        Files.writeString(target, JSON.writeValueAsString(figures));
        System.out.println("written to " + target);
    }

    /** The targets missed, one line each. */
    List<String> missed() {
        return targets.stream()
                .filter(t -> !(Boolean) t.get("met"))
                .map(t -> t.get("figure") + ": " + t.get("measured") + " " + t.get("unit") + ", target "
                        + t.get("target"))
                .toList();
    }

    int targetCount() {
        return targets.size();
    }
}
