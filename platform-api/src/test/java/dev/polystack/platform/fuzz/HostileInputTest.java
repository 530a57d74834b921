package dev.polystack.platform.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.testing.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.net.URL;
import java.security.SecureRandom;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static dev.polystack.platform.fuzz.Limits.JSON;
import static org.assertj.core.api.Assertions.fail;

/**
 * Throws generated hostile input at the running API: manifests (YAML and JSON), JSON bodies for every
 * POST/PUT operation of the OpenAPI document, odd headers, path and query parameters, and a mix of
 * everything. Whatever comes in, the answer must never be a 5xx, must come within 10 seconds, and
 * every 4xx must be an RFC 9457 problem ({@code application/problem+json} with {@code type},
 * {@code title} and {@code status} equal to the HTTP status) without any internal detail such as a
 * stack trace or a class name.
 *
 * <p>The generators are plain code over a seeded {@link Random}: every case has its own random
 * derived from the seed, so a failure is reproducible with {@code -Dfuzz.seed=<seed>} (printed at the
 * start and in every failure; {@code -Dfuzz.seed=random} for a new one), and one case alone with {@code -Dfuzz.only=<section>:<case>}.
 * {@code -Dfuzz.cases=<n>} sets the number of random cases (default 2400, split over the sections),
 * {@code -Dfuzz.threads=<n>} the number of concurrent clients (default 2).
 *
 * <p>Requests are written on raw sockets so that nothing in a client library cleans them up: any
 * bytes may go into paths, headers and bodies.
 */
@QuarkusTest
@QuarkusTestResource(PostgresResource.class)
@TestProfile(HostileInputTest.ShortClaims.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostileInputTest {

    /**
     * A claim is a long poll: with no work it answers after its wait, at most the configured maximum
     * (30 s by default). Here the maximum is 2 s, so that claims with blank or huge waits answer
     * well within the 10 s a request is given.
     */
    public static class ShortClaims implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("polystack.jobs.max-claim-wait", "2s");
        }
    }

    /**
     * A fixed seed by default, so that the build is repeatable; {@code -Dfuzz.seed=random} explores
     * (every seed found failing so far was fixed and passes).
     */
    static final long SEED = "random".equals(System.getProperty("fuzz.seed"))
            ? new SecureRandom().nextLong()
            : Long.getLong("fuzz.seed", 2926213795455484398L);

    static final int CASES = Integer.getInteger("fuzz.cases", 2400);
    static final int THREADS = Integer.getInteger("fuzz.threads", 2);
    static final String ONLY = System.getProperty("fuzz.only");
    /** Things that must never reach a response: stack traces and internal class names. */
    static final List<String> LEAKS = List.of(
            "Exception",
            "at dev.polystack",
            "at io.quarkus",
            "\tat ",
            "java.lang.",
            "com.fasterxml.",
            "org.hibernate.",
            "org.postgresql.",
            "org.yaml.snakeyaml",
            "io.vertx.",
            "org.jboss.");

    static final Map<Integer, AtomicInteger> TOTAL_STATUSES = new ConcurrentHashMap<>();
    static final AtomicInteger TOTAL_REQUESTS = new AtomicInteger();
    static final AtomicLong STARTED = new AtomicLong();
    static World world;

    @TestHTTPResource("/")
    URL root;

    static {
        System.out.printf(
                "HostileInputTest: seed %d, %d random cases, %d threads (rerun with -Dfuzz.seed=%d)%n",
                SEED, CASES, THREADS, SEED);
    }

    // ---------------------------------------------------------------------------------------------
    // The sections
    // ---------------------------------------------------------------------------------------------

    @Test
    @Order(1)
    void manifests() {
        World w = world();
        Stats stats = run("manifests", CASES * 35 / 100, ManifestCases.specials(w), g -> ManifestCases.random(g, w));
        if (ONLY == null && CASES >= 100 && stats.success.get() == 0) {
            fail("no generated manifest was accepted; the valid ones should be (seed " + SEED + ")");
        }
    }

    @Test
    @Order(2)
    void jsonBodies() {
        World w = world();
        run("json", CASES * 30 / 100, BodyCases.specials(w), g -> BodyCases.random(g, w));
    }

    @Test
    @Order(3)
    void headersAndParameters() {
        World w = world();
        run("params", CASES * 20 / 100, ParamCases.specials(w), g -> ParamCases.random(g, w));
    }

    @Test
    @Order(4)
    void everythingMixed() {
        World w = world();
        run("mixed", CASES * 15 / 100, List.of(), g -> switch (g.pick(4)) {
            case 0 -> ManifestCases.random(g, w);
            case 1 -> BodyCases.random(g, w);
            case 2 -> ParamCases.random(g, w);
            default -> ParamCases.anything(g, w);
        });
        // after all of that the server still answers
        Resp ready = Http.send(w.port, Req.get("/q/health/ready").build());
        if (ready.status != 200) {
            fail("the server is not ready after the hostile input: " + ready.status + " " + ready.text());
        }
    }

    @AfterAll
    static void summary() {
        long millis = STARTED.get() == 0 ? 0 : (System.nanoTime() - STARTED.get()) / 1_000_000;
        System.out.printf(
                "HostileInputTest: %d requests in %d ms, statuses %s (seed %d)%n",
                TOTAL_REQUESTS.get(), millis, new TreeMap<>(TOTAL_STATUSES), SEED);
    }

    // ---------------------------------------------------------------------------------------------
    // Running and judging
    // ---------------------------------------------------------------------------------------------

    static final class Stats {
        final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        final AtomicInteger success = new AtomicInteger();
        final AtomicLong slowest = new AtomicLong();
        volatile String slowestCase = "";
    }

    private record Outcome(String id, Req request, Resp response, String failure) {}

    private Stats run(String section, int randomCases, List<Function<Gen, Req>> specials, Function<Gen, Req> random) {
        World w = world();
        List<Map.Entry<String, Function<Gen, Req>>> cases = new ArrayList<>();
        for (int i = 0; i < specials.size(); i++) {
            cases.add(new AbstractMap.SimpleEntry<>("s" + i, specials.get(i)));
        }
        for (int i = 0; i < randomCases; i++) {
            cases.add(new AbstractMap.SimpleEntry<>(Integer.toString(i), random));
        }
        if (ONLY != null) {
            cases.removeIf(c -> !ONLY.equals(section + ":" + c.getKey()));
        }
        Stats stats = new Stats();
        long started = System.nanoTime();
        STARTED.compareAndSet(0, started);
        List<Outcome> failures = Collections.synchronizedList(new ArrayList<>());
        // deep trees are generated and written recursively: the clients get large stacks
        ExecutorService pool = Executors.newFixedThreadPool(
                THREADS, task -> new Thread(null, task, "fuzz-" + section, 512L * 1024 * 1024));
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (Map.Entry<String, Function<Gen, Req>> c : cases) {
                futures.add(pool.submit(() -> {
                    Gen g = new Gen(caseSeed(section, c.getKey()));
                    Req request;
                    try {
                        request = c.getValue().apply(g);
                    } catch (RuntimeException e) {
                        throw new IllegalStateException(
                                "generator of case " + section + ":" + c.getKey() + " failed", e);
                    }
                    Resp response = Http.send(w.port, request);
                    String failure = judge(request, response);
                    stats.statuses
                            .computeIfAbsent(response.status, s -> new AtomicInteger())
                            .incrementAndGet();
                    TOTAL_STATUSES
                            .computeIfAbsent(response.status, s -> new AtomicInteger())
                            .incrementAndGet();
                    TOTAL_REQUESTS.incrementAndGet();
                    if (response.status >= 200 && response.status < 300) {
                        stats.success.incrementAndGet();
                    }
                    if (response.millis > stats.slowest.get()) {
                        stats.slowest.set(response.millis);
                        stats.slowestCase = section + ":" + c.getKey() + " " + request.summary();
                    }
                    if (failure != null) {
                        failures.add(new Outcome(section + ":" + c.getKey(), request, response, failure));
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            pool.shutdownNow();
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        System.out.printf(
                "HostileInputTest[%s]: %d requests in %d ms, statuses %s, slowest %d ms (%s), %d failures%n",
                section,
                cases.size(),
                millis,
                new TreeMap<>(stats.statuses),
                stats.slowest.get(),
                stats.slowestCase,
                failures.size());
        if (!failures.isEmpty()) {
            failures.sort((a, b) -> a.id().compareTo(b.id()));
            Map<String, Integer> kinds = new TreeMap<>();
            failures.forEach(f -> kinds.merge(
                    f.failure().replaceAll("\\d+", "N") + " (" + f.request().method + " " + f.request().note + ")",
                    1,
                    Integer::sum));
            StringBuilder report = new StringBuilder();
            report.append(failures.size())
                    .append(" hostile inputs were answered wrongly (seed ")
                    .append(SEED)
                    .append("; rerun one with -Dfuzz.seed=")
                    .append(SEED)
                    .append(" -Dfuzz.only=<case>):\n");
            kinds.forEach((kind, count) ->
                    report.append("  ").append(count).append(" x ").append(kind).append('\n'));
            for (Outcome f : failures.subList(0, Math.min(Integer.getInteger("fuzz.report", 15), failures.size()))) {
                report.append("\n--- case ")
                        .append(f.id())
                        .append(": ")
                        .append(f.failure())
                        .append('\n')
                        .append(f.request().describe())
                        .append("  answer: ")
                        .append(f.response().describe())
                        .append('\n');
            }
            System.out.println(report);
            fail(report.toString());
        }
        return stats;
    }

    static long caseSeed(String section, String id) {
        long h = SEED;
        for (char c : (section + ":" + id).toCharArray()) {
            h = h * 1_000_003L + c;
        }
        return h ^ (h >>> 29);
    }

    /** Null when the answer is acceptable, otherwise what is wrong with it. */
    static String judge(Req request, Resp response) {
        if (response.status >= 400 && response.status < 500 && request.protocolViolation() != null) {
            // not HTTP at all: the HTTP layer refuses it before any of Polystack runs, with a bare 400, 414
            // or 431 (after a malformed HTTP/2 upgrade without closing the connection)
            return null;
        }
        if (response.error != null) {
            return response.error;
        }
        if (response.status >= 500) {
            return "server error " + response.status;
        }
        if (response.status < 200) {
            return "unexpected status " + response.status;
        }
        String text = response.text();
        for (String leak : LEAKS) {
            if (text.contains(leak)) {
                return "internal detail `" + leak.trim() + "` in the answer";
            }
        }
        if (request.expectStatus != 0 && response.status != request.expectStatus) {
            return "expected " + request.expectStatus + " but was " + response.status;
        }
        if (request.expectRefusal && response.status < 400) {
            return "expected to be refused (4xx) but was " + response.status;
        }
        if (response.status >= 400) {
            String type = response.header("content-type");
            if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/problem+json")) {
                return "a " + response.status + " that is not application/problem+json (Content-Type: " + type + ")";
            }
            JsonNode problem;
            try {
                problem = JSON.readTree(response.body);
            } catch (IOException e) {
                return "a problem whose body is not JSON";
            }
            if (problem == null || !problem.isObject()) {
                return "a problem whose body is not a JSON object";
            }
            if (!problem.path("type").isTextual()
                    || problem.path("type").asText().isBlank()) {
                return "a problem without `type`";
            }
            if (!problem.path("title").isTextual()
                    || problem.path("title").asText().isBlank()) {
                return "a problem without `title`";
            }
            if (!problem.path("status").isInt() || problem.path("status").asInt() != response.status) {
                return "a problem whose `status` is not the HTTP status " + response.status;
            }
        }
        return null;
    }

    // ---------------------------------------------------------------------------------------------
    // The world the requests are about
    // ---------------------------------------------------------------------------------------------

    synchronized World world() {
        if (world == null) {
            world = new World(root.getPort());
        }
        return world;
    }

    // ---------------------------------------------------------------------------------------------
    // Generators
    // ---------------------------------------------------------------------------------------------

    // ---------------------------------------------------------------------------------------------
    // 3. Headers and parameters
    // ---------------------------------------------------------------------------------------------

}
