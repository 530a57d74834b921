package dev.polystack.platform.deployment;

import dev.polystack.platform.testing.CheckReports;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import dev.polystack.platform.testing.Scenario;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.tokenFor;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A model-based test of the engine: a seeded random sequence of what users and runners do to one environment
 * — manifest changes (resources added, removed, changed, referencing each other), deploy, plan, destroy,
 * rollback, cancel, force, two creations at once, approval required or not (a second member approves or
 * rejects what waits), checks whose runner finds drift that an apply puts back in place, drift whose fix replaces
 * the resource, or none, the reconciles Polystack starts for that drift (drift of things is reconciled
 * automatically, a fix that replaces only once approved; the reconciler's tick is a step too), and runner results that
 * succeed, fail, come late or never (lease expiry) — against the real control plane through the real runner
 * protocol. After every step the environment is compared with a small reference model and the engine's
 * invariants are checked:
 * <ul>
 *   <li>an environment never has two deployments running (or one running and one awaiting approval), and no
 *   node has two jobs running;</li>
 *   <li>the active resources are the model's: what accepted results applied, minus what they destroyed;</li>
 *   <li>each active resource's recorded dependencies are those its last accepted apply was given: a deploy's
 *   manifest's, a rollback's target's (where the last apply was a reconcile Polystack started, the model does
 *   not know them and does not check);</li>
 *   <li>a deploy that succeeded leaves exactly the resources of its manifest (removals are decided when it starts);</li>
 *   <li>a fix of destructive drift never applies unattended: when the runner claims an apply of a reconcile
 *   deployment for a {@code destructive-drift} issue, its approval gate is {@code approved} (or
 *   {@code not-needed}: its plan changed nothing);</li>
 *   <li>state serials only grow: the runner writes state as OpenTofu does around an apply or a destroy (reads it,
 *   locks it, writes the next serial, unlocks), the versions stored for each resource never go back, and a job
 *   whose lease expired can no longer write;</li>
 *   <li>no advance ever fails (the engine's failure counter stays 0);</li>
 *   <li>at the end, with a runner that completes everything, every deployment ends, the reconciles included.</li>
 * </ul>
 * {@code -Dmodel.seed=N} replays a sequence, {@code -Dmodel.steps=N} runs a longer one (the normal run is 80
 * steps; {@code -Dmodel.steps=800} is the ten times longer run). A failure names the seed, the step and
 * the operations so far.
 */
@QuarkusTest
@TestProfile(EngineModelTest.ShortLeases.class)
@QuarkusTestResource(PostgresResource.class)
class EngineModelTest {

    /** Leases short enough that a lost runner is noticed within the sequence. */
    public static class ShortLeases implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "polystack.jobs.lease",
                    "2s",
                    "polystack.jobs.sweep-interval",
                    "1s",
                    "polystack.jobs.heartbeat-interval",
                    "1s");
        }
    }

    private static final List<String> ALIASES = List.of("a", "b", "c", "d", "e");

    @Inject
    Reconciler reconciler;

    @Inject
    MeterRegistry meters;

    @Inject
    EntityManager entityManager;

    /** What the model believes: the environment's active resources, and what each deploy was made from. */
    private final Set<String> active = new TreeSet<>();

    private final Map<String, Set<String>> manifestOf = new HashMap<>();
    /** Each deploy's dependencies by resource, as its manifest declared them when it was created. */
    private final Map<String, Map<String, Set<String>>> dependenciesOf = new HashMap<>();
    /** Each rollback's target. */
    private final Map<String, String> rollbackTo = new HashMap<>();
    /**
     * The dependencies each active resource was last applied with, where the model knows them: a reconcile that
     * Polystack started applies the manifest of its moment, which the model does not follow.
     */
    private final Map<String, Set<String>> appliedDependencies = new TreeMap<>();

    private Map<String, Set<String>> dependencies = Map.of();
    private final Map<String, Map<String, Object>> held = new LinkedHashMap<>();
    private final Map<String, Map<String, Object>> abandoned = new LinkedHashMap<>();
    private final List<String> deploymentIds = new ArrayList<>();
    private final List<String> log = new ArrayList<>();
    private Set<String> manifest = Set.of();
    private Scenario s;
    private static final int QUEUE_QUOTA = 10;
    private Random random;
    private String approver;
    private boolean gated;
    private int checks;
    /** How many times a resource with dependencies had them compared (the invariant is not empty). */
    private int dependencyChecks;
    /** Check results accepted that found drift whose fix replaces the resource. */
    private int destructiveFindings;
    /** Applies of reconciles for destructive drift whose gate was looked at when they were claimed. */
    private int destructiveFixApplies;
    /** The resources' states as the model's runner writes them, and the serials seen stored. */
    private ModelState states;
    /** Whether a deployment (by id) is a reconcile for destructive drift, once the gate invariant looked it up. */
    private final Map<String, Boolean> destructiveFix = new HashMap<>();

    @Test
    void aRandomSequenceOfUserAndRunnerOperationsKeepsEveryInvariant() {
        long seed = Long.getLong("model.seed", 20261130L);
        int steps = Integer.getInteger("model.steps", 80);
        random = new Random(seed);
        s = new Scenario(3);
        states = new ModelState(
                s.org, ALIASES.stream().map(alias -> "app." + alias).toList());
        approver = tokenFor(s.org, "platform-engineer");
        envType(Map.of());
        double failuresBefore = advanceFailures();
        for (int step = 1; step <= steps; step++) {
            String operation = step(step);
            log.add(step + ": " + operation);
            check("seed " + seed + ", step " + step, failuresBefore);
        }
        drain();
        check("seed " + seed + ", after draining", failuresBefore);
        List<String> all = List.copyOf(everyDeployment().keySet());
        assertThat(all)
                .as("the environment's deployments include every one created")
                .containsAll(deploymentIds);
        for (String id : all) {
            assertThat(s.status(id))
                    .as(() -> "seed " + seed + ": deployment " + id + " ended (" + s.deployment(id) + "; engine: "
                            + admin().get("/api/v1/admin/engine").asString() + "); " + String.join("\n", log))
                    .isIn("succeeded", "failed", "cancelled");
        }
        System.out.printf(
                "EngineModelTest: seed %d, %d steps, %d deployments (%d checks; %d reconciles, started by Polystack),"
                        + " all ended, no invariant broken (%d comparisons of a resource's dependencies; %d findings of"
                        + " destructive drift, %d applies of their fixes, each approved; %d state writes)%n",
                seed,
                steps,
                all.size(),
                checks,
                all.size() - deploymentIds.size(),
                dependencyChecks,
                destructiveFindings,
                destructiveFixApplies,
                states.writes());
    }

    private String step(int step) {
        int dice = random.nextInt(100);
        if (dice < 14) {
            return changeManifest();
        }
        if (dice < 26) {
            return create(Map.of("mode", "deploy"));
        }
        if (dice < 29) {
            return create(Map.of("mode", "deploy", "force", true));
        }
        if (dice < 33) {
            return create(Map.of("mode", "plan"));
        }
        if (dice < 36) {
            return create(Map.of("mode", "destroy"));
        }
        if (dice < 39 && !deploymentIds.isEmpty()) {
            String target = deploymentIds.get(random.nextInt(deploymentIds.size()));
            return create(Map.of("mode", "rollback", "rollback_to", target, "allow_destroy", random.nextBoolean()));
        }
        if (dice < 43 && !deploymentIds.isEmpty()) {
            String target = deploymentIds.get(random.nextInt(deploymentIds.size()));
            int status = admin().post(
                            "/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/cancel", s.org, target)
                    .statusCode();
            assertThat(status).as("cancel").isIn(200, 409);
            return "cancel " + target + " -> " + status;
        }
        if (dice < 46) {
            CompletableFuture<String> one = CompletableFuture.supplyAsync(() -> create(Map.of("mode", "deploy"), 1));
            CompletableFuture<String> two =
                    CompletableFuture.supplyAsync(() -> create(Map.of("mode", "deploy", "force", true), 1));
            return "at once: " + one.join() + " | " + two.join();
        }
        if (dice < 50 && !abandoned.isEmpty()) {
            return lateResult();
        }
        if (dice < 53) {
            return toggleGate();
        }
        if (dice < 58) {
            return decide();
        }
        if (dice < 66) {
            return startCheck();
        }
        if (dice < 68) {
            return "reconcile tick: " + reconciler.reconcileWaiting(Instant.now()) + " started";
        }
        return runner();
    }

    /** The environment type requires approval for deployments, or stops requiring it (for those created after). */
    private String toggleGate() {
        gated = !gated;
        envType(gated ? Map.of("deployments", true) : Map.of());
        return gated ? "approval required from now on" : "approval no longer required";
    }

    /** The environment type: drift of things is reconciled automatically; {@code approval} as given. */
    private void envType(Map<String, Object> approval) {
        admin().body(Map.of("approval", approval, "reconcile", Map.of("thing", "auto")))
                .put("/api/v1/orgs/{org}/env-types/production", s.org)
                .then()
                .statusCode(200);
    }

    /**
     * A check of the environment, refused while a deployment runs or waits; so the runner first completes what
     * there is, now and then (else the sequence keeps the environment busy and checks never start).
     */
    private String startCheck() {
        boolean settled = random.nextInt(4) > 0;
        if (settled) {
            drain();
        }
        Response response = admin().body(Map.of()).post("/api/v1/orgs/{org}/projects/shop/envs/prod/checks", s.org);
        assertThat(response.statusCode())
                .as(() -> "check: " + response.asString())
                .isIn(201, 403, 409);
        String settling = settled ? "settle, then check" : "check";
        if (response.statusCode() != 201) {
            return settling + " -> " + response.statusCode();
        }
        String id = response.jsonPath().getString("id");
        deploymentIds.add(id);
        checks++;
        if (!settled || random.nextBoolean()) {
            return settling + " -> " + id;
        }
        // the runner answers the check's jobs at once (drift found or not), and the reconciler looks
        List<String> found = new ArrayList<>();
        Map<String, Object> job;
        while ((job = s.runner.claim("0s")) != null) {
            neverUnattended(job);
            Map<String, Object> finding = finding();
            int status = s.runner
                    .result(
                            job.get("job_id"),
                            resultOf(job, job.get("operation").toString(), finding))
                    .statusCode();
            accepted(job, status, finding);
            found.add(describe(job) + " " + name(finding) + " -> " + status);
        }
        // the check ends in the advance after its last result; until then the reconcile waits for it
        for (int wait = 0;
                wait < 100 && !Set.of("succeeded", "failed", "cancelled").contains(s.status(id));
                wait++) {
            sleep(50);
        }
        return settling + " -> " + id + " (" + s.status(id) + "), answered at once: " + found + "; reconcile tick: "
                + reconciler.reconcileWaiting(Instant.now()) + " started";
    }

    /** A second member approves (or, now and then, rejects) the deployment that waits for approval, if one does. */
    private String decide() {
        Optional<String> waiting = admin()
                .queryParam("limit", 500)
                .get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .<Map<String, Object>>getList("items")
                .stream()
                .filter(d -> "awaiting_approval".equals(d.get("status")))
                .map(d -> d.get("id").toString())
                .findFirst();
        if (waiting.isEmpty()) {
            return "decide: nothing waits";
        }
        String decision = random.nextInt(100) < 25 ? "reject" : "approve";
        int status = as(approver)
                .body(Map.of("decision", decision))
                .post("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}/approvals", s.org, waiting.get())
                .statusCode();
        assertThat(status).as("decide " + waiting.get()).isEqualTo(201);
        return decision + " " + waiting.get() + " -> " + status;
    }

    private String changeManifest() {
        List<String> chosen = new ArrayList<>();
        for (String alias : ALIASES) {
            if (random.nextInt(3) > 0) {
                chosen.add(alias);
            }
        }
        if (chosen.isEmpty()) {
            chosen.add(ALIASES.get(random.nextInt(ALIASES.size())));
        }
        Map<String, List<String>> graph = new LinkedHashMap<>();
        Map<String, Integer> sizes = new HashMap<>();
        for (int i = 0; i < chosen.size(); i++) {
            List<String> upstream = i > 0 && random.nextBoolean() ? List.of(chosen.get(random.nextInt(i))) : List.of();
            graph.put(chosen.get(i), upstream);
            sizes.put(chosen.get(i), 1 + random.nextInt(3));
        }
        s.manifest(graph, sizes);
        manifest = new TreeSet<>(chosen);
        Map<String, Set<String>> declared = new HashMap<>();
        graph.forEach((alias, upstream) -> declared.put(
                "app." + alias,
                Set.copyOf(upstream.stream().map(u -> "app." + u).toList())));
        dependencies = Map.copyOf(declared);
        return "manifest " + graph + " sizes " + sizes;
    }

    private String create(Map<String, Object> body) {
        return create(body, 0);
    }

    /** {@code others}: how many creations run beside this one (each may take a place in the queue after it was counted). */
    private String create(Map<String, Object> body, int others) {
        // only this thread creates deployments (and the {@code others} beside it): the queue it counts can
        // shrink before the create, and grow only by those
        long queued = admin()
                .queryParam("limit", 500)
                .get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", s.org)
                .then()
                .extract()
                .jsonPath()
                .getList("items.status", String.class)
                .stream()
                .filter("queued"::equals)
                .count();
        Response response = s.create(body);
        if (response.statusCode() == 403) {
            // the organization's quota of deployments waiting in one environment (10 by default)
            assertThat(queued)
                    .as(() -> "create " + body + " refused with " + queued + " queued: " + response.asString())
                    .isGreaterThanOrEqualTo(QUEUE_QUOTA - others);
            assertThat(response.jsonPath().getString("quota.name")).isEqualTo("queued_deployments_per_environment");
            return "create " + body + " -> quota";
        }
        assertThat(response.statusCode())
                .as(() -> "create " + body + ": " + response.asString())
                .isIn(201, 409, 422);
        if (response.statusCode() != 201) {
            return "create " + body + " -> " + response.statusCode();
        }
        String id = response.jsonPath().getString("id");
        synchronized (deploymentIds) {
            deploymentIds.add(id);
            if ("deploy".equals(body.get("mode"))) {
                manifestOf.put(
                        id, Set.copyOf(manifest.stream().map(a -> "app." + a).toList()));
                dependenciesOf.put(id, dependencies);
            }
            if ("rollback".equals(body.get("mode"))) {
                rollbackTo.put(id, body.get("rollback_to").toString());
            }
        }
        return "create " + body + " -> " + id;
    }

    /** The runner: claims a job, or reports a held one; a result succeeds, fails, waits, or never comes. */
    private String runner() {
        held.keySet().forEach(job -> s.runner.heartbeat(job));
        if (!held.isEmpty() && random.nextBoolean()) {
            String job = held.keySet().iterator().next();
            return report(held.remove(job));
        }
        Map<String, Object> job = s.runner.claim("0s");
        if (job == null) {
            return "claim: nothing";
        }
        String id = job.get("job_id").toString();
        neverUnattended(job);
        int dice = random.nextInt(100);
        if (dice < 20) {
            held.put(id, job);
            return "claim " + describe(job) + ", held";
        }
        if (dice < 25) {
            abandoned.put(id, job);
            return "claim " + describe(job) + ", abandoned (its lease will expire)";
        }
        return "claim " + describe(job) + ", " + report(job);
    }

    private String report(Map<String, Object> job) {
        boolean fail = random.nextInt(100) < 15;
        String operation = job.get("operation").toString();
        Map<String, Object> finding = finding();
        if (!fail) {
            states.write(job);
        }
        Map<String, Object> body = fail
                ? Map.of("status", "failed", "error", Map.of("summary", "asked to fail"))
                : resultOf(job, operation, finding);
        int status = s.runner.result(job.get("job_id"), body).statusCode();
        assertThat(status).as("result").isIn(204, 409);
        if (!fail) {
            accepted(job, status, finding);
        }
        return (fail ? "failed " : "succeeded ") + describe(job)
                + (operation.equals("check") && !fail ? " (" + name(finding) + ")" : "") + " -> " + status;
    }

    /**
     * The model's side of a success the control plane accepted (204): an apply adds the resource, a destroy removes
     * it; a check's {@code finding} changes no resource.
     */
    private void accepted(Map<String, Object> job, int status, Map<String, Object> finding) {
        if (status != 204) {
            return;
        }
        if (job.get("operation").equals("check") && finding == CheckReports.REPLACE) {
            destructiveFindings++;
        }
        String resource = RunnerDriver.resourceOf(job);
        if (job.get("operation").equals("apply")) {
            active.add(resource);
            Set<String> applied = declaredDependencies(job.get("deployment_id").toString(), resource);
            if (applied == null) {
                appliedDependencies.remove(resource);
            } else {
                appliedDependencies.put(resource, applied);
            }
        } else if (job.get("operation").equals("destroy")) {
            active.remove(resource);
            appliedDependencies.remove(resource);
        }
    }

    /**
     * What an apply of {@code deployment} gives {@code resource} as dependencies: a deploy's are its manifest's, a
     * rollback's are its target's (README: a rollback applies again what its target applied, with its inputs);
     * null when the model does not know (a reconcile Polystack started, a target it did not create).
     */
    private Set<String> declaredDependencies(String deployment, String resource) {
        synchronized (deploymentIds) {
            for (int hops = 0; deployment != null && hops <= deploymentIds.size(); hops++) {
                Map<String, Set<String>> declared = dependenciesOf.get(deployment);
                if (declared != null) {
                    return declared.get(resource);
                }
                deployment = rollbackTo.get(deployment);
            }
            return null;
        }
    }

    /** What a check finds, if the job is one: nothing, drift an apply puts back in place, or drift whose fix replaces. */
    private Map<String, Object> finding() {
        return switch (random.nextInt(3)) {
            case 0 -> CheckReports.CLEAN;
            case 1 -> CheckReports.IN_PLACE;
            default -> CheckReports.REPLACE;
        };
    }

    private static String name(Map<String, Object> finding) {
        return finding == CheckReports.CLEAN
                ? "clean"
                : finding == CheckReports.IN_PLACE ? "drifted" : "drifted, replaces";
    }

    /**
     * The gate invariant: the runner claimed {@code job}; when it applies a reconcile for destructive drift, that
     * reconcile's approval gate was passed (README: a fix that deletes or replaces never applies unattended).
     */
    private void neverUnattended(Map<String, Object> job) {
        if (!job.get("operation").equals("apply")) {
            return;
        }
        String deployment = job.get("deployment_id").toString();
        Boolean known = destructiveFix.get(deployment);
        if (Boolean.FALSE.equals(known)) {
            return;
        }
        JsonPath view = admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments/{id}", s.org, deployment)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        if (known == null) {
            List<String> reconciles = view.getList("reconciles", String.class);
            known = reconciles != null
                    && !reconciles.isEmpty()
                    && admin()
                            .queryParam("kind", "destructive-drift")
                            .queryParam("limit", 500)
                            .get("/api/v1/orgs/{org}/projects/shop/envs/prod/issues", s.org)
                            .then()
                            .statusCode(200)
                            .extract()
                            .jsonPath()
                            .getList("items.id", String.class)
                            .stream()
                            .anyMatch(reconciles::contains);
            destructiveFix.put(deployment, known);
        }
        if (known) {
            String gate = view.getString("approval.state");
            assertThat(gate)
                    .as(() -> "the runner claimed " + describe(job) + ", a fix of destructive drift, with its gate "
                            + gate + " (" + view.prettify() + ")\n" + String.join("\n", log))
                    .isIn("approved", "not-needed");
            destructiveFixApplies++;
        }
    }

    /** A success of {@code operation}; a check reports {@code finding}. */
    private static Map<String, Object> resultOf(
            Map<String, Object> job, String operation, Map<String, Object> finding) {
        if (operation.equals("check")) {
            return Map.of("status", "succeeded", "check", finding);
        }
        String resource = RunnerDriver.resourceOf(job);
        Map<String, Object> outputs = operation.equals("apply")
                ? Map.of("name", Map.of("value", "out-" + resource, "sensitive", false))
                : Map.of();
        return Map.of(
                "status",
                "succeeded",
                "outputs",
                outputs,
                "resources",
                List.of(),
                "plan_summary",
                Map.of("add", 0, "change", operation.equals("plan") ? 1 : 0, "destroy", 0));
    }

    /** A result after the lease expired is refused and changes nothing. */
    private String lateResult() {
        String id = abandoned.keySet().iterator().next();
        Map<String, Object> job = abandoned.remove(id);
        sleep(2600);
        states.refusedAfterLease(job, describe(job) + "\n" + String.join("\n", log));
        int status = s.runner
                .result(id, resultOf(job, job.get("operation").toString(), CheckReports.CLEAN))
                .statusCode();
        assertThat(status).as("a result after the lease expired").isEqualTo(409);
        return "late result of " + describe(job) + " -> " + status;
    }

    /** A runner that completes everything, until every deployment has ended. */
    private void drain() {
        held.values().forEach(this::report);
        held.clear();
        // until every deployment ended, or nothing was there to claim for 15 claims in a row (a wedge: leases
        // are 2 s and the sweeper runs every second, so work that exists shows up well within that); a long
        // run can leave hundreds of jobs queued, so the number of rounds is not what stops it
        int idle = 0;
        for (int round = 0; round < 20_000 && idle < 15 && !unfinished().isEmpty(); round++) {
            decide();
            Map<String, Object> job = s.runner.claim("1s");
            if (job == null) {
                idle++;
            } else {
                idle = 0;
                neverUnattended(job);
                states.write(job);
                accepted(
                        job,
                        s.runner
                                .result(
                                        job.get("job_id"),
                                        resultOf(job, job.get("operation").toString(), CheckReports.CLEAN))
                                .statusCode(),
                        CheckReports.CLEAN);
            }
        }
    }

    /**
     * Every deployment of the environment, by id, with its status: those the sequence created, and the reconciles
     * Polystack started.
     */
    private Map<String, String> everyDeployment() {
        Map<String, String> statuses = new LinkedHashMap<>();
        String token = null;
        do {
            var request = admin().queryParam("limit", 500);
            if (token != null) {
                request.queryParam("page_token", token);
            }
            var page = request.get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", s.org)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            page.<Map<String, Object>>getList("items")
                    .forEach(d ->
                            statuses.put(d.get("id").toString(), d.get("status").toString()));
            token = page.getString("next_page_token");
        } while (token != null);
        return statuses;
    }

    private List<String> unfinished() {
        return everyDeployment().entrySet().stream()
                .filter(d -> !Set.of("succeeded", "failed", "cancelled").contains(d.getValue()))
                .map(Map.Entry::getKey)
                .toList();
    }

    private void check(String where, double failuresBefore) {
        String history = String.join("\n", log);
        List<Map<String, Object>> deployments = admin().queryParam("limit", 500)
                .get("/api/v1/orgs/{org}/projects/shop/envs/prod/deployments", s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
        assertThat(deployments.stream()
                        .filter(d -> Set.of("running", "awaiting_approval").contains(d.get("status")))
                        .count())
                .as(() -> where + ": deployments running or awaiting approval at once\n" + history)
                .isLessThanOrEqualTo(1);
        @SuppressWarnings("unchecked")
        List<Object> doubled = entityManager
                .createNativeQuery(
                        "select node_id from job where status = 'running' group by node_id having count(*) > 1")
                .getResultList();
        assertThat(doubled)
                .as(() -> where + ": nodes with two running jobs\n" + history)
                .isEmpty();
        JsonPath graph = admin().get("/api/v1/orgs/{org}/projects/shop/envs/prod/resource-graph", s.org)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        List<String> actual =
                graph.getList("nodes.id", String.class).stream().sorted().toList();
        assertThat(actual).as(() -> where + ": active resources\n" + history).containsExactlyElementsOf(active);
        Map<String, Set<String>> edges = new TreeMap<>();
        List<Map<String, Object>> recorded = graph.getList("edges");
        // an edge names whole identities (type/class/id); the model, ids
        recorded.forEach(edge -> edges.computeIfAbsent(idOf(edge.get("from")), k -> new TreeSet<>())
                .add(idOf(edge.get("to"))));
        appliedDependencies.values().stream().filter(d -> !d.isEmpty()).forEach(d -> dependencyChecks++);
        appliedDependencies.forEach((resource, expected) -> assertThat(edges.getOrDefault(resource, Set.of()))
                .as(() -> where + ": the dependencies recorded for " + resource + ", which its last apply was given\n"
                        + history)
                .containsExactlyInAnyOrderElementsOf(expected));
        for (Map<String, Object> deployment : deployments) {
            Set<String> expected = manifestOf.get(deployment.get("id").toString());
            if (expected != null
                    && "succeeded".equals(deployment.get("status"))
                    && deployment.get("id").equals(lastEnded(deployments))) {
                assertThat(actual)
                        .as(() -> where + ": a succeeded deploy leaves exactly its manifest's resources\n" + history)
                        .containsExactlyInAnyOrderElementsOf(expected);
            }
        }
        states.serialsOnlyGrow(where, history);
        assertThat(advanceFailures() - failuresBefore)
                .as(() -> where + ": advances that failed\n" + history)
                .isZero();
    }

    /** The id of a resource named by its whole identity, {@code thing/default/app.a}. */
    private static String idOf(Object identity) {
        String whole = identity.toString();
        return whole.substring(whole.lastIndexOf('/') + 1);
    }

    /** The deployment that ended last, when nothing has run since. */
    private static Object lastEnded(List<Map<String, Object>> deployments) {
        boolean busy = deployments.stream()
                .anyMatch(d -> Set.of("queued", "running").contains(String.valueOf(d.get("status"))));
        if (busy) {
            return null;
        }
        return deployments.stream()
                .filter(d -> d.get("finished_at") != null)
                .max((x, y) -> x.get("finished_at")
                        .toString()
                        .compareTo(y.get("finished_at").toString()))
                .map(d -> d.get("id"))
                .orElse(null);
    }

    private double advanceFailures() {
        var counter = meters.find("polystack.engine.advance.failures").counter();
        return counter == null ? 0 : counter.count();
    }

    private static String describe(Map<String, Object> job) {
        return job.get("operation") + " " + RunnerDriver.resourceOf(job) + " of " + job.get("deployment_id");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
