package dev.polystack.tests;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A part of the benchmark run: it adds its figures to the report and may start runners of its own. */
abstract class BenchmarkPart {

    /** The bootstrap administrator token the harness starts the control plane with. */
    static final String ADMIN = "pst_bench-admin-token-0123456789abcdefghijklmnopqrst";

    static final ObjectMapper JSON = new ObjectMapper();

    final BenchReport report;
    final Path workspace;

    BenchmarkPart(BenchReport report, Path workspace) {
        this.report = report;
        this.workspace = workspace;
    }

    void row(String group, String what, String figure, String note) {
        report.row(group, what, figure, note);
    }

    void target(String figure, double measured, String unit, String comparison, double limit) {
        report.target(figure, measured, unit, comparison, limit);
    }

    /** A runner of its own for an environment of its own. */
    ProtocolRunner runnerFor(Polystack polystack, String env, String runner, int slots, Duration work)
            throws Exception {
        polystack.environment(env);
        Path key = workspace.resolve("keys/" + runner + ".key");
        polystack.runner(runner, ProtocolRunner.keygen(key), slots);
        polystack
                .api()
                .body(Map.of("runner_id", runner, "project_id", "shop", "env_id", env))
                .post("/api/v1/orgs/acme/runner-rules")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201);
        return ProtocolRunner.start(polystack.baseUrl(), "acme", runner, key, slots, work);
    }

    /**
     * Of the last {@link #pickupLatencies} run, from each job's {@code queued_at} to the create call's answer
     * reaching the harness: how much of a pickup is the rest of the create call (its transaction after the
     * node was queued, the commit, the answer).
     */
    final List<Double> lastQueuedToAnswer = new ArrayList<>();

    /**
     * Of the last {@link #pickupLatencies} run, from each job's {@code queued_at} to its node's {@code started_at},
     * the instant the claim's transaction took the node (the wake-up and the claim's start); the rest of a pickup is
     * the claim's other work, its commit and the answer's way back to the runner.
     */
    final List<Double> lastQueuedToStarted = new ArrayList<>();

    /**
     * Of the last {@link #pickupLatencies} run, from the harness sending the create call to the runner's claim
     * returning with the job: what a user who creates a deployment waits for its job to start, whatever instant the
     * control plane stamps as queued.
     */
    final List<Double> lastSentToClaimed = new ArrayList<>();

    /**
     * Creates a deployment of {@code env} through plain HTTP, where something is being measured meanwhile: RestAssured's
     * JSON paths take milliseconds of this machine's two cores per call, seconds over a 500-node answer (a client of
     * the API is on another machine). {@link #createdId} reads the answer.
     */
    static HttpResponse<byte[]> postDeployment(HttpClient http, String baseUrl, String env, String body)
            throws IOException, InterruptedException {
        return http.send(
                HttpRequest.newBuilder(
                                URI.create(baseUrl + "/api/v1/orgs/acme/projects/shop/envs/" + env + "/deployments"))
                        .header("Authorization", "Bearer " + ADMIN)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    /** The id of the deployment {@link #postDeployment} created; any answer but 201 fails the run. */
    static String createdId(HttpResponse<byte[]> created, String env) throws IOException {
        if (created.statusCode() != 201) {
            throw new AssertionError("creating a deployment of " + env + " answered " + created.statusCode() + ": "
                    + new String(created.body(), StandardCharsets.UTF_8));
        }
        return JSON.readTree(created.body()).path("id").asText();
    }

    /**
     * Pickup of {@code deployments} single-node deployments one after another: from the moment the control plane
     * queued the node's job (its {@code queued_at}) to the moment the runner's claim returned with it (the
     * same machine, so the same clock). Measured from the create call's answer instead, a claim that beats that
     * answer back to the harness came out negative.
     */
    List<Double> pickupLatencies(Polystack polystack, String env, String runnerId, int deployments) throws Exception {
        List<Double> latencies = new ArrayList<>();
        try (ProtocolRunner runner = runnerFor(polystack, env, runnerId, 1, Duration.ZERO)) {
            polystack.manifest(env, "shared:\n  one: { type: thing }\n");
            Map<String, Instant> claimed = new ConcurrentHashMap<>();
            runner.onClaim = (job, at) -> claimed.put(job.deploymentId().toString(), at);
            // the first ones warm the JIT up: right after the control plane started, pickups took 80-120 ms and
            // fell to about 20 ms over the next hundred (a probe's claim, result and wait are paths nothing ran yet)
            int warmups = 50;
            lastQueuedToAnswer.clear();
            lastQueuedToStarted.clear();
            lastSentToClaimed.clear();
            // the create call overlaps the claim being measured
            HttpClient http = HttpClient.newHttpClient();
            for (int i = 0; i < deployments + warmups; i++) {
                Instant sent = Instant.now();
                HttpResponse<byte[]> created =
                        postDeployment(http, polystack.baseUrl(), env, "{\"mode\":\"deploy\",\"force\":true}");
                Instant answered = Instant.now();
                String id = createdId(created, env);
                polystack.await(env, id, Duration.ofSeconds(30));
                Instant at = claimed.get(id);
                if (at == null) {
                    throw new AssertionError("deployment " + id + " was not claimed");
                }
                var node = polystack
                        .api()
                        .get("/api/v1/orgs/acme/projects/shop/envs/{env}/deployments/{id}", env, id)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath();
                String queuedAt = node.getString("nodes[0].queued_at");
                if (i >= warmups) {
                    latencies.add(Duration.between(Instant.parse(queuedAt), at).toNanos() / 1e6);
                    lastQueuedToStarted.add(Duration.between(
                                            Instant.parse(queuedAt),
                                            Instant.parse(node.getString("nodes[0].started_at")))
                                    .toNanos()
                            / 1e6);
                    lastQueuedToAnswer.add(
                            Duration.between(Instant.parse(queuedAt), answered).toNanos() / 1e6);
                    lastSentToClaimed.add(Duration.between(sent, at).toNanos() / 1e6);
                }
            }
        }
        return latencies;
    }
}
