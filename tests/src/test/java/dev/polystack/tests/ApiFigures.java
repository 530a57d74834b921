package dev.polystack.tests;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.polystack.tests.Figures.mib;
import static dev.polystack.tests.Figures.mibOf;
import static dev.polystack.tests.Figures.ms;
import static dev.polystack.tests.Figures.percentiles;
import static dev.polystack.tests.Figures.round;
import static dev.polystack.tests.Figures.rss;

/** What API callers meet: paging a large log, a 10,000-resource dry-run, concurrent creations, memory afterwards. */
final class ApiFigures extends BenchmarkPart {

    ApiFigures(BenchReport report, Path workspace) {
        super(report, workspace);
    }

    /**
     * One job writes 100,000 log lines (1,000 batches of 100, as the agent sends them) before its result; then
     * the deployment's logs are read from the first page to the last, 1,000 lines (10 batches) a page, over
     * plain HTTP. With stored positions a page costs the same at the end as at the start.
     */
    void logs(Polystack polystack) throws Exception {
        String env = "logs";
        polystack.environment(env);
        Path key = workspace.resolve("keys/logs-runner.key");
        polystack.runner("logs-runner", ProtocolRunner.keygen(key), 1);
        polystack
                .api()
                .body(Map.of("runner_id", "logs-runner", "project_id", "shop", "env_id", env))
                .post("/api/v1/orgs/acme/runner-rules")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201);
        polystack.manifest(env, "shared:\n  one: { type: thing }\n");
        String id = polystack.deploy(env);
        dev.polystack.runner.ControlPlane runner = new dev.polystack.runner.ControlPlane(
                URI.create(polystack.baseUrl()),
                "acme",
                "logs-runner",
                "polystack",
                dev.polystack.runner.Keys.load(key));
        var job = runner.claim(Duration.ofSeconds(20))
                .orElseThrow(() -> new AssertionError("no job for the logs deployment"));
        int batches = 1_000;
        int perBatch = 100;
        long storing = System.nanoTime();
        for (int b = 0; b < batches; b++) {
            List<dev.polystack.runner.protocol.LogBatch.Line> lines = new ArrayList<>(perBatch);
            for (int l = 0; l < perBatch; l++) {
                lines.add(new dev.polystack.runner.protocol.LogBatch.Line(
                        java.time.Instant.now(),
                        "info",
                        "apply_progress",
                        "terraform_data.this[" + (b * perBatch + l) + "]: Still creating... [" + l + "s elapsed]"));
            }
            runner.logs(job.jobId(), new dev.polystack.runner.protocol.LogBatch(b, lines));
        }
        double storeSeconds = (System.nanoTime() - storing) / 1e9;
        runner.result(
                job.jobId(),
                new dev.polystack.runner.protocol.JobResult(
                        dev.polystack.runner.protocol.JobStatus.SUCCEEDED,
                        Map.of(
                                "name",
                                new dev.polystack.runner.protocol.JobResult.Output(
                                        com.fasterxml.jackson.databind.node.TextNode.valueOf("logs"), false)),
                        List.of(),
                        new dev.polystack.runner.protocol.JobResult.PlanSummary(1, 0, 0),
                        null));
        polystack.await(env, id, Duration.ofSeconds(60));

        HttpClient client = HttpClient.newHttpClient();
        String base = polystack.baseUrl() + "/api/v1/orgs/acme/projects/shop/envs/" + env + "/deployments/" + id
                + "/logs?limit=10";
        List<Double> pages = new ArrayList<>();
        String token = null;
        int read = 0;
        for (int round = 0; round < 2; round++) { // the first round warms the JIT up; the second is measured
            pages.clear();
            read = 0;
            token = null;
            do {
                HttpRequest request = HttpRequest.newBuilder(
                                URI.create(base + (token == null ? "" : "&page_token=" + token)))
                        .header("Authorization", "Bearer " + ADMIN)
                        .GET()
                        .build();
                long start = System.nanoTime();
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                pages.add((System.nanoTime() - start) / 1e6);
                if (response.statusCode() != 200) {
                    throw new AssertionError(
                            "a page of logs answered " + response.statusCode() + ": " + response.body());
                }
                var page = JSON.readTree(response.body());
                read += page.path("items").size();
                token = page.path("next_page_token").isTextual()
                        ? page.path("next_page_token").asText()
                        : null;
            } while (token != null);
        }
        if (read != batches * perBatch) {
            throw new AssertionError("read " + read + " lines of " + batches * perBatch);
        }
        Map<String, Double> p = percentiles(pages);
        int tenth = Math.max(1, pages.size() / 10);
        double first = pages.subList(0, tenth).stream()
                .mapToDouble(Double::doubleValue)
                .average()
                .orElse(0);
        double last = pages.subList(pages.size() - tenth, pages.size()).stream()
                .mapToDouble(Double::doubleValue)
                .average()
                .orElse(0);
        report.put(
                "logs_100k",
                Map.of(
                        "store_seconds",
                        round(storeSeconds),
                        "pages",
                        pages.size(),
                        "page_ms",
                        p,
                        "first_tenth_ms",
                        round(first),
                        "last_tenth_ms",
                        round(last)));
        row(
                "logs",
                "100,000 lines sent in 1,000 batches by one job",
                String.format("%.2f s", storeSeconds),
                String.format("%.0f lines/s", batches * perBatch / storeSeconds));
        row(
                "",
                "read back, 1,000 lines a page: " + pages.size() + " pages",
                ms(p.get("p50")) + " p50",
                "p95 " + ms(p.get("p95")) + "; first tenth " + ms(first) + ", last tenth " + ms(last));
        target("a page of 1,000 lines of a 100,000-line deployment, p95", p.get("p95"), "ms", "<", 50);
    }

    /** Dry-run of a 10,000-resource manifest (100 chains of 100 references). */
    void dryRun(Polystack polystack) throws Exception {
        polystack.environment("big");
        // a runner of its own (a dry-run only needs one registered), so that the part runs alone too
        polystack.runner("big-pool", ProtocolRunner.keygen(workspace.resolve("keys/big-pool.key")), 1);
        polystack
                .api()
                .body(Map.of("runner_id", "big-pool", "project_id", "shop", "env_id", "big"))
                .post("/api/v1/orgs/acme/runner-rules")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201);
        StringBuilder manifest = new StringBuilder("shared:\n");
        for (int i = 0; i < 10_000; i++) {
            manifest.append("  r").append(i).append(": { type: thing");
            if (i >= 100) {
                manifest.append(", params: { upstream: \"${shared.r")
                        .append(i - 100)
                        .append(".outputs.name}\" }");
            }
            manifest.append(" }\n");
        }
        byte[] body = manifest.toString().getBytes(StandardCharsets.UTF_8);
        List<Double> times = new ArrayList<>();
        // plain HTTP, the answer read to its end: RestAssured's JSON path (Groovy) would add its own parsing of the
        // 10,000-node answer to the figure
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create(polystack.baseUrl() + "/api/v1/orgs/acme/projects/shop/envs/big/manifest/dry-run"))
                .header("Authorization", "Bearer " + ADMIN)
                .header("Content-Type", "application/yaml")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        for (int i = 0; i < 12; i++) {
            long started = System.nanoTime();
            HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            long answered = System.nanoTime();
            if (response.statusCode() != 200) {
                throw new AssertionError("dry-run answered " + response.statusCode() + ": "
                        + new String(response.body(), StandardCharsets.UTF_8));
            }
            int nodes = JSON.readTree(response.body()).path("nodes").size();
            if (nodes != 10_000) {
                throw new AssertionError("dry-run answered " + nodes + " nodes");
            }
            if (i > 1) { // two warm-ups
                times.add((answered - started) / 1e6);
            }
        }
        Map<String, Double> p = percentiles(times);
        report.put(
                "dry_run_10000_ms",
                Map.of("median", p.get("p50"), "max", p.get("max"), "body_kib", body.length / 1024));
        row(
                "dry-run",
                "10,000 resources (100 chains of 100), 10 runs after 2 warm-ups",
                ms(p.get("p50")) + " median",
                "max " + ms(p.get("max")));
        target("dry-run of 10,000 resources through the API, median", p.get("p50"), "ms", "<", 1000);
    }

    /** Deployments created through the API by 8 clients at once, over 40 environments. */
    void creations(Polystack polystack) throws Exception {
        polystack.runner("sink", ProtocolRunner.keygen(workspace.resolve("keys/sink.key")), 1);
        for (int e = 0; e < 40; e++) {
            polystack.environment("c" + e);
            polystack
                    .api()
                    .body(Map.of("runner_id", "sink", "project_id", "shop", "env_id", "c" + e))
                    .post("/api/v1/orgs/acme/runner-rules")
                    .then()
                    .log()
                    .ifValidationFails()
                    .statusCode(201);
            polystack.manifest("c" + e, "shared:\n  one: { type: thing }\n");
        }
        int total = 400;
        AtomicInteger next = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        long started = System.nanoTime();
        for (int c = 0; c < 8; c++) {
            clients.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < total) {
                    polystack
                            .api()
                            .body(Map.of("mode", "deploy"))
                            .post("/api/v1/orgs/acme/projects/shop/envs/c{n}/deployments", i % 40)
                            .then()
                            .log()
                            .ifValidationFails()
                            .statusCode(201);
                }
                return null;
            });
        }
        clients.shutdown();
        clients.awaitTermination(5, TimeUnit.MINUTES);
        double perSecond = total / ((System.nanoTime() - started) / 1e9);
        report.put("deployments_created_per_second", round(perSecond));
        row(
                "creations",
                "deployments created by 8 concurrent clients (400, 40 environments)",
                String.format("%.0f /s", perSecond),
                "");
    }

    /**
     * How platform-api's memory comes back after the heavy parts before this one: its RSS every second for a
     * minute, with nothing running.
     */
    void memoryAfter(PlatformProcess platform) throws Exception {
        long start = rss(platform.pid());
        long below = -1;
        long last = start;
        for (int second = 1; second <= 60; second++) {
            Thread.sleep(1000);
            last = rss(platform.pid());
            if (below < 0 && last < 400L * 1024 * 1024) {
                below = second;
            }
        }
        report.put(
                "platform_rss_after_heavy_parts_mib",
                Map.of("at_start", mibOf(start), "after_60_s", mibOf(last), "seconds_to_below_400", below));
        row(
                "memory",
                "platform-api RSS after the heavy parts: at once, a minute later",
                mib(start) + ", " + mib(last),
                below < 0 ? "not below 400 MiB within the minute" : "below 400 MiB after " + below + " s");
        target("platform-api RSS a minute after the heavy parts", mibOf(last), "MiB", "<", 400);
    }
}
