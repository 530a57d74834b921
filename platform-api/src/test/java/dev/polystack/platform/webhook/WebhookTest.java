package dev.polystack.platform.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.polystack.platform.testing.CheckReports;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.tokenFor;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

/**
 * Webhooks end to end over HTTP: a receiver on loopback (allowed by the test profile), deliveries from the
 * outbox signed as Standard Webhooks, retried after an outage, in order per subject.
 */
@QuarkusTest
@TestProfile(WebhookTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class WebhookTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the receiver got: headers and body of each request, in arrival order. */
    record Received(String id, String timestamp, String signature, String body) {
        JsonNode json() throws Exception {
            return JSON.readTree(body);
        }
    }

    @Inject
    WebhookDispatcher dispatcher;

    private HttpServer receiver;
    private final List<Received> received = Collections.synchronizedList(new ArrayList<>());
    /** Answers 503 to this many requests first, then {@link #answer}. */
    private final AtomicInteger outage = new AtomicInteger();

    private volatile int answer = 204;

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            int status = outage.getAndUpdate(n -> Math.max(0, n - 1)) > 0 ? 503 : answer;
            if (status < 300) {
                received.add(new Received(
                        exchange.getRequestHeaders().getFirst("webhook-id"),
                        exchange.getRequestHeaders().getFirst("webhook-timestamp"),
                        exchange.getRequestHeaders().getFirst("webhook-signature"),
                        body));
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.stop(0);
    }

    private String url() {
        return "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
    }

    private Map<String, Object> subscribe(Scenario s, List<String> events) {
        return admin().body(Map.of("url", url(), "events", events))
                .post("/api/v1/orgs/{org}/webhooks", s.org)
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getMap("");
    }

    private static String expectedSignature(String secret, Received r) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
        return "v1,"
                + Base64.getEncoder()
                        .encodeToString(mac.doFinal(
                                (r.id() + "." + r.timestamp() + "." + r.body()).getBytes(StandardCharsets.UTF_8)));
    }

    private List<String> types() throws Exception {
        List<String> types = new ArrayList<>();
        for (Received r : List.copyOf(received)) {
            types.add(r.json().path("type").asText());
        }
        return types;
    }

    @Test
    void aSubscriptionGetsASignedTestDeliveryAndItsSecretIsShownOnce() throws Exception {
        Scenario s = new Scenario(1);
        Map<String, Object> created = subscribe(s, List.of("deployment.succeeded"));
        String secret = (String) created.get("secret");
        assertThat(secret).startsWith("whsec_");
        admin().get("/api/v1/orgs/{org}/webhooks/{id}", s.org, created.get("id"))
                .then()
                .statusCode(200)
                .body("secret", nullValue())
                .body("url", equalTo(url()));

        dispatcher.deliverDue();
        assertThat(received).singleElement().satisfies(r -> {
            assertThat(r.json().path("type").asText()).isEqualTo("ping");
            assertThat(r.signature()).isEqualTo(expectedSignature(secret, r));
            assertThat(Long.parseLong(r.timestamp()))
                    .isCloseTo(System.currentTimeMillis() / 1000, org.assertj.core.data.Offset.offset(60L));
        });
        admin().get("/api/v1/orgs/{org}/webhooks/{id}/deliveries", s.org, created.get("id"))
                .then()
                .statusCode(200)
                .body("items[0].event_type", equalTo("ping"))
                .body("items[0].status", equalTo("delivered"))
                .body("items[0].last_status_code", equalTo(204))
                .body("items[0].attempts", equalTo(1));
        // a signature with another secret does not match: the receiver can tell
        assertThat(received.get(0).signature())
                .isNotEqualTo(expectedSignature(WebhookSignature.newSecret(), received.get(0)));
    }

    @Test
    void deploymentAndIssueEventsArriveInOrderPerSubjectAfterAReceiverOutage() throws Exception {
        Scenario s = new Scenario(4);
        subscribe(s, List.of("deployment.started", "deployment.succeeded", "issue.opened", "issue.resolved"));
        dispatcher.deliverDue();
        received.clear();

        s.manifest(graph("a", List.of()));
        String deployment = s.deploy();
        s.claimAll().values().forEach(s::succeed);
        // the receiver is down: the started event is retried, and succeeded (same subject) waits behind it
        outage.set(2);
        dispatcher.deliverDue();
        assertThat(received).isEmpty();
        dispatcher.deliverDue();
        assertThat(received).isEmpty();
        dispatcher.deliverDue();
        dispatcher.deliverDue();
        assertThat(types()).containsExactly("deployment.started", "deployment.succeeded");
        JsonNode started = received.get(0).json();
        assertThat(started.path("data").path("id").asText()).isEqualTo(deployment);
        assertThat(started.path("data").path("project").asText()).isEqualTo("shop");
        assertThat(started.path("data").path("env").asText()).isEqualTo("prod");
        assertThat(received.get(1).json().path("data").path("status").asText()).isEqualTo("succeeded");

        received.clear();
        admin().body(Map.of())
                .post("/api/v1/orgs/{org}/projects/shop/envs/prod/checks", s.org)
                .then()
                .statusCode(201);
        s.claimAll()
                .values()
                .forEach(job -> s.runner
                        .result(job.get("job_id"), Map.of("status", "succeeded", "check", CheckReports.IN_PLACE))
                        .then()
                        .statusCode(204));
        s.create(Map.of("mode", "deploy", "force", true)).then().statusCode(201);
        s.claimAll().values().forEach(s::succeed);
        dispatcher.deliverDue();
        dispatcher.deliverDue();
        assertThat(types())
                .as("checks are not announced as deployments; their findings are, as issues")
                .containsSubsequence("issue.opened", "issue.resolved")
                .doesNotContain("ping");
        JsonNode opened = received.stream()
                .filter(r -> r.body().contains("issue.opened"))
                .findFirst()
                .orElseThrow()
                .json();
        assertThat(opened.path("data").path("kind").asText()).isEqualTo("drift");
        assertThat(opened.path("data").path("resource").asText()).isEqualTo("thing/default/app.a");
    }

    @Test
    void aGatedDeploymentAnnouncesThatItNeedsApprovalAndEachDecision() throws Exception {
        Scenario s = new Scenario(4);
        admin().body(Map.of("approval", Map.of("deployments", true)))
                .put("/api/v1/orgs/{org}/env-types/production", s.org)
                .then()
                .statusCode(200);
        subscribe(s, List.of("deployment.started", "deployment.succeeded", "approval.needed", "approval.given"));
        dispatcher.deliverDue();
        received.clear();

        s.manifest(graph("a", List.of()));
        String deployment = s.deploy();
        s.claimAll()
                .values()
                .forEach(job -> s.runner
                        .result(
                                job.get("job_id"),
                                Map.of(
                                        "status",
                                        "succeeded",
                                        "plan_summary",
                                        Map.of("add", 1, "change", 0, "destroy", 0)))
                        .then()
                        .statusCode(204));
        String fingerprint = admin().get(
                        "/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}", s.org, deployment)
                .then()
                .statusCode(200)
                .extract()
                .path("approval.fingerprint");
        as(tokenFor(s.org, "platform-engineer"))
                .body(Map.of("decision", "approve", "comment", "ship it"))
                .post("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/approvals", s.org, deployment)
                .then()
                .statusCode(201);
        s.claimAll().values().forEach(s::succeed);
        for (int round = 0; round < 4; round++) {
            dispatcher.deliverDue(); // one event of a subject per round: the next waits until it is delivered
        }

        assertThat(types())
                .containsExactly("deployment.started", "approval.needed", "approval.given", "deployment.succeeded");
        JsonNode needed = received.get(1).json().path("data");
        assertThat(needed.path("id").asText()).isEqualTo(deployment);
        assertThat(needed.path("status").asText()).isEqualTo("awaiting_approval");
        assertThat(needed.path("fingerprint").asText()).isEqualTo(fingerprint);
        JsonNode given = received.get(2).json().path("data");
        assertThat(given.path("decision").asText()).isEqualTo("approve");
        assertThat(given.path("comment").asText()).isEqualTo("ship it");
        assertThat(given.path("approvals").asInt()).isEqualTo(1);
        assertThat(given.path("required").asInt()).isEqualTo(1);
    }

    @Test
    void aRefusingReceiverFailsTheDeliveryForGoodAndOnlyAskedForEventsAreSent() throws Exception {
        Scenario s = new Scenario(4);
        Map<String, Object> created = subscribe(s, List.of("deployment.failed"));
        answer = 400;
        dispatcher.deliverDue();
        admin().get("/api/v1/orgs/{org}/webhooks/{id}/deliveries", s.org, created.get("id"))
                .then()
                .statusCode(200)
                .body("items[0].status", equalTo("failed"))
                .body("items[0].attempts", equalTo(1))
                .body("items[0].last_error", equalTo("answered 400"));
        answer = 204;
        s.manifest(graph("a", List.of()));
        s.deploy();
        s.claimAll().values().forEach(s::succeed);
        dispatcher.deliverDue();
        assertThat(received).as("only deployment.failed was asked for").isEmpty();

        admin().delete("/api/v1/orgs/{org}/webhooks/{id}", s.org, created.get("id"))
                .then()
                .statusCode(204);
        admin().get("/api/v1/orgs/{org}/webhooks/{id}", s.org, created.get("id"))
                .then()
                .statusCode(404);
    }

    @Test
    void badSubscriptionsAreRefusedWithTheField() {
        Scenario s = new Scenario(1);
        admin().body(Map.of("url", url(), "events", List.of("deployment.exploded")))
                .post("/api/v1/orgs/{org}/webhooks", s.org)
                .then()
                .statusCode(400)
                .body("errors[0].pointer", equalTo("/events/0"));
        admin().body(Map.of("url", "ftp://example.com/hook", "events", List.of("issue.opened")))
                .post("/api/v1/orgs/{org}/webhooks", s.org)
                .then()
                .statusCode(400)
                .body("errors[0].pointer", equalTo("/url"));
        admin().body(Map.of("url", "http://user:pw@127.0.0.1/hook", "events", List.of("issue.opened")))
                .post("/api/v1/orgs/{org}/webhooks", s.org)
                .then()
                .statusCode(400)
                .body("detail", org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString("pw")));
        admin().body(Map.of("url", "http://no-such-host.invalid/hook", "events", List.of("issue.opened")))
                .post("/api/v1/orgs/{org}/webhooks", s.org)
                .then()
                .statusCode(400)
                .body("detail", org.hamcrest.Matchers.containsString("does not resolve"));
        admin().body(Map.of("url", url(), "events", List.of()))
                .post("/api/v1/orgs/{org}/webhooks", s.org)
                .then()
                .statusCode(400);
    }
}
