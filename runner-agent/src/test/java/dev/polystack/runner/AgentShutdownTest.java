package dev.polystack.runner;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An idle agent stops when asked, without waiting for its slots' long-polling claims to be answered: before this,
 * SIGTERM to an idle agent took as long as the control plane held its claims (up to 15 s; up to the whole
 * {@code --claim-wait} against a control plane that holds them longer). Against a real HTTP server whose claims are
 * never answered until the test ends.
 */
class AgentShutdownTest {

    private final AgentConfig config = AgentConfig.load(
            List.of("--url=http://cp.example", "--org=acme", "--runner=r1", "--max-jobs=2", "--claim-wait=10m"),
            Map.of());
    private final CountDownLatch released = new CountDownLatch(1);
    private final CountDownLatch claimsWaiting = new CountDownLatch(2);
    private final AtomicInteger claims = new AtomicInteger();
    private final AtomicInteger others = new AtomicInteger();
    private final ExecutorService handlers = Executors.newCachedThreadPool();
    private HttpServer server;
    private ControlPlane controlPlane;

    @BeforeEach
    void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(handlers);
        server.start();
        controlPlane = Fixtures.controlPlaneAt(server);
    }

    @AfterEach
    void stop() throws InterruptedException {
        released.countDown();
        server.stop(0);
        handlers.shutdownNow();
        handlers.awaitTermination(10, TimeUnit.SECONDS);
    }

    /** Holds every claim until the test releases it, then answers that there was no job. */
    private void handle(HttpExchange exchange) throws IOException {
        exchange.getRequestBody().readAllBytes();
        if (exchange.getRequestURI().getPath().endsWith("/claim")) {
            claims.incrementAndGet();
            claimsWaiting.countDown();
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else {
            others.incrementAndGet();
        }
        try {
            exchange.sendResponseHeaders(204, -1);
        } catch (IOException e) {
            // the agent went away meanwhile
        }
        exchange.close();
    }

    @Test
    @Timeout(60)
    void anIdleAgentStopsWithoutWaitingForItsClaimsToBeAnswered() throws Exception {
        Agent agent = new Agent(config, controlPlane, (job, shutdown) -> {
            throw new AssertionError("no job was handed out");
        });
        agent.start();
        assertThat(claimsWaiting.await(30, TimeUnit.SECONDS))
                .as("both slots wait in a claim")
                .isTrue();

        agent.shutdown();
        // the claims are still unanswered here: an agent that waited for them would never get this far
        agent.awaitTermination();

        assertThat(released.getCount()).as("the claims were never answered").isEqualTo(1);
        assertThat(claims.get()).as("no claim after the shutdown").isEqualTo(2);
        assertThat(others.get()).as("nothing else was sent").isZero();
    }
}
