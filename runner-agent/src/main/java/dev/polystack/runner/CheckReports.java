package dev.polystack.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.polystack.runner.protocol.CheckReport;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;

/**
 * Reads a check's plan ({@code show -json} of it) into what the control plane records: the drift with the
 * attributes that changed, the changes an apply would make, and the relevant attributes. Values OpenTofu
 * marks sensitive never leave the runner; long values and long lists are cut.
 */
public final class CheckReports {

    /** What a sensitive value becomes. */
    public static final String SENSITIVE = "(sensitive)";

    static final int MAX_RESOURCES = 200;
    static final int MAX_ATTRIBUTES = 100;
    static final int MAX_VALUE = 1024;
    private static final String CUT = "… (cut)";

    private CheckReports() {}

    public static CheckReport read(JsonNode plan) {
        List<CheckReport.ResourceDrift> drift = new ArrayList<>();
        for (JsonNode resource : plan.path("resource_drift")) {
            List<String> actions = actions(resource);
            if (actions.isEmpty() || actions.equals(List.of("no-op")) || drift.size() == MAX_RESOURCES) {
                continue;
            }
            JsonNode change = resource.path("change");
            List<CheckReport.AttributeChange> attributes = new ArrayList<>();
            diff(
                    "",
                    change.path("before"),
                    change.path("after"),
                    sensitive(change.path("before_sensitive")),
                    sensitive(change.path("after_sensitive")),
                    change.path("before_sensitive"),
                    change.path("after_sensitive"),
                    attributes);
            drift.add(new CheckReport.ResourceDrift(resource.path("address").asText(), actions, attributes));
        }
        List<CheckReport.ResourceChange> changes = new ArrayList<>();
        for (JsonNode resource : plan.path("resource_changes")) {
            List<String> actions = actions(resource);
            if (actions.isEmpty()
                    || actions.equals(List.of("no-op"))
                    || actions.equals(List.of("read"))
                    || changes.size() == MAX_RESOURCES) {
                continue;
            }
            changes.add(new CheckReport.ResourceChange(
                    resource.path("address").asText(),
                    actions,
                    resource.path("action_reason").isTextual()
                            ? resource.path("action_reason").asText()
                            : null));
        }
        List<CheckReport.Attribute> relevant = new ArrayList<>();
        for (JsonNode attribute : plan.path("relevant_attributes")) {
            if (relevant.size() == MAX_RESOURCES) {
                break;
            }
            relevant.add(
                    new CheckReport.Attribute(attribute.path("resource").asText(), path(attribute.path("attribute"))));
        }
        boolean outputsChange = false;
        for (Iterator<JsonNode> it = plan.path("output_changes").elements(); it.hasNext(); ) {
            List<String> actions = new ArrayList<>();
            it.next().path("actions").forEach(a -> actions.add(a.asText()));
            outputsChange |= !actions.isEmpty() && !actions.equals(List.of("no-op"));
        }
        return new CheckReport(!drift.isEmpty(), !changes.isEmpty() || outputsChange, drift, changes, relevant);
    }

    /** Whether a change (of drift or of the plan) deletes the object: a delete, or a replace. */
    public static boolean destructive(List<String> actions) {
        return actions.contains("delete");
    }

    private static List<String> actions(JsonNode resource) {
        List<String> actions = new ArrayList<>();
        resource.path("change").path("actions").forEach(a -> actions.add(a.asText()));
        return actions;
    }

    private static boolean sensitive(JsonNode marker) {
        return marker.isBoolean() && marker.asBoolean();
    }

    /** Every leaf whose value differs, depth first, in key order; a sensitive one (either side) is masked. */
    private static void diff(
            String path,
            JsonNode before,
            JsonNode after,
            boolean beforeSensitive,
            boolean afterSensitive,
            JsonNode beforeMarks,
            JsonNode afterMarks,
            List<CheckReport.AttributeChange> into) {
        if (into.size() >= MAX_ATTRIBUTES || before.equals(after)) {
            return;
        }
        if (before.isObject() && after.isObject() && !beforeSensitive && !afterSensitive) {
            TreeSet<String> keys = new TreeSet<>();
            before.fieldNames().forEachRemaining(keys::add);
            after.fieldNames().forEachRemaining(keys::add);
            for (String key : keys) {
                diff(
                        path.isEmpty() ? key : path + "." + key,
                        before.path(key),
                        after.path(key),
                        sensitive(beforeMarks.path(key)),
                        sensitive(afterMarks.path(key)),
                        beforeMarks.path(key),
                        afterMarks.path(key),
                        into);
            }
            return;
        }
        if (before.isArray()
                && after.isArray()
                && before.size() == after.size()
                && !beforeSensitive
                && !afterSensitive) {
            for (int i = 0; i < before.size(); i++) {
                diff(
                        path + "[" + i + "]",
                        before.get(i),
                        after.get(i),
                        sensitive(beforeMarks.path(i)),
                        sensitive(afterMarks.path(i)),
                        beforeMarks.path(i),
                        afterMarks.path(i),
                        into);
            }
            return;
        }
        boolean masked = beforeSensitive || afterSensitive || containsMark(beforeMarks) || containsMark(afterMarks);
        into.add(new CheckReport.AttributeChange(
                path.isEmpty() ? "(whole object)" : path,
                masked ? TextNode.valueOf(SENSITIVE) : shown(before),
                masked ? TextNode.valueOf(SENSITIVE) : shown(after)));
    }

    private static boolean containsMark(JsonNode marks) {
        if (marks.isBoolean()) {
            return marks.asBoolean();
        }
        for (JsonNode child : marks) {
            if (containsMark(child)) {
                return true;
            }
        }
        return false;
    }

    /** A value as shown: a missing one is null; one longer than {@link #MAX_VALUE} characters of JSON is cut to text. */
    private static JsonNode shown(JsonNode value) {
        if (value.isMissingNode()) {
            return JsonNodeFactory.instance.nullNode();
        }
        String text = value.toString();
        return text.length() <= MAX_VALUE ? value : TextNode.valueOf(text.substring(0, MAX_VALUE - CUT.length()) + CUT);
    }

    /** {@code ["rules", 0, "port"]} → {@code rules[0].port}. */
    static String path(JsonNode steps) {
        StringBuilder path = new StringBuilder();
        for (JsonNode step : steps) {
            if (step.isNumber()) {
                path.append('[').append(step.asInt()).append(']');
            } else if (step.isTextual() && path.length() > 0) {
                path.append('.').append(step.asText());
            } else {
                path.append(step.asText());
            }
        }
        return path.toString();
    }
}
