package dev.polystack.platform.quota;

import dev.polystack.platform.deployment.jobs.JobLimits;
import dev.polystack.platform.runner.RunnerKeys;
import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.RunnerDriver;
import dev.polystack.platform.testing.Scenario;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.as;
import static dev.polystack.platform.testing.Api.createOrg;
import static dev.polystack.platform.testing.Api.problem;
import static dev.polystack.platform.testing.Api.tokenFor;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class QuotaTest {

    @Inject
    EntityManager entityManager;

    static final String QUOTAS = "/api/v1/orgs/{org}/quotas";

    @Test
    void membersSeeEachQuotaWithItsLimitAndUsageAndOnlyInstanceAdministratorsChangeThem() {
        String org = createOrg();
        admin().body(Map.of("id", "p1", "name", "P"))
                .post("/api/v1/orgs/{org}/projects", org)
                .then()
                .statusCode(201);
        String viewer = tokenFor(org, "viewer");
        JsonPath quotas =
                as(viewer).get(QUOTAS, org).then().statusCode(200).extract().jsonPath();
        assertThat(quotas.getList("items.name", String.class))
                .containsExactly(
                        "projects",
                        "environments_per_project",
                        "resources_per_manifest",
                        "queued_deployments_per_environment",
                        "concurrent_jobs",
                        "runners",
                        "tokens_per_user");
        assertThat(quotas.getInt("items.find { it.name == 'projects' }.hard")).isEqualTo(100);
        assertThat(quotas.getInt("items.find { it.name == 'projects' }.used")).isEqualTo(1);
        assertThat(quotas.getBoolean("items.find { it.name == 'projects' }.default"))
                .isTrue();

        problem(as(tokenFor(org, "owner")).body(Map.of("projects", 5)).put(QUOTAS, org), 403, "forbidden");
        admin().body(Map.of("projects", 5))
                .put(QUOTAS, org)
                .then()
                .statusCode(200)
                .body("items.find { it.name == 'projects' }.hard", equalTo(5))
                .body("items.find { it.name == 'projects' }.default", equalTo(false));
        problem(admin().body(Map.of("projects", -1)).put(QUOTAS, org), 400, "validation")
                .body("errors[0].pointer", equalTo("/projects"));
        problem(admin().body(Map.of("bananas", 1)).put(QUOTAS, org), 400, "validation");
        problem(as(tokenFor(createOrg(), "owner")).get(QUOTAS, org), 404, "not-found");
    }

    @Test
    void creatingPastAQuotaIsA403NamingTheQuotaItsLimitAndUsage() throws Exception {
        String org = createOrg();
        admin().body(Map.of("projects", 1, "environments_per_project", 1, "runners", 1, "tokens_per_user", 1))
                .put(QUOTAS, org)
                .then()
                .statusCode(200);
        admin().body(Map.of("id", "production"))
                .post("/api/v1/orgs/{org}/env-types", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("id", "p1", "name", "P"))
                .post("/api/v1/orgs/{org}/projects", org)
                .then()
                .statusCode(201);
        problem(
                        admin().body(Map.of("id", "p2", "name", "P")).post("/api/v1/orgs/{org}/projects", org),
                        403,
                        "quota-exceeded")
                .body("quota.name", equalTo("projects"))
                .body("quota.limit", equalTo(1))
                .body("quota.used", equalTo(1))
                .body("detail", containsString("projects"));
        admin().get("/api/v1/orgs/{org}/projects/p2", org).then().statusCode(404);

        admin().body(Map.of("id", "e1", "env_type_id", "production"))
                .post("/api/v1/orgs/{org}/projects/p1/envs", org)
                .then()
                .statusCode(201);
        problem(
                        admin().body(Map.of("id", "e2", "env_type_id", "production"))
                                .post("/api/v1/orgs/{org}/projects/p1/envs", org),
                        403,
                        "quota-exceeded")
                .body("quota.name", equalTo("environments_per_project"));

        admin().body(Map.of("id", "r1", "public_key", publicKey()))
                .post("/api/v1/orgs/{org}/runners", org)
                .then()
                .statusCode(201);
        problem(
                        admin().body(Map.of("id", "r2", "public_key", publicKey()))
                                .post("/api/v1/orgs/{org}/runners", org),
                        403,
                        "quota-exceeded")
                .body("quota.name", equalTo("runners"));

        admin().body(Map.of("id", "ci", "role", "developer"))
                .post("/api/v1/orgs/{org}/service-users", org)
                .then()
                .statusCode(201);
        admin().body(Map.of("name", "one"))
                .post("/api/v1/orgs/{org}/service-users/ci/tokens", org)
                .then()
                .statusCode(201);
        problem(
                        admin().body(Map.of("name", "two")).post("/api/v1/orgs/{org}/service-users/ci/tokens", org),
                        403,
                        "quota-exceeded")
                .body("quota.name", equalTo("tokens_per_user"));

        admin().get(QUOTAS, org)
                .then()
                .statusCode(200)
                .body("items.find { it.name == 'runners' }.used", equalTo(1))
                .body("items.find { it.name == 'environments_per_project' }.used", equalTo(1))
                .body("items.find { it.name == 'tokens_per_user' }.used", equalTo(1));
    }

    @Test
    void manifestsAndQueuedDeploymentsAreBoundedPerEnvironment() {
        Scenario s = new Scenario(1);
        admin().body(Map.of("resources_per_manifest", 2, "queued_deployments_per_environment", 1))
                .put(QUOTAS, s.org)
                .then()
                .statusCode(200);
        String three =
                "workloads:\n  app:\n    resources:\n      a: {type: thing}\n      b: {type: thing}\n      c: {type: thing}\n";
        problem(
                        admin().contentType("application/yaml")
                                .body(three.getBytes(StandardCharsets.UTF_8))
                                .put("/api/v1/orgs/{org}/projects/shop/envs/prod/manifest", s.org),
                        403,
                        "quota-exceeded")
                .body("quota.name", equalTo("resources_per_manifest"))
                .body("quota.limit", equalTo(2))
                .body("quota.used", equalTo(3));
        problem(
                admin().contentType("application/yaml")
                        .body(three.getBytes(StandardCharsets.UTF_8))
                        .post("/api/v1/orgs/{org}/projects/shop/envs/prod/manifest/dry-run", s.org),
                403,
                "quota-exceeded");

        s.manifest(graph("a", List.of()));
        s.deploy(); // runs
        s.deploy(); // queued behind it
        problem(s.create(Map.of("mode", "deploy")), 403, "quota-exceeded")
                .body("quota.name", equalTo("queued_deployments_per_environment"))
                .body("quota.used", equalTo(1));
    }

    @Test
    void jobsBeyondTheConcurrentJobQuotaWaitAndTheDeploymentSaysSo() {
        Scenario s = new Scenario(3);
        admin().body(Map.of("concurrent_jobs", 1)).put(QUOTAS, s.org).then().statusCode(200);
        s.manifest(graph("a", List.of(), "b", List.of()));
        String id = s.deploy();
        Map<String, Map<String, Object>> first = s.claimAll();
        assertThat(first).hasSize(1);
        assertThat(s.deployment(id).get("waiting"))
                .asString()
                .contains("waiting for a job slot")
                .contains("1 of 1");
        s.succeed(first.values().iterator().next());
        Map<String, Map<String, Object>> second = s.claimAll();
        assertThat(second).hasSize(1);
        assertThat(second.keySet()).doesNotContainAnyElementsOf(first.keySet());
        s.succeed(second.values().iterator().next());
        assertThat(s.status(id)).isEqualTo("succeeded");
        assertThat(s.deployment(id).get("waiting")).isNull();
    }

    @Test
    void concurrentClaimsOfSeveralRunnersNeverPassTheConcurrentJobQuota() throws Exception {
        Scenario s = new Scenario(3);
        RunnerDriver second = secondRunner(s, 3);
        manifest(s, "a", "b", "c", "d", "e", "f");
        s.deploy();
        assertThat(RunnerDriver.race(8, s.runner, second))
                .as("jobs claimed at once by two runners of 3 slots each, under a quota of 3")
                .isEqualTo(3);
    }

    /**
     * A job that ends while its organization runs as many jobs as its quota allows frees a slot: another runner's
     * claim waiting for one is woken at once, whether the result asked for the reporting runner's next job (and it
     * had none) or not.
     */
    @ParameterizedTest(name = "next={0}")
    @ValueSource(booleans = {false, true})
    void aJobThatEndsUnderAFullConcurrentJobQuotaWakesAnotherRunnersWaitingClaim(boolean next) throws Exception {
        Scenario s = new Scenario(3);
        RunnerDriver second = secondRunner(s, 1);
        manifest(s, "a", "d");
        String id = s.deploy();
        Map<String, Object> first = s.runner.claim();
        assertThat(first).as("the first runner's job").isNotNull();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            // the organization's one slot is taken: the second runner's claim waits, up to the longest wait a claim has
            Future<Map<String, Object>> waiting = pool.submit(() -> second.claim("15s"));
            Thread.sleep(500);
            assertThat(waiting).as("a claim under a full quota waits").isNotDone();
            assertThat(succeeded(s, first, next)).isEqualTo(204);
            // well before its wait ran out, when it would look again anyway
            Map<String, Object> woken = waiting.get(8, TimeUnit.SECONDS);
            assertThat(woken).as("the waiting claim, woken by the freed slot").isNotNull();
            assertThat(RunnerDriver.resourceOf(woken)).isEqualTo("app.d");
            second.succeed(woken, Map.of("name", "out-d"));
            assertThat(s.status(id)).isEqualTo("succeeded");
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * An agent reports a result and asks for its slot's next job. When another claim takes the organization's last
     * slot while this one's commit waits for the organization's lock, the result stays recorded and nothing of the
     * claim is kept (its commit is refused): the job it had taken stays queued, and is claimed later as usual. (A result and its claim in one
     * transaction, undoing the claim alone with a savepoint, was tried against this test on 6 December; it did not
     * make the orchestration faster, see BENCHMARKS.md.)
     */
    @Test
    void aResultWhoseNextClaimFindsTheLastSlotTakenMeanwhileIsKeptAndItsClaimUndone() throws Exception {
        Scenario s = new Scenario(3);
        secondRunner(s, 1);
        manifest(s, "a", "b", "d");
        String deployment = s.deploy();
        Map<String, Object> first = s.runner.claim();
        assertThat(first).as("the organization's one slot").isNotNull();
        String ended = RunnerDriver.resourceOf(first);
        String looked = ended.equals("app.a") ? "app.b" : "app.a";
        ExecutorService pool = Executors.newSingleThreadExecutor();
        CountDownLatch release = new CountDownLatch(1);
        try {
            Future<?> other = anotherClaimHoldingTheLock(pool, deployment, release);
            CompletableFuture<Integer> reported = CompletableFuture.supplyAsync(() -> succeeded(s, first, true));
            // the claim after the result took the runner's other job, and its commit waits for the lock
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (advisoryWaits() == 0) {
                assertThat(System.nanoTime()).as("the claim waits for the lock").isLessThan(deadline);
                Thread.sleep(20);
            }
            assertThat(reported).isNotDone();
            release.countDown();
            other.get(10, TimeUnit.SECONDS);
            assertThat(reported.get(10, TimeUnit.SECONDS))
                    .as("the result is stored, and no job comes with the answer")
                    .isEqualTo(204);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
        assertThat(jobAndNode(deployment, ended)).isEqualTo(List.of("done", "succeeded"));
        assertThat(jobAndNode(deployment, looked))
                .as("the job the undone claim looked at")
                .isEqualTo(List.of("queued", "queued"));
        // once the other slot is free again, that job is claimed as usual
        QuarkusTransaction.requiringNew()
                .run(() -> entityManager
                        .createNativeQuery(
                                "update job set status = 'queued' where deployment_id = ?1 and status = 'running'")
                        .setParameter(1, UUID.fromString(deployment))
                        .executeUpdate());
        Map<String, Object> next = s.runner.claim();
        assertThat(next).isNotNull();
        assertThat(RunnerDriver.resourceOf(next)).isEqualTo(looked);
    }

    /**
     * The limits of running jobs are checked when a claim commits. Two claims of one organization each mark a job
     * running while one place is left (of the organization's quota, or of a runner's slots): the one that commits first
     * keeps its job; the other's commit is refused, and its job stays queued. Neither holds the organization's lock
     * before its commit.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"organization", "runner"})
    void ofTwoClaimsThatMarkedTheirJobsWhileOnePlaceWasLeftOnlyTheFirstToCommitKeepsIt(String limit) throws Exception {
        Scenario s = new Scenario(3);
        secondRunner(s, 5);
        // the claims state their limits: the organization's is 1 and each runner's 3; or the runner's (of a, b, c) 1
        manifest(s, "a", limit.equals("organization") ? "d" : "b");
        String deployment = s.deploy();
        String limits = limit.equals("organization") ? "3,1" : "1,5";
        UUID first = jobOf(deployment, "app.a");
        UUID second = jobOf(deployment, limit.equals("organization") ? "app.d" : "app.b");
        ExecutorService pool = Executors.newSingleThreadExecutor();
        CountDownLatch marked = new CountDownLatch(1);
        CountDownLatch commit = new CountDownLatch(1);
        try {
            Future<?> later =
                    pool.submit(() -> QuarkusTransaction.requiringNew().run(() -> {
                        markRunning(second, limits);
                        marked.countDown();
                        await(commit);
                    }));
            assertThat(marked.await(10, TimeUnit.SECONDS)).isTrue();
            QuarkusTransaction.requiringNew().run(() -> {
                markRunning(first, limits);
                assertThat(((Number) entityManager
                                        .createNativeQuery("select count(*) from pg_locks where locktype = 'advisory'"
                                                + " and pid = pg_backend_pid()")
                                        .getSingleResult())
                                .longValue())
                        .as("a claim that marked its job holds no lock of its organization before it commits")
                        .isZero();
            });
            commit.countDown();
            assertThatThrownBy(() -> later.get(10, TimeUnit.SECONDS))
                    .as("the second commit, past the limit")
                    .satisfies(e -> assertThat(JobLimits.refusedAtCommit(e)).isTrue());
        } finally {
            commit.countDown();
            pool.shutdownNow();
        }
        assertThat(jobAndNode(deployment, "app.a").get(0)).isEqualTo("running");
        assertThat(jobAndNode(deployment, limit.equals("organization") ? "app.d" : "app.b")
                        .get(0))
                .as("the refused claim's job")
                .isEqualTo("queued");
    }

    /**
     * A claim made without a result (a runner's long-poll, woken when a slot was freed) learns of a refusal before its
     * commit: such claims come together and race for the same places, and a refused commit would cost the pool its
     * connection. It waits for the organization's lock in the statement that marks its job, not in its commit, and
     * keeps nothing when another claim took the last place first.
     */
    @Test
    void aClaimWithoutAResultChecksTheLimitsBeforeItsCommitAndARefusalKeepsNothing() throws Exception {
        Scenario s = new Scenario(3);
        secondRunner(s, 1);
        manifest(s, "a", "d");
        String deployment = s.deploy();
        assertThat(claimWhileAnotherHoldsTheLock(s, deployment, () -> waitingToCheck() > 0))
                .as("the refused claim's answer")
                .isNull();
        assertThat(jobAndNode(deployment, "app.a")).isEqualTo(List.of("queued", "queued"));
        assertThat(jobAndNode(deployment, "app.d").get(0)).isEqualTo("running");
    }

    /**
     * A claim made without a result while its runner and its organization have places enough (a runner's slots
     * starting together) is checked at its commit: it does not take the organization's lock in the statement that
     * marks its job and hold it through a round trip, so the claims of the organization do not queue behind it.
     */
    @Test
    void aClaimWithoutAResultThatFindsPlacesEnoughIsCheckedAtItsCommit() throws Exception {
        Scenario s = new Scenario(3);
        secondRunner(s, 20);
        manifest(s, "a", "d");
        String deployment = s.deploy();
        Map<String, Object> claimed = claimWhileAnotherHoldsTheLock(s, deployment, () -> {
            assertThat(waitingToCheck())
                    .as("sessions waiting for the lock in the statement that marks a job")
                    .isZero();
            return waitingToCommit() > 0;
        });
        assertThat(RunnerDriver.resourceOf(claimed))
                .as("the claim, committed once the lock was released")
                .isEqualTo("app.a");
        assertThat(jobAndNode(deployment, "app.a")).isEqualTo(List.of("running", "running"));
    }

    /**
     * A claim of {@code s}'s runner, made without a result while another claim holds the organization's lock
     * ({@link #anotherClaimHoldingTheLock}), which is released once {@code waiting} says the claim waits where it
     * should: the claim's answer.
     */
    private Map<String, Object> claimWhileAnotherHoldsTheLock(Scenario s, String deployment, BooleanSupplier waiting)
            throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        CountDownLatch release = new CountDownLatch(1);
        try {
            Future<?> holder = anotherClaimHoldingTheLock(pool, deployment, release);
            CompletableFuture<Map<String, Object>> claimed = CompletableFuture.supplyAsync(() -> s.runner.claim("0s"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!waiting.getAsBoolean()) {
                assertThat(System.nanoTime())
                        .as("the claim waits for the lock where it should")
                        .isLessThan(deadline);
                Thread.sleep(20);
            }
            release.countDown();
            holder.get(10, TimeUnit.SECONDS);
            return claimed.get(10, TimeUnit.SECONDS);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    /** Sessions that wait for a lock in their commit. */
    private long waitingToCommit() {
        return waitingForALock("upper(query) = 'COMMIT'");
    }

    /** Sessions that wait for a lock in the statement that marks a job running (and not in a commit). */
    private long waitingToCheck() {
        return waitingForALock("query like '%update job set status = ''running''%'");
    }

    /** Sessions that wait for a lock in a statement that {@code statement} (a condition on its text) selects. */
    private long waitingForALock(String statement) {
        return QuarkusTransaction.requiringNew()
                .call(() -> ((Number) entityManager
                                .createNativeQuery(
                                        "select count(*) from pg_stat_activity where wait_event_type = 'Lock'" + " and "
                                                + statement)
                                .getSingleResult())
                        .longValue());
    }

    /**
     * Another claim of the deployment's organization, on {@code pool}: it holds the organization's lock of running
     * jobs, and once {@code release} is counted down takes the organization's one place with the job of {@code app.d}
     * before it lets go. Returns once it holds the lock.
     */
    private Future<?> anotherClaimHoldingTheLock(ExecutorService pool, String deployment, CountDownLatch release)
            throws InterruptedException {
        UUID org = QuarkusTransaction.requiringNew().call(() -> (UUID) entityManager
                .createNativeQuery("select org_id from deployment where id = ?1")
                .setParameter(1, UUID.fromString(deployment))
                .getSingleResult());
        UUID job = jobOf(deployment, "app.d");
        CountDownLatch locked = new CountDownLatch(1);
        Future<?> holder = pool.submit(() -> QuarkusTransaction.requiringNew().run(() -> {
            entityManager
                    .createNativeQuery("select 1 from (select job_limits_lock(?1)) locked")
                    .setParameter(1, org)
                    .getSingleResult();
            locked.countDown();
            await(release);
            markRunning(job, "3,1");
        }));
        assertThat(locked.await(10, TimeUnit.SECONDS))
                .as("the other claim holds the lock")
                .isTrue();
        return holder;
    }

    /** Marks a job running as a claim does, stating the limits it claims within. */
    private void markRunning(UUID job, String limits) {
        entityManager
                .createNativeQuery("select set_config('polystack.claim_limits', ?1, true)")
                .setParameter(1, limits)
                .getSingleResult();
        entityManager
                .createNativeQuery("update job set status = 'running', lease_expires_at = now() + interval '1 hour'"
                        + " where id = ?1 and status = 'queued'")
                .setParameter(1, job)
                .executeUpdate();
    }

    private UUID jobOf(String deployment, String resource) {
        return QuarkusTransaction.requiringNew().call(() -> (UUID) entityManager
                .createNativeQuery("select j.id from job j join deployment_node n on n.id = j.node_id"
                        + " where j.deployment_id = ?1 and n.res_id = ?2")
                .setParameter(1, UUID.fromString(deployment))
                .setParameter(2, resource)
                .getSingleResult());
    }

    private long advisoryWaits() {
        return QuarkusTransaction.requiringNew()
                .call(() -> ((Number) entityManager
                                .createNativeQuery(
                                        "select count(*) from pg_locks where locktype = 'advisory' and not granted")
                                .getSingleResult())
                        .longValue());
    }

    /** The status of the job of resource {@code id} in a deployment, and of its node. */
    private List<String> jobAndNode(String deployment, String id) {
        Object[] row = QuarkusTransaction.requiringNew().call(() -> (Object[]) entityManager
                .createNativeQuery("select j.status, n.status from job j join deployment_node n on n.id = j.node_id"
                        + " where j.deployment_id = ?1 and n.res_id = ?2")
                .setParameter(1, UUID.fromString(deployment))
                .setParameter(2, id)
                .getSingleResult());
        return List.of(String.valueOf(row[0]), String.valueOf(row[1]));
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The first runner reports its job as succeeded, asking for its next job or not; returns the answer's status. */
    private static int succeeded(Scenario s, Map<String, Object> job, boolean next) {
        return s.runner
                .request()
                .queryParam("next", next)
                .body(Map.of(
                        "status", "succeeded", "outputs", Map.of("name", Map.of("value", "out", "sensitive", false))))
                .post("/api/runner/v1/jobs/{id}/result", job.get("job_id"))
                .statusCode();
    }

    /**
     * Sets the environment's manifest: workload {@code app} with resources of type {@code thing} named by one letter;
     * those from {@code d} on are of class {@code other}, which {@link #secondRunner} runs.
     */
    private static void manifest(Scenario s, String... resources) {
        StringBuilder yaml = new StringBuilder("workloads:\n  app:\n    resources:\n");
        for (String resource : resources) {
            yaml.append("      ")
                    .append(resource)
                    .append(": {type: thing")
                    .append(resource.compareTo("d") >= 0 ? ", class: other}\n" : "}\n");
        }
        admin().contentType("application/yaml")
                .body(yaml.toString().getBytes(StandardCharsets.UTF_8))
                .put("/api/v1/orgs/{org}/projects/shop/envs/prod/manifest", s.org)
                .then()
                .statusCode(201);
    }

    /** A second runner of 3 slots for resources of class {@code other}, under a quota of {@code concurrentJobs}. */
    private static RunnerDriver secondRunner(Scenario s, int concurrentJobs) {
        RunnerDriver second = RunnerDriver.register(s.org, "r2", 3);
        admin().body(Map.of("runner_id", "r2", "resource_class", "other"))
                .post("/api/v1/orgs/{org}/runner-rules", s.org)
                .then()
                .statusCode(201);
        admin().body(Map.of("concurrent_jobs", concurrentJobs))
                .put(QUOTAS, s.org)
                .then()
                .statusCode(200);
        return second;
    }

    private static String publicKey() throws Exception {
        return RunnerKeys.toPem(
                KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic());
    }
}
