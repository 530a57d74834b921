package dev.polystack.tests;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
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

    /**
     * Resource-graph reads of the 500-node environment by 100 concurrent clients for 15 s. The environment is the
     * one {@code overhead} deploys; when that part did not run ({@code -Dbench.only=reads}), it is deployed here
     * first, with jobs that take no time.
     */
    void reads(PlatformProcess platform, Polystack polystack, boolean deployed) throws Exception {
        if (!deployed) {
            try (ProtocolRunner runner = runnerFor(polystack, "overhead", "pool", 20, Duration.ZERO)) {
                polystack.manifest("overhead", Orchestrations.layered(5, 100, 3));
                Orchestrations.Orchestration run =
                        new Orchestrations(report, workspace).orchestrate(platform, "overhead");
                row(
                        "reads",
                        "deploying the 500 resources read below (`overhead` did not run; 20 slots, no work)",
                        String.format("%.1f s", run.makespan()),
                        "");
            }
        }
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
     *
     * <p>The clients are 100 HTTP/1.1 connections served by one Vert.x event loop, each sending its next
     * request when its last answer has arrived in full; an answer's bytes are counted as they arrive and not
     * kept. The clients share the machine's two cores with the control plane, so what they spend per byte is
     * taken from it: the JDK's client spent about as much CPU as the control plane on full answers
     * ({@code -Dbench.client=jdk}: one JDK client with a connection per concurrent request; {@code jdk-h2}:
     * its default, every request an HTTP/2 stream on one shared connection, which the harness used before
     * 2 December).
     */
    private Reads readRate(PlatformProcess platform, String env, int seconds, boolean revalidate, boolean gzip)
            throws Exception {
        String client = System.getProperty("bench.client", "vertx");
        if (!client.equals("vertx")) {
            return jdkReadRate(platform, env, seconds, revalidate, gzip, client.equals("jdk-h2"));
        }
        String path = "/api/v1/orgs/acme/projects/shop/envs/" + env + "/resource-graph";
        URI base = URI.create(platform.baseUrl());
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        try {
            HttpClient http = vertx.createHttpClient(
                    new HttpClientOptions()
                            .setDefaultHost(base.getHost())
                            .setDefaultPort(base.getPort())
                            .setKeepAlive(true),
                    new PoolOptions().setHttp1MaxSize(100));
            MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + ADMIN);
            if (revalidate) {
                String etag = http.request(HttpMethod.GET, path)
                        .compose(request -> {
                            request.headers().addAll(headers);
                            return request.send();
                        })
                        .compose(response -> response.body().map(ignored -> response.getHeader("ETag")))
                        .toCompletionStage()
                        .toCompletableFuture()
                        .get(60, TimeUnit.SECONDS);
                if (etag == null) {
                    throw new IllegalStateException("the settled graph of `" + env + "` has no ETag");
                }
                headers.add("If-None-Match", etag);
            }
            if (gzip) {
                headers.add("Accept-Encoding", "gzip, deflate, br");
            }
            // the same reads first, not counted, so that the JIT has compiled the read path (-Dbench.readWarmup=s)
            int warmUp = Integer.getInteger("bench.readWarmup", 5);
            if (warmUp > 0) {
                readFor(vertx, http, path, headers, warmUp, new Tally(revalidate ? 304 : 200, gzip));
            }
            Tally tally = new Tally(revalidate ? 304 : 200, gzip);
            double[] cpuBefore = Figures.cpuSeconds(platform.pid());
            Map<String, Double> threadsBefore = Figures.threadCpu(platform.pid());
            readFor(vertx, http, path, headers, seconds, tally);
            double[] cpuAfter = Figures.cpuSeconds(platform.pid());
            tally.threads = Figures.cpuByThread(threadsBefore, Figures.threadCpu(platform.pid()));
            return tally.report(env, seconds, revalidate, gzip, cpuBefore, cpuAfter);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    /** 100 clients reading for {@code seconds}, each sending its next request when its last answer is in. */
    private static void readFor(Vertx vertx, HttpClient http, String path, MultiMap headers, int seconds, Tally tally)
            throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        CountDownLatch done = new CountDownLatch(100);
        for (int c = 0; c < 100; c++) {
            vertx.runOnContext(ignored -> readUntil(http, path, headers, end, tally, done));
        }
        if (!done.await(seconds + 120L, TimeUnit.SECONDS)) {
            tally.failed.add("the clients had not finished two minutes after the end");
        }
    }

    /** One client: reads the graph again as soon as its last answer has arrived, until {@code end}. */
    private static void readUntil(
            HttpClient http, String path, MultiMap headers, long end, Tally tally, CountDownLatch done) {
        if (System.nanoTime() >= end) {
            done.countDown();
            return;
        }
        http.request(HttpMethod.GET, path)
                .compose(request -> {
                    request.headers().addAll(headers);
                    return request.send();
                })
                .compose(response -> {
                    String encoding = response.getHeader("Content-Encoding");
                    if (response.statusCode() != tally.expected) {
                        return response.body().<Void>map(body -> {
                            tally.other(response.statusCode(), "gzip".equals(encoding) ? "(gzipped)" : body.toString());
                            return null;
                        });
                    }
                    long[] bytes = {0};
                    response.handler(chunk -> bytes[0] += chunk.length());
                    return response.end().<Void>map(ignored -> {
                        tally.answered(bytes[0], encoding);
                        return null;
                    });
                })
                .onComplete(outcome -> {
                    if (outcome.failed()) {
                        tally.failed.add(outcome.cause().toString());
                    }
                    readUntil(http, path, headers, end, tally, done);
                });
    }

    /** The same, read with the JDK's HTTP client ({@code -Dbench.client=jdk} or {@code jdk-h2}). */
    private Reads jdkReadRate(
            PlatformProcess platform, String env, int seconds, boolean revalidate, boolean gzip, boolean http2)
            throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder()
                .version(http2 ? java.net.http.HttpClient.Version.HTTP_2 : java.net.http.HttpClient.Version.HTTP_1_1)
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
        Tally tally = new Tally(revalidate ? 304 : 200, gzip);
        double[] cpuBefore = Figures.cpuSeconds(platform.pid());
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        ExecutorService clients = Executors.newFixedThreadPool(100);
        for (int c = 0; c < 100; c++) {
            clients.submit(() -> {
                while (System.nanoTime() < end) {
                    try {
                        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
                        String encoding = response.headers()
                                .firstValue("Content-Encoding")
                                .orElse(null);
                        if (response.statusCode() == tally.expected) {
                            tally.answered(response.body().length, encoding);
                        } else {
                            tally.other(response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
                        }
                    } catch (Exception e) {
                        tally.failed.add(e.toString());
                    }
                }
                return null;
            });
        }
        clients.shutdown();
        clients.awaitTermination(120, TimeUnit.SECONDS);
        double[] cpuAfter = Figures.cpuSeconds(platform.pid());
        return tally.report(env, seconds, revalidate, gzip, cpuBefore, cpuAfter);
    }

    /** What the clients of one run got: answers, 503s (busy) and other failures, and an answer's size. */
    private final class Tally {
        final int expected;
        final boolean gzip;
        final AtomicLong size = new AtomicLong();
        final AtomicInteger ok = new AtomicInteger();
        final AtomicInteger busy = new AtomicInteger();
        final List<String> failed = new java.util.concurrent.CopyOnWriteArrayList<>();
        /** Where the control plane's CPU went, by thread ({@code vertx} client only). */
        String threads = "";

        Tally(int expected, boolean gzip) {
            this.expected = expected;
            this.gzip = gzip;
        }

        void answered(long bytes, String contentEncoding) {
            ok.incrementAndGet();
            size.set(bytes);
            if (gzip && !"gzip".equals(contentEncoding)) {
                failed.add("not gzipped");
            }
        }

        void other(int status, String body) {
            if (status == 503) {
                busy.incrementAndGet();
            } else {
                failed.add(status + " " + body);
            }
        }

        Reads report(String env, int seconds, boolean revalidate, boolean gzip, double[] cpuBefore, double[] cpuAfter) {
            double perSecond = ok.get() / (double) seconds;
            row(
                    "reads",
                    "resource graph of `" + env + "` by 100 concurrent clients"
                            + (revalidate ? ", with If-None-Match (304)" : "") + (gzip ? ", accepting gzip" : ""),
                    String.format("%.0f /s", perSecond),
                    busy.get() + " answered 503 (busy), " + failed.size() + " failed, " + size.get() / 1024
                            + " KiB each"
                            + String.format(
                                    "; CPU: control plane %.1f s, PostgreSQL %.1f s, clients %.1f s",
                                    cpuAfter[0] - cpuBefore[0], cpuAfter[1] - cpuBefore[1], cpuAfter[2] - cpuBefore[2])
                            + (threads.isEmpty() ? "" : " (control plane: " + threads + ")")
                            + (failed.isEmpty()
                                    ? ""
                                    : ", e.g. "
                                            + failed.get(0)
                                                    .substring(
                                                            0,
                                                            Math.min(
                                                                    160,
                                                                    failed.get(0)
                                                                            .length()))));
            return new Reads(perSecond, busy.get(), List.copyOf(failed), size.get());
        }
    }
}
