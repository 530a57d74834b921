package dev.polystack.tests.standin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;

import static dev.polystack.tests.standin.StandInTofu.JSON;
import static dev.polystack.tests.standin.StandInTofu.VERSION;

/** The machine-readable UI stream the stand-in writes with {@code -json}: one JSON message per line. */
final class UiStream {

    static final String ADDRESS = "module.main.terraform_data.this";
    static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);

    private UiStream() {}

    static void versionMessage() {
        ObjectNode line = base("info", "OpenTofu " + VERSION, "version");
        line.put("tofu", VERSION);
        line.put("ui", "1.2");
        OUT.println(line);
    }

    static void message(String level, String text, String type, String payloadKey, JsonNode payload) {
        ObjectNode line = base(level, text, type);
        if (payloadKey != null) {
            line.set(payloadKey, payload);
        }
        OUT.println(line);
    }

    static ObjectNode base(String level, String text, String type) {
        ObjectNode line = JSON.createObjectNode();
        line.put("@level", level);
        line.put("@message", text);
        line.put("@module", "tofu.ui");
        line.put("@timestamp", OffsetDateTime.now().toString());
        line.put("type", type);
        return line;
    }

    static void diagnostic(String summary, String detail) {
        ObjectNode diagnostic = JSON.createObjectNode();
        diagnostic.put("severity", "error");
        diagnostic.put("summary", summary);
        diagnostic.put("detail", detail);
        message("error", "Error: " + summary, "diagnostic", "diagnostic", diagnostic);
    }

    static int diagnosticAndExit(String summary, String detail) {
        diagnostic(summary, detail);
        return 1;
    }

    static ObjectNode resourceAddr() {
        ObjectNode resource = JSON.createObjectNode();
        resource.put("addr", ADDRESS);
        resource.put("module", "module.main");
        resource.put("resource", "terraform_data.this");
        resource.put("implied_provider", "terraform");
        resource.put("resource_type", "terraform_data");
        resource.put("resource_name", "this");
        resource.putNull("resource_key");
        return resource;
    }

    static ObjectNode hook(String action, Double elapsed) {
        ObjectNode hook = JSON.createObjectNode();
        hook.set("resource", resourceAddr());
        hook.put("action", action);
        if (elapsed != null) {
            hook.put("elapsed_seconds", elapsed);
        }
        return hook;
    }

    static ObjectNode summary(int add, int change, int remove, String operation) {
        ObjectNode changes = JSON.createObjectNode();
        changes.put("add", add);
        changes.put("change", change);
        changes.put("import", 0);
        changes.put("remove", remove);
        changes.put("forget", 0);
        changes.put("operation", operation);
        return changes;
    }

    static String verb(String action) {
        return switch (action) {
            case "delete" -> "Destroying";
            case "update" -> "Modifying";
            default -> "Creating";
        };
    }

    static String complete(String action) {
        return switch (action) {
            case "delete" -> "Destruction complete";
            case "update" -> "Modifications complete";
            default -> "Creation complete";
        };
    }
}
