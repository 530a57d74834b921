package dev.polystack.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.JobResult;
import dev.polystack.runner.protocol.JobStatus;
import dev.polystack.runner.protocol.LogBatch;
import dev.polystack.runner.protocol.ProtocolLimits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent against a real HTTP server standing in for the control plane: a refusal (a 4xx other than 401,
 * 404 and 409) is final and said clearly, not retried until the job's lease runs out; a server error is
 * retried; what the agent sends stays inside the control plane's limits.
 */
class ControlPlaneRefusalTest {

    private static final String PROBLEM =
            "{\"type\":\"https://polystack.dev/problems/validation\",\"title\":\"Invalid request\","
                    + "\"status\":400,\"detail\":\"error.summary: size must be between 0 and 4096\"}";

    private final AgentConfig config =
            AgentConfig.load(List.of("--url=http://cp.example", "--org=acme", "--runner=r1"), Map.of());
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private volatile Function<Received, Answer> answers = request -> new Answer(204, "");
    private HttpServer server;
    private ControlPlane controlPlane;

    record Received(String path, String body) {
        JsonNode json() {
            try {
                return ControlPlane.JSON.readTree(body);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    record Answer(int status, String body) {}

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
        controlPlane = Fixtures.controlPlaneAt(server);
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        Received request = new Received(
                exchange.getRequestURI().getPath(),
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        received.add(request);
        Answer answer = answers.apply(request);
        byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/problem+json");
        exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    private List<Received> results() {
        return received.stream().filter(r -> r.path().endsWith("/result")).toList();
    }

    @Test
    @Timeout(20)
    void aResultRefusedAsInvalidIsNotRetriedAndTheJobFailsWithTheReason() {
        // the control plane refuses the first result as invalid, and would take any later one
        answers = request -> request.path().endsWith("/result") && results().size() == 1
                ? new Answer(400, PROBLEM)
                : new Answer(204, "");
        ClaimedJob job = AgentTest.job();

        new Finishing(config, controlPlane, job, JobResult.failed("boom", "detail", null)).run();

        assertThat(results()).as("the refused result, then one that says why").hasSize(2);
        JsonNode second = results().get(1).json();
        assertThat(second.path("status").asText()).isEqualTo("failed");
        assertThat(second.path("error").path("summary").asText())
                .contains("refused this job's result (400)")
                .contains("error.summary: size must be between 0 and 4096");
    }

    @Test
    @Timeout(20)
    void aResultRefusedTwiceIsGivenUpAtOnce() {
        answers = request -> request.path().endsWith("/result") ? new Answer(422, PROBLEM) : new Answer(204, "");

        new Finishing(
                        config,
                        controlPlane,
                        AgentTest.job(),
                        new JobResult(JobStatus.SUCCEEDED, Map.of(), List.of(), null, null))
                .run();

        assertThat(results())
                .as("the result and the failure that says why; nothing more")
                .hasSize(2);
    }

    @Test
    @Timeout(30)
    void aServerErrorIsRetried() {
        answers = request ->
                request.path().endsWith("/result") && results().size() == 1 ? new Answer(503, "") : new Answer(204, "");

        new Finishing(
                        config,
                        controlPlane,
                        AgentTest.job(),
                        new JobResult(JobStatus.SUCCEEDED, Map.of(), List.of(), null, null))
                .run();

        assertThat(results()).hasSize(2);
        assertThat(results())
                .extracting(r -> r.json().path("status").asText())
                .containsExactly("succeeded", "succeeded");
    }

    @Test
    @Timeout(20)
    void aLogBatchRefusedAsInvalidIsSentOnce() {
        answers = request -> request.path().endsWith("/logs") ? new Answer(400, PROBLEM) : new Answer(204, "");
        UUID job = UUID.randomUUID();
        try (LogShipper shipper = new LogShipper(controlPlane, job)) {
            shipper.note("a line the control plane will refuse");
        }
        assertThat(received).extracting(Received::path).containsExactly("/api/runner/v1/jobs/" + job + "/logs");
    }

    @Test
    void whatTheAgentSendsIsCutToTheControlPlanesLimits() {
        String huge = "x".repeat(200_000);
        JobResult result = JobResult.failed(huge, huge, null).withinLimits();
        assertThat(result.error().summary())
                .hasSizeLessThanOrEqualTo(ProtocolLimits.ERROR_SUMMARY)
                .endsWith("… (truncated)");
        assertThat(result.error().detail())
                .hasSizeLessThanOrEqualTo(ProtocolLimits.ERROR_DETAIL)
                .endsWith("… (truncated)");

        LogBatch.Line line = new LogBatch.Line(Instant.now(), "info", "t".repeat(100), huge).withinLimits();
        assertThat(line.message()).hasSizeLessThanOrEqualTo(ProtocolLimits.LOG_MESSAGE);
        assertThat(line.type()).hasSizeLessThanOrEqualTo(ProtocolLimits.LOG_TYPE);

        List<JsonNode> resources = new ArrayList<>();
        for (int i = 0; i < ProtocolLimits.RESOURCES + 5; i++) {
            resources.add(ControlPlane.JSON.createObjectNode().put("address", "terraform_data.r" + i));
        }
        assertThat(new JobResult(JobStatus.SUCCEEDED, Map.of(), resources, null, null)
                        .withinLimits()
                        .resources())
                .hasSize(ProtocolLimits.RESOURCES);
    }

    /** A job that ends at once with the given result. */
    static final class Finishing extends JobSupervisor {
        private final JobResult result;

        Finishing(AgentConfig config, ControlPlane controlPlane, ClaimedJob job, JobResult result) {
            super(config, controlPlane, job, new AtomicBoolean());
            this.result = result;
        }

        @Override
        protected JobResult execute() {
            return result;
        }
    }
}
