package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.cli.ConfigDocuments.Desired;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What configuration as code would change: each document matched with the object of the same name (rules:
 * of the same criteria), the fields that differ, and for a sync the managed objects no document names. Pure:
 * it reads nothing and changes nothing.
 */
final class ConfigPlan {

    enum Action {
        CREATE("+", "create"),
        UPDATE("~", "update"),
        REPLACE("-/+", "replace"),
        DELETE("-", "delete"),
        /** A protected or destroying delete that is not made; said, not counted. */
        KEEP("!", "keep"),
        /** A change that cannot be made (a protected rule would need replacing): nothing is applied. */
        BLOCKED("x", "blocked"),
        UNCHANGED("=", "unchanged");

        final String mark;
        final String word;

        Action(String mark, String word) {
            this.mark = mark;
            this.word = word;
        }
    }

    /** One object's change. {@code current} is the object as the API has it (absent for a create). */
    record Change(
            Action action,
            ConfigKind kind,
            String name,
            List<String> fields,
            String note,
            Desired desired,
            JsonNode current) {

        String line() {
            StringBuilder line = new StringBuilder(action.mark).append(' ').append(name);
            if (!fields.isEmpty()) {
                line.append(": ").append(String.join(", ", fields));
            }
            if (note != null) {
                line.append(" (").append(note).append(')');
            }
            return line.toString();
        }
    }

    private final List<Change> changes;

    private ConfigPlan(List<Change> changes) {
        this.changes = changes;
    }

    List<Change> changes() {
        return changes;
    }

    long count(Action action) {
        return changes.stream().filter(c -> c.action() == action).count();
    }

    boolean changesSomething() {
        return changes.stream()
                .anyMatch(c -> EnumSet.of(Action.CREATE, Action.UPDATE, Action.REPLACE, Action.DELETE)
                        .contains(c.action()));
    }

    String summary() {
        return "Plan: " + count(Action.CREATE) + " to create, " + (count(Action.UPDATE) + count(Action.REPLACE))
                + " to update, "
                + count(Action.DELETE) + " to delete, " + count(Action.UNCHANGED) + " unchanged."
                + (count(Action.KEEP) > 0 ? " " + count(Action.KEEP) + " kept." : "")
                + (count(Action.BLOCKED) > 0 ? " " + count(Action.BLOCKED) + " blocked: nothing will be applied." : "");
    }

    /**
     * Plans the documents against the current objects of their kinds.
     *
     * @param managedBy     what this configuration calls itself; every object it writes carries it
     * @param sync          also delete the managed objects of the documents' kinds that no document names
     * @param rotateSecrets send the secret values again (otherwise only new or removed secret names count)
     * @param allowDestroy  a sync may delete environments (which destroys their resources)
     */
    static ConfigPlan of(
            List<Desired> documents,
            Map<ConfigKind, List<JsonNode>> current,
            String managedBy,
            boolean sync,
            boolean rotateSecrets,
            boolean allowDestroy) {
        Map<String, String> moduleTypes = new HashMap<>();
        current.getOrDefault(ConfigKind.MODULE, List.of())
                .forEach(m -> moduleTypes.put(
                        m.path("id").asText(), m.path("resource_type").asText()));
        documents.stream()
                .filter(d -> d.kind() == ConfigKind.MODULE)
                .forEach(d -> moduleTypes.put(
                        d.object().path("id").asText(),
                        d.object().path("resource_type").asText()));

        List<Change> changes = new ArrayList<>();
        Set<JsonNode> matched = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Desired desired : documents) {
            Map<String, JsonNode> existing = new LinkedHashMap<>();
            for (JsonNode object : current.getOrDefault(desired.kind(), List.of())) {
                existing.putIfAbsent(identity(desired.kind(), object, moduleTypes), object);
            }
            JsonNode found = existing.get(identity(desired.kind(), desired.object(), moduleTypes));
            if (found != null) {
                matched.add(found);
            }
            changes.add(change(desired, found, managedBy, rotateSecrets));
        }
        if (sync) {
            Set<ConfigKind> kinds = new TreeSet<>(Comparator.reverseOrder());
            documents.forEach(d -> kinds.add(d.kind()));
            for (ConfigKind kind : kinds) {
                for (JsonNode object : current.getOrDefault(kind, List.of())) {
                    if (matched.contains(object)
                            || !managedBy.equals(object.path("managed_by").asText(null))) {
                        continue;
                    }
                    if (object.path("protected").asBoolean()) {
                        changes.add(new Change(
                                Action.KEEP, kind, kind.display(object), List.of(), "protected", null, object));
                    } else if (kind == ConfigKind.ENVIRONMENT && !allowDestroy) {
                        changes.add(new Change(
                                Action.KEEP,
                                kind,
                                kind.display(object),
                                List.of(),
                                "deleting an environment destroys its resources: add --allow-destroy",
                                null,
                                object));
                    } else {
                        changes.add(
                                new Change(Action.DELETE, kind, kind.display(object), List.of(), null, null, object));
                    }
                }
            }
        }
        return new ConfigPlan(changes);
    }

    private static Change change(Desired desired, JsonNode current, String managedBy, boolean rotateSecrets) {
        ConfigKind kind = desired.kind();
        ObjectNode wanted = desired.object();
        String name = kind.display(wanted);
        if (current == null) {
            return new Change(Action.CREATE, kind, name, List.of(), null, desired, null);
        }
        boolean wantProtected = wanted.path("protected").asBoolean(false);
        if (kind.isRule()) {
            String target = kind == ConfigKind.MODULE_RULE ? "module_id" : "runner_id";
            if (!wanted.path(target).asText().equals(current.path(target).asText())) {
                if (current.path("protected").asBoolean()) {
                    return new Change(
                            Action.BLOCKED,
                            kind,
                            name,
                            List.of(target),
                            "rule " + current.path("id").asText() + " has the same criteria and is protected",
                            desired,
                            current);
                }
                return new Change(
                        Action.REPLACE,
                        kind,
                        name,
                        List.of(target),
                        "replaces rule " + current.path("id").asText() + " of "
                                + current.path(target).asText(),
                        desired,
                        current);
            }
        }
        List<String> fields = new ArrayList<>();
        for (Iterator<String> names = wanted.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (field.equals("protected")
                    || field.equals(kind.secretField)
                    || kind.keys.contains(field)
                    || kind.isRule()) {
                continue;
            }
            if (!same(field, wanted.get(field), current.path(field))) {
                fields.add(field);
            }
        }
        if (kind.secretField != null && wanted.has(kind.secretField)) {
            Set<String> names = new TreeSet<>();
            wanted.get(kind.secretField).fieldNames().forEachRemaining(names::add);
            Set<String> stored = new TreeSet<>();
            current.path(kind.secretField).fieldNames().forEachRemaining(stored::add);
            if (rotateSecrets || !names.equals(stored)) {
                fields.add(kind.secretField + (rotateSecrets ? " (values sent again)" : ""));
            }
        }
        String note = null;
        if (kind == ConfigKind.MODULE && !fields.isEmpty()) {
            int version = current.path("version").asInt();
            note = "version " + version + " -> " + (version + 1);
        }
        if (wantProtected != current.path("protected").asBoolean()) {
            fields.add("protected");
        }
        String manager = current.path("managed_by").asText(null);
        if (!managedBy.equals(manager)) {
            fields.add("managed_by" + (manager == null ? "" : " (was " + manager + ")"));
        }
        return new Change(
                fields.isEmpty() ? Action.UNCHANGED : Action.UPDATE, kind, name, fields, note, desired, current);
    }

    /**
     * What makes two objects of a kind the same object: their names, or for rules the criteria they match
     * (module rules also the resource type their module is of; a rule per criteria is all the API allows).
     */
    static String identity(ConfigKind kind, JsonNode object, Map<String, String> moduleTypes) {
        List<String> parts = new ArrayList<>(List.of(kind.name()));
        if (kind == ConfigKind.MODULE_RULE) {
            String module = object.path("module_id").asText();
            parts.add(moduleTypes.getOrDefault(module, "module:" + module));
        }
        kind.criteria().forEach(field -> parts.add(object.path(field).asText("")));
        kind.keys.forEach(key -> parts.add(object.path(key).asText()));
        return String.join("|", parts);
    }

    /** Whether a document's value is what the API holds: numbers by value, keys in any order, public keys without line breaks. */
    static boolean same(String field, JsonNode wanted, JsonNode held) {
        if (wanted == null || wanted.isNull()) {
            return held == null || held.isNull() || held.isMissingNode();
        }
        if (held == null || held.isMissingNode() || held.isNull()) {
            return false;
        }
        if (field.equals("public_key") && wanted.isTextual() && held.isTextual()) {
            return wanted.asText().replaceAll("\\s", "").equals(held.asText().replaceAll("\\s", ""));
        }
        if (wanted.isNumber() && held.isNumber()) {
            return wanted.decimalValue().compareTo(held.decimalValue()) == 0;
        }
        if (wanted.isObject() && held.isObject()) {
            Set<String> names = new HashSet<>();
            wanted.fieldNames().forEachRemaining(names::add);
            Set<String> heldNames = new HashSet<>();
            held.fieldNames().forEachRemaining(heldNames::add);
            return names.equals(heldNames) && names.stream().allMatch(n -> same(n, wanted.get(n), held.get(n)));
        }
        if (wanted.isArray() && held.isArray()) {
            if (wanted.size() != held.size()) {
                return false;
            }
            for (int i = 0; i < wanted.size(); i++) {
                if (!same(field, wanted.get(i), held.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return wanted.equals(held);
    }

    /** The body that creates or updates a document's object: the document as written, what manages it, and the version it was read at. */
    static ObjectNode body(Change change, String managedBy, boolean rotateSecrets) {
        if (change.kind().isRule() && change.action() == Action.UPDATE) {
            ObjectNode management = JsonNodeFactory.instance.objectNode();
            management.put("managed_by", managedBy);
            management.put(
                    "protected", change.desired().object().path("protected").asBoolean(false));
            return management;
        }
        ObjectNode body = change.desired().object().deepCopy();
        if (change.kind() == ConfigKind.ENVIRONMENT) {
            body.remove("project_id");
        }
        body.put("managed_by", managedBy);
        body.put("protected", body.path("protected").asBoolean(false));
        if (change.action() == Action.UPDATE) {
            change.kind().keys.forEach(body::remove);
            String secretField = change.kind().secretField;
            if (secretField != null && !rotateSecrets && body.get(secretField) instanceof ObjectNode secrets) {
                List<String> names = new ArrayList<>();
                secrets.fieldNames().forEachRemaining(names::add);
                names.stream().filter(change.current().path(secretField)::has).forEach(n -> secrets.put(n, "***"));
            }
            body.set("version", change.current().path("version"));
        }
        return body;
    }
}
