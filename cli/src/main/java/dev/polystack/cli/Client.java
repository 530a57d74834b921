package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/** The Polystack API over HTTP, with the caller's token; answers that are not a success become {@link ApiException}. */
public class Client {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final URI base;
    private final String token;
    private final HttpClient http;

    public Client(String url, String token) {
        String trimmed = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        try {
            this.base = URI.create(trimmed);
        } catch (IllegalArgumentException e) {
            throw CliException.badInput("`" + url + "` is not a URL");
        }
        if (base.getScheme() == null || !base.getScheme().matches("https?")) {
            throw CliException.badInput("`" + url + "` is not an http(s) URL");
        }
        this.token = token;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    public String url() {
        return base.toString();
    }

    public JsonNode get(String path) {
        return json(send(request(path).GET()));
    }

    /**
     * Every item of a paged list, page after page ({@code limit=500}, then each {@code next_page_token}).
     * {@code path} may carry a query already.
     */
    public void items(String path, Consumer<JsonNode> onItem) {
        String separator = path.contains("?") ? "&" : "?";
        String token = null;
        do {
            JsonNode page = get(path + separator + "limit=500"
                    + (token == null ? "" : "&page_token=" + URLEncoder.encode(token, StandardCharsets.UTF_8)));
            page.path("items").forEach(onItem);
            token = page.path("next_page_token").asText(null);
        } while (token != null);
    }

    public JsonNode post(String path, Object body) {
        return json(
                send(request(path).header("Content-Type", "application/json").POST(body(body))));
    }

    public JsonNode post(String path, Object body, Map<String, String> headers) {
        HttpRequest.Builder builder =
                request(path).header("Content-Type", "application/json").POST(body(body));
        headers.forEach(builder::header);
        return json(send(builder));
    }

    public JsonNode post(String path, String contentType, String body) {
        return json(send(
                request(path).header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body))));
    }

    public JsonNode put(String path, String contentType, String body) {
        return json(
                send(request(path).header("Content-Type", contentType).PUT(HttpRequest.BodyPublishers.ofString(body))));
    }

    public JsonNode put(String path, Object body) {
        return json(
                send(request(path).header("Content-Type", "application/json").PUT(body(body))));
    }

    public JsonNode patch(String path, Object body) {
        return json(
                send(request(path).header("Content-Type", "application/json").method("PATCH", body(body))));
    }

    public JsonNode delete(String path) {
        return json(send(request(path).DELETE()));
    }

    /** Any call, for {@code polystack api}: the answer's status and text, never an exception for a status. */
    public HttpResponse<String> raw(String method, String path, String contentType, String body) {
        HttpRequest.Builder builder = request(path)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            builder.header("Content-Type", contentType);
        }
        return exchange(builder);
    }

    /**
     * Server-Sent Events of a path: calls {@code onEvent} with each event's name and data until the server
     * ends the stream.
     */
    public void events(String path, BiConsumer<String, String> onEvent) {
        HttpRequest request = request(path, "text/event-stream")
                .timeout(Duration.ofDays(1))
                .GET()
                .build();
        HttpResponse<InputStream> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw unreachable(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCodes.CANCELLED_OR_TIMED_OUT, "interrupted");
        }
        if (response.statusCode() >= 300) {
            String text;
            try (InputStream in = response.body()) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                text = "";
            }
            throw failure(response.statusCode(), text);
        }
        try (BufferedReader reader =
                new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String event = "message";
            StringBuilder data = new StringBuilder();
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isEmpty()) {
                    if (data.length() > 0) {
                        onEvent.accept(event, data.toString());
                    }
                    event = "message";
                    data.setLength(0);
                } else if (line.startsWith("event:")) {
                    event = line.substring(6).strip();
                } else if (line.startsWith("data:")) {
                    if (data.length() > 0) {
                        data.append('\n');
                    }
                    data.append(line.substring(5).startsWith(" ") ? line.substring(6) : line.substring(5));
                }
            }
        } catch (IOException e) {
            throw unreachable(e);
        }
    }

    private HttpRequest.Builder request(String path) {
        return request(path, "application/json");
    }

    private HttpRequest.Builder request(String path, String accept) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path))
                .timeout(TIMEOUT)
                .header("Accept", accept)
                .header("User-Agent", "polystack-cli");
        if (token != null && !token.isBlank()) {
            builder.header("Authorization", "Bearer " + token);
        }
        return builder;
    }

    private static HttpRequest.BodyPublisher body(Object body) {
        try {
            return HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body == null ? Map.of() : body));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder builder) {
        HttpResponse<String> response = exchange(builder);
        if (response.statusCode() >= 300) {
            throw failure(response.statusCode(), response.body());
        }
        return response;
    }

    private HttpResponse<String> exchange(HttpRequest.Builder builder) {
        try {
            return http.send(builder.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw unreachable(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCodes.CANCELLED_OR_TIMED_OUT, "interrupted");
        }
    }

    private CliException unreachable(IOException e) {
        String reason = e instanceof ConnectException ? "nothing answers there" : String.valueOf(e.getMessage());
        return new CliException(ExitCodes.FAILED, "cannot reach Polystack at " + base + ": " + reason);
    }

    static ApiException failure(int status, String text) {
        JsonNode problem = null;
        try {
            problem = text == null || text.isBlank() ? null : JSON.readTree(text);
        } catch (IOException e) {
            // not JSON: shown as text
        }
        return new ApiException(status, problem, text);
    }

    private static JsonNode json(HttpResponse<String> response) {
        if (response.body() == null || response.body().isBlank()) {
            return JSON.nullNode();
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new CliException(ExitCodes.FAILED, "the server's answer is not JSON: " + e.getMessage());
        }
    }
}
