package dev.polystack.tests.standin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Set;
import java.util.UUID;

import static dev.polystack.tests.standin.StandInTofu.JSON;
import static dev.polystack.tests.standin.StandInTofu.VERSION;

/**
 * The stand-in's side of OpenTofu's HTTP state backend: v4 state files read and written with GET and
 * POST {@code ?ID=}, LOCK and UNLOCK with Basic credentials from {@code TF_HTTP_*}, retried as OpenTofu's
 * backend retries; and the state's {@code show -json} representation.
 */
final class HttpStateBackend {

    private final HttpClient http = HttpClient.newHttpClient();
    /** {@code terraform.backend.http} of the root module. */
    private final JsonNode config;

    HttpStateBackend(JsonNode config) {
        this.config = config;
    }

    ObjectNode readState() throws Exception {
        HttpResponse<byte[]> response = backend("GET", address(), null);
        if (response.statusCode() == 204 || response.statusCode() == 404 || response.body().length == 0) {
            return emptyState();
        }
        if (response.statusCode() != 200) {
            throw new IOException("Error: the state backend answered " + response.statusCode());
        }
        return (ObjectNode) JSON.readTree(response.body());
    }

    private static ObjectNode emptyState() {
        ObjectNode state = JSON.createObjectNode();
        state.put("version", 4);
        state.put("terraform_version", VERSION);
        state.put("serial", 0);
        state.put("lineage", UUID.randomUUID().toString());
        state.putObject("outputs");
        state.putArray("resources");
        state.putNull("check_results");
        return state;
    }

    /**
     * Writes the next serial of the state: the resource with {@code attributes} (none when destroyed) and the
     * {@code outputs} the module declares, each the input of the same name or derived from the input name.
     */
    void writeState(String lockId, ObjectNode previous, ObjectNode attributes, Set<String> declaredOutputs)
            throws Exception {
        ObjectNode state = JSON.createObjectNode();
        state.put("version", 4);
        state.put("terraform_version", VERSION);
        state.put("serial", previous.path("serial").asLong(0) + 1);
        state.put("lineage", previous.path("lineage").asText(UUID.randomUUID().toString()));
        ObjectNode outputs = state.putObject("outputs");
        ArrayNode resources = state.putArray("resources");
        if (attributes != null) {
            ObjectNode resource = resources.addObject();
            resource.put("module", "module.main");
            resource.put("mode", "managed");
            resource.put("type", "terraform_data");
            resource.put("name", "this");
            resource.put("provider", "provider[\"terraform.io/builtin/terraform\"]");
            ObjectNode instance = resource.putArray("instances").addObject();
            instance.put("schema_version", 0);
            instance.set("attributes", attributes);
            instance.putArray("sensitive_attributes");
            JsonNode inputs = attributes.path("input");
            for (String name : declaredOutputs) {
                ObjectNode output = outputs.putObject(name);
                output.set(
                        "value",
                        inputs.has(name)
                                ? inputs.get(name)
                                : JSON.getNodeFactory()
                                        .textNode(
                                                name + "-" + inputs.path("name").asText("")));
                output.put("type", "string");
                output.put("sensitive", true);
            }
        }
        state.putNull("check_results");
        // 1.8+ writes compact JSON and a newline to remote backends
        byte[] body = (JSON.writeValueAsString(state) + "\n").getBytes(StandardCharsets.UTF_8);
        HttpResponse<byte[]> response = backend("POST", address() + "?ID=" + lockId, body);
        if (response.statusCode() != 200 && response.statusCode() != 201 && response.statusCode() != 204) {
            throw new IOException("Error: Failed to persist state to backend: HTTP " + response.statusCode() + ": "
                    + new String(response.body(), StandardCharsets.UTF_8));
        }
        previous.set("resources", resources);
        previous.put("serial", state.get("serial").asLong());
    }

    static ObjectNode stateRepresentation(ObjectNode state) {
        ObjectNode show = JSON.createObjectNode();
        show.put("format_version", "1.0");
        if (state.path("resources").isEmpty() && state.path("outputs").isEmpty()) {
            return show;
        }
        show.put("terraform_version", VERSION);
        ObjectNode values = show.putObject("values");
        ObjectNode outputs = values.putObject("outputs");
        state.path("outputs").fields().forEachRemaining(e -> outputs.set(e.getKey(), e.getValue()));
        ObjectNode rootModule = values.putObject("root_module");
        ArrayNode children = rootModule.putArray("child_modules");
        ObjectNode main = children.addObject();
        main.put("address", "module.main");
        ArrayNode resources = main.putArray("resources");
        for (JsonNode resource : state.path("resources")) {
            ObjectNode out = resources.addObject();
            out.put(
                    "address",
                    resource.path("module").asText() + "."
                            + resource.path("type").asText() + "."
                            + resource.path("name").asText());
            out.put("mode", resource.path("mode").asText());
            out.put("type", resource.path("type").asText());
            out.put("name", resource.path("name").asText());
            out.put("provider_name", "terraform.io/builtin/terraform");
            out.put("schema_version", 0);
            out.set("values", resource.path("instances").path(0).path("attributes"));
            out.putObject("sensitive_values");
        }
        return show;
    }

    String lock(String operation) throws Exception {
        String id = UUID.randomUUID().toString();
        ObjectNode info = JSON.createObjectNode();
        info.put("ID", id);
        info.put("Operation", operation);
        info.put("Info", "");
        info.put("Who", System.getProperty("user.name") + "@standin");
        info.put("Version", VERSION);
        info.put("Created", OffsetDateTime.now(ZoneOffset.UTC).toString());
        info.put("Path", "");
        HttpResponse<byte[]> response = backend("LOCK", lockAddress(), JSON.writeValueAsBytes(info));
        if (response.statusCode() != 200) {
            String holder = new String(response.body(), StandardCharsets.UTF_8);
            UiStream.diagnostic("Error acquiring the state lock", "HTTP remote state already locked: " + holder);
            System.exit(1);
        }
        return id;
    }

    void unlock(String id) {
        try {
            backend(
                    "UNLOCK",
                    lockAddress(),
                    JSON.writeValueAsBytes(JSON.createObjectNode().put("ID", id)));
        } catch (Exception e) {
            System.err.println("Error releasing the state lock: " + e.getMessage());
        }
    }

    private HttpResponse<byte[]> backend(String method, String url, byte[] body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(body));
        String user = System.getenv("TF_HTTP_USERNAME");
        if (user != null) {
            String credentials = user + ":" + System.getenv("TF_HTTP_PASSWORD");
            request.header(
                    "Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        }
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        // as OpenTofu's http backend (go-retryablehttp): retry_max retries (default 2) on connection errors, 429 and
        // 5xx
        // other than 501, waiting retry_wait_min * 2^attempt seconds (default 1) up to retry_wait_max (default 30)
        int retries = config.path("retry_max").asInt(2);
        long waitMin = config.path("retry_wait_min").asLong(1);
        long waitMax = config.path("retry_wait_max").asLong(30);
        for (int attempt = 0; ; attempt++) {
            try {
                HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
                boolean retryable =
                        response.statusCode() == 429 || (response.statusCode() >= 500 && response.statusCode() != 501);
                if (!retryable || attempt >= retries) {
                    return response;
                }
            } catch (IOException e) {
                if (attempt >= retries) {
                    throw e;
                }
            }
            Thread.sleep(1000L * Math.min(waitMax, waitMin << Math.min(attempt, 20)));
        }
    }

    private String address() {
        return config.path("address").asText();
    }

    private String lockAddress() {
        return config.path("lock_address").asText(address());
    }
}
