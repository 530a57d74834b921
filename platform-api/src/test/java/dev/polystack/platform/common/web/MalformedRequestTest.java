package dev.polystack.platform.common.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.platform.testing.LogCapture;
import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests that fail below the REST layer (written on a raw socket, as no HTTP client would send
 * them) are answered with problems too, never with an empty 400.
 */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
class MalformedRequestTest {

    @TestHTTPResource("/")
    URL root;

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/api/v1/orgs?limit=%",
                "/api/v1/orgs?limit=%ZZ",
                "/api/v1/orgs?page_token={x}",
                "/api/v1/orgs?a|b",
                "/api/v1/orgs/x%20y?q=^"
            })
    void aUriThatIsNotAUriIsAProblem(String target) throws IOException {
        String answer = send("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                + PostgresResource.ADMIN_TOKEN + "\r\nConnection: close\r\n\r\n");
        assertProblem(answer, 400, "the request URI is malformed");
    }

    /**
     * A path whose percent-encoding cannot be decoded is refused before any route runs; it is the
     * caller's mistake, so the answer is a problem and the log has no error for it (Vert.x used to log
     * "Unhandled exception in router" at ERROR, with a stack trace, for each).
     */
    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/orgs/%ZZ", "/api/v1/orgs/%4/projects", "/api/v1/orgs/a%", "/%G1"})
    void aPathThatCannotBeDecodedIsAProblemAndNotAnErrorInTheLog(String target) throws Exception {
        List<LogRecord> errors =
                LogCapture.during(record -> record.getLevel().intValue() >= Level.SEVERE.intValue(), () -> {
                    String answer = send("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                            + PostgresResource.ADMIN_TOKEN + "\r\nConnection: close\r\n\r\n");
                    assertProblem(answer, 400, "malformed");
                });
        assertThat(errors)
                .as("error records logged for a malformed path")
                .extracting(LogRecord::getMessage)
                .isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/orgs/%00", "/api/v1/orgs?limit=%00"})
    void aNulInTheUriIsAProblem(String target) throws IOException {
        String answer = send("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        assertProblem(answer, 400, "NUL");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/orgs", "/api/v1/me"})
    void aMissingHostIsAProblem(String target) throws IOException {
        String answer = send("GET " + target + " HTTP/1.1\r\nConnection: close\r\n\r\n");
        assertProblem(answer, 400, "Host");
    }

    private void assertProblem(String answer, int status, String detail) throws IOException {
        assertThat(answer).startsWith("HTTP/1.1 " + status + " ");
        int split = answer.indexOf("\r\n\r\n");
        assertThat(answer.substring(0, split).toLowerCase()).contains("content-type: application/problem+json");
        JsonNode problem = new ObjectMapper().readTree(answer.substring(split + 4));
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        assertThat(problem.path("detail").asText()).contains(detail);
        assertThat(answer).doesNotContain("Exception");
    }

    private String send(String request) throws IOException {
        try (Socket socket = new Socket(root.getHost(), root.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
