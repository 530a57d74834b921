package dev.polystack.tests;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static dev.polystack.tests.Figures.round;

/** Resource-graph reads by 100 concurrent clients: the 500-resource environment and a 10,000-resource one. */
final class GraphReads extends BenchmarkPart {

    GraphReads(BenchReport report, Path workspace) {
        super(report, workspace);
    }

    /** Resource-graph reads of the 500-node environment by 100 concurrent clients for 15 s. */
    void reads(PlatformProcess platform, Polystack polystack) throws Exception {
        Reads reads = readRate(platform, "overhead", 15);
        report.put("resource_graph_reads", reads.figures(500));
        target("resource-graph reads/s, 500 resources, 100 clients", reads.perSecond(), "/s", ">=", 1000);
        target(
                "resource-graph reads that failed (not 200 or 503), 500 resources",
                reads.failed().size(),
                "",
                "<=",
                0);
        Reads revalidated = readRate(platform, "overhead", 15, true);
        report.put("resource_graph_revalidations", revalidated.figures(500));
        target(
                "resource-graph reads/s with If-None-Match (304), 500 resources",
                revalidated.perSecond(),
                "/s",
                ">=",
                1000);
        target(
                "resource-graph reads with If-None-Match that failed (not 304 or 503), 500 resources",
                revalidated.failed().size(),
                "",
                "<=",
                0);
        Reads zipped = readRate(platform, "overhead", 15, false, true);
        report.put(
                "resource_graph_reads_gzip",
                Map.of(
                        "clients",
                        100,
                        "per_second",
                        round(zipped.perSecond()),
                        "nodes",
                        500,
                        "busy",
                        zipped.busy(),
                        "failed",
                        zipped.failed().size(),
                        "kib",
                        zipped.bytes() / 1024,
                        "plain_kib",
                        reads.bytes() / 1024));
        target(
                "resource-graph reads/s accepting gzip (as browsers do), 500 resources",
                zipped.perSecond(),
                "/s",
                ">=",
                1000);
    }

    /** Resource-graph reads of a 10,000-resource environment (deployed first: 10,000 independent resources, 50 slots, no work). */
    void readsTenfold(PlatformProcess platform, Polystack polystack) throws Exception {
        try (ProtocolRunner runner = runnerFor(polystack, "wide", "pool-wide", 50, Duration.ZERO)) {
            polystack.manifest("wide", Orchestrations.layered(1, 10_000, 0));
            Orchestrations.Orchestration run = new Orchestrations(report, workspace).orchestrate(platform, "wide");
            row(
                    "reads-10x",
                    "deploying the 10,000 resources read below (50 slots, no work)",
                    String.format("%.1f s", run.makespan()),
                    String.format("%.0f jobs/s; the create call took %.2f s", 10_000 / run.makespan(), run.creation()));
        }
        Reads reads = readRate(platform, "wide", 15);
        report.put("resource_graph_reads_10x", reads.figures(10_000));
        target("resource-graph reads/s, 10,000 resources, 100 clients", reads.perSecond(), "/s", ">=", 100);
        target(
                "resource-graph reads that failed (not 200 or 503), 10,000 resources",
                reads.failed().size(),
                "",
                "<=",
                0);
        Reads revalidated = readRate(platform, "wide", 15, true);
        report.put("resource_graph_revalidations_10x", revalidated.figures(10_000));
        target(
                "resource-graph reads/s with If-None-Match (304), 10,000 resources",
                revalidated.perSecond(),
                "/s",
                ">=",
                100);
        Reads zipped = readRate(platform, "wide", 15, false, true);
        report.put(
                "resource_graph_reads_gzip_10x",
                Map.of(
                        "clients",
                        100,
                        "per_second",
                        round(zipped.perSecond()),
                        "nodes",
                        10_000,
                        "busy",
                        zipped.busy(),
                        "failed",
                        zipped.failed().size(),
                        "kib",
                        zipped.bytes() / 1024,
                        "plain_kib",
                        reads.bytes() / 1024));
        target(
                "resource-graph reads/s accepting gzip (as browsers do), 10,000 resources",
                zipped.perSecond(),
                "/s",
                ">=",
                100);
    }

    /**
     * What 100 concurrent clients reading a resource graph got: answers per second, 503s (busy), other failures,
     * and the size of an answer as sent.
     */
    record Reads(double perSecond, int busy, List<String> failed, long bytes) {

        /** What benchmark.json records of a read run over a graph of {@code nodes} resources by 100 clients. */
        Map<String, Object> figures(int nodes) {
            return Map.of(
                    "clients",
                    100,
                    "per_second",
                    round(perSecond),
                    "nodes",
                    nodes,
                    "busy",
                    busy,
                    "failed",
                    failed.size());
        }
    }

    /**
     * Reads of an environment's resource graph by 100 concurrent clients. A 503 (too busy, retry) is counted
     * apart; any other failure is a missed target of its own.
     */
    private Reads readRate(PlatformProcess platform, String env, int seconds) throws Exception {
        return readRate(platform, env, seconds, false);
    }

    /**
     * The same; with {@code revalidate} every client asks with the ETag of its first answer, as a console
     * that keeps the graph does, and a 304 counts as an answer.
     */
    private Reads readRate(PlatformProcess platform, String env, int seconds, boolean revalidate) throws Exception {
        return readRate(platform, env, seconds, revalidate, false);
    }

    /**
     * The same; with {@code gzip} the clients accept gzip, as browsers (and so the console) do, and count
     * the answers as sent, without unpacking them.
     */
    private Reads readRate(PlatformProcess platform, String env, int seconds, boolean revalidate, boolean gzip)
            throws Exception {
        HttpClient http = HttpClient.newBuilder()
                .executor(Executors.newFixedThreadPool(16))
                .build();
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(
                        platform.baseUrl() + "/api/v1/orgs/acme/projects/shop/envs/" + env + "/resource-graph"))
                .header("Authorization", "Bearer " + ADMIN)
                .GET();
        if (revalidate) {
            HttpResponse<byte[]> first = http.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
            String etag = first.headers()
                    .firstValue("ETag")
                    .orElseThrow(() -> new IllegalStateException(
                            "the settled graph of `" + env + "` has no ETag (" + first.statusCode() + ")"));
            builder.header("If-None-Match", etag);
        }
        if (gzip) {
            builder.header("Accept-Encoding", "gzip, deflate, br");
        }
        HttpRequest request = builder.build();
        int expected = revalidate ? 304 : 200;
        AtomicLong size = new AtomicLong();
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger busy = new AtomicInteger();
        List<String> failed = new java.util.concurrent.CopyOnWriteArrayList<>();
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        ExecutorService clients = Executors.newFixedThreadPool(100);
        for (int c = 0; c < 100; c++) {
            clients.submit(() -> {
                while (System.nanoTime() < end) {
                    try {
                        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                        if (response.statusCode() == expected) {
                            ok.incrementAndGet();
                            size.set(response.body().length);
                            if (gzip
                                    && !response.headers()
                                            .firstValue("Content-Encoding")
                                            .orElse("")
                                            .equals("gzip")) {
                                failed.add("not gzipped");
                            }
                        } else if (response.statusCode() == 503) {
                            busy.incrementAndGet();
                        } else {
                            failed.add(
                                    response.statusCode() + " " + new String(response.body(), StandardCharsets.UTF_8));
                        }
                    } catch (Exception e) {
                        failed.add(e.toString());
                    }
                }
                return null;
            });
        }
        clients.shutdown();
        clients.awaitTermination(120, TimeUnit.SECONDS);
        double perSecond = ok.get() / (double) seconds;
        row(
                "reads",
                "resource graph of `" + env + "` by 100 concurrent clients"
                        + (revalidate ? ", with If-None-Match (304)" : "") + (gzip ? ", accepting gzip" : ""),
                String.format("%.0f /s", perSecond),
                busy.get() + " answered 503 (busy), " + failed.size() + " failed, " + size.get() / 1024 + " KiB each"
                        + (failed.isEmpty()
                                ? ""
                                : ", e.g. "
                                        + failed.get(0)
                                                .substring(
                                                        0,
                                                        Math.min(
                                                                160,
                                                                failed.get(0).length()))));
        return new Reads(perSecond, busy.get(), List.copyOf(failed), size.get());
    }
}
