package dev.polystack.platform.issue;

import dev.polystack.platform.deployment.CheckScheduler;
import dev.polystack.platform.testing.CheckReports;
import dev.polystack.platform.testing.DeploymentTestProfile;
import dev.polystack.platform.testing.LogCapture;
import dev.polystack.platform.testing.PostgresResource;
import dev.polystack.platform.testing.Scenario;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Scenario.graph;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/** Checks on a schedule: per environment type, overridden per environment, inside a window, once across replicas. */
@QuarkusTest
@TestProfile(DeploymentTestProfile.class)
@QuarkusTestResource(PostgresResource.class)
class CheckSchedulingTest {

    private static final String ENV = "/api/v1/orgs/{org}/projects/shop/envs/prod";

    @Inject
    CheckScheduler scheduler;

    @Inject
    AgroalDataSource dataSource;

    private static Scenario deployed() {
        Scenario s = new Scenario(4);
        s.manifest(graph("a", List.of()));
        String deployment = s.deploy();
        s.claimAll().values().forEach(s::succeed);
        assertThat(s.status(deployment)).isEqualTo("succeeded");
        return s;
    }

    private static void scheduleType(Scenario s, Map<String, Object> checks) {
        admin().body(Map.of("checks", checks))
                .put("/api/v1/orgs/{org}/env-types/production", s.org)
                .then()
                .statusCode(200)
                .body("checks.interval_minutes", equalTo(checks.get("interval_minutes")));
    }

    private static List<Map<String, Object>> checks(Scenario s) {
        return checks(s, "prod");
    }

    /** The checks of {@code env}, a project {@code shop}'s environment of the scenario's organization. */
    private static List<Map<String, Object>> checks(Scenario s, String env) {
        return admin()
                .get("/api/v1/orgs/{org}/projects/shop/envs/{env}/deployments", s.org, env)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .<Map<String, Object>>getList("items")
                .stream()
                .filter(d -> "check".equals(d.get("mode")))
                .toList();
    }

    /** How many checks the scheduler started in this scenario's organization (other tests' are not ours to count). */
    private long startedIn(Scenario s, Instant at) {
        int before = checks(s).size();
        scheduler.startDue(at);
        return checks(s).size() - before;
    }

    @Test
    void anEnvironmentIsCheckedWhenItsTypesIntervalHasPassedSinceItsLastDeploymentOrCheck() {
        Scenario s = deployed();
        Instant now = Instant.now();
        assertThat(startedIn(s, now.plus(Duration.ofHours(1))))
                .as("no schedule, no check")
                .isZero();

        scheduleType(s, Map.of("interval_minutes", 30));
        assertThat(startedIn(s, now.plus(Duration.ofMinutes(20))))
                .as("deployed 20 minutes before")
                .isZero();
        assertThat(startedIn(s, now.plus(Duration.ofMinutes(31)))).isEqualTo(1);
        Map<String, Object> check = checks(s).get(0);
        assertThat(check.get("created_by")).isEqualTo("scheduled check");
        assertThat(startedIn(s, now.plus(Duration.ofMinutes(31))))
                .as("one runs already")
                .isZero();

        s.claimAll().values().forEach(job -> noDrift(s, job));
        assertThat(startedIn(s, now.plus(Duration.ofMinutes(20))))
                .as("checked just now")
                .isZero();
        assertThat(startedIn(s, now.plus(Duration.ofMinutes(61)))).isEqualTo(1);
    }

    @Test
    void environmentsWhoseCheckCannotStartDoNotKeepTheOthersFromBeingChecked() throws SQLException {
        Instant later = Instant.now().plus(Duration.ofHours(1));
        hundredAndTenCopiesGoFirstYetAnotherOrganizationIsChecked(later, null);
    }

    @Test
    void environmentsOutsideTheirWindowDoNotKeepTheOthersFromBeingChecked() throws SQLException {
        Instant later = Instant.now().plus(Duration.ofHours(1));
        int hour = later.atZone(ZoneOffset.UTC).getHour();
        // a window of one hour, two hours after the looks
        String window = "%02d:00-%02d:00".formatted((hour + 2) % 24, (hour + 3) % 24);
        hundredAndTenCopiesGoFirstYetAnotherOrganizationIsChecked(
                later, "{\"interval_minutes\": 30, \"window\": \"" + window + "\"}");
    }

    /**
     * 110 environments copied by SQL from one organization's, with ids before every other environment's, given
     * {@code ownChecks} (else their type's schedule), come first; another organization's due environment is checked
     * at the second look all the same.
     */
    private void hundredAndTenCopiesGoFirstYetAnotherOrganizationIsChecked(Instant later, String ownChecks)
            throws SQLException {
        Scenario broken = deployed();
        Scenario other = deployed();
        scheduleType(broken, Map.of("interval_minutes", 30));
        scheduleType(other, Map.of("interval_minutes", 30));
        // more than the scheduler looks at in one go (100)
        copyProd(broken, 110, ownChecks);
        try {
            assertThat(scheduler.startDue(later))
                    .as("the first 100 due are the copies; none starts")
                    .isZero();
            assertThat(startedIn(other, later))
                    .as("at the next look, environments not tried yet go first")
                    .isEqualTo(1);
        } finally {
            removeCopies();
        }
    }

    /**
     * A scheduled check that cannot start is shown to instance administrators in the engine's diagnostics, with a
     * reason that names a log reference and nothing of the error itself, until a scheduled check of the environment
     * starts; before, it was only a WARN line at every look.
     */
    @Test
    void aScheduledCheckThatCannotStartIsShownInTheEnginesDiagnosticsUntilOneStarts() throws Exception {
        Scenario broken = deployed();
        scheduleType(broken, Map.of("interval_minutes", 30));
        copyProd(broken, 1, null);
        Instant later = Instant.now().plus(Duration.ofHours(1));
        try {
            assertThat(startedIn(broken, later))
                    .as("prod's check starts, the copy's cannot")
                    .isEqualTo(1);
            assertThat(checksNotStarted(broken)).singleElement().satisfies(entry -> {
                assertThat(entry.get("project")).isEqualTo("shop");
                assertThat(entry.get("env")).isEqualTo("copy-1");
                assertThat(entry.get("reason").toString())
                        .matches("could not start: an unexpected error \\(log reference [0-9a-f-]{36}\\)");
                assertThat(entry.get("at")).isNotNull();
            });
            // at the next looks it fails again: one line each, naming the reference of the first failure's stack
            // trace, which the diagnostics keep showing (an error with a stack trace at every look filled the log)
            Object first = checksNotStarted(broken).get(0).get("reason");
            String reference = first.toString().replaceAll(".*log reference ([0-9a-f-]{36}).*", "$1");
            List<LogRecord> logged =
                    LogCapture.during(record -> CheckScheduler.class.getName().equals(record.getLoggerName()), () -> {
                        scheduler.startDue(later.plus(Duration.ofMinutes(1)));
                        scheduler.startDue(later.plus(Duration.ofMinutes(2)));
                    });
            assertThat(logged).hasSize(2).allSatisfy(record -> {
                assertThat(record.getLevel()).isEqualTo(Level.WARNING);
                assertThat(record.getThrown()).isNull();
                assertThat(((ExtLogRecord) record).getFormattedMessage()).contains(reference);
            });
            assertThat(checksNotStarted(broken)).singleElement().satisfies(entry -> {
                assertThat(entry.get("reason")).isEqualTo(first);
                assertThat(Instant.parse(entry.get("at").toString())).isAfter(later.plus(Duration.ofMinutes(1)));
            });

            // with its checks turned off nothing tries again: the entry would say so for ever
            scheduleType(broken, Map.of("interval_minutes", 0));
            assertThat(checksNotStarted(broken))
                    .as("an environment whose checks are off")
                    .isEmpty();
            scheduleType(broken, Map.of("interval_minutes", 30));
        } finally {
            removeCopies();
        }

        // as if an earlier look had failed for prod: its next scheduled check that starts clears it
        broken.claimAll().values().forEach(job -> noDrift(broken, job));
        try (Connection connection = dataSource.getConnection();
                PreparedStatement failed = connection.prepareStatement("""
                        update environment set check_failed_reason = 'could not start: at an earlier look',
                            check_failed_at = now()
                        where slug = 'prod' and org_id = (select id from organization where slug = ?)""")) {
            failed.setString(1, broken.org);
            assertThat(failed.executeUpdate()).isEqualTo(1);
        }
        assertThat(checksNotStarted(broken))
                .extracting(entry -> entry.get("env"))
                .containsExactly("prod");
        assertThat(startedIn(broken, later.plus(Duration.ofHours(1)))).isEqualTo(1);
        assertThat(checksNotStarted(broken)).isEmpty();
    }

    /** The scheduled checks of the scenario's organization that could not start, as the engine's diagnostics list them. */
    private static List<Map<String, Object>> checksNotStarted(Scenario s) {
        return admin()
                .get("/api/v1/admin/engine")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .<Map<String, Object>>getList("checks_not_started")
                .stream()
                .filter(entry -> s.org.equals(entry.get("org")))
                .toList();
    }

    /**
     * {@code count} copies of the prod environment of {@code broken}'s organization, made by SQL with ids before
     * every other environment's, given {@code ownChecks} (else their type's schedule). Inside their window their
     * checks cannot start: a resource's sealed values are bound to the environment they were sealed for.
     */
    private void copyProd(Scenario broken, int count, String ownChecks) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            String prod = "select e.id from environment e join organization o on o.id = e.org_id"
                    + " where o.slug = ? and e.slug = 'prod'";
            try (PreparedStatement copy = connection.prepareStatement("""
                    insert into environment (id, org_id, project_id, slug, env_type_id, status, created_at, updated_at,
                                             version, managed_by, is_protected, checks)
                    select ('00000000-0000-0000-0000-' || lpad(g::text, 12, '0'))::uuid, org_id, project_id,
                           'copy-' || g, env_type_id, status, created_at, updated_at, version, managed_by, is_protected,
                           coalesce(cast(? as jsonb), checks)
                    from environment, generate_series(1, ?) g where id = (%s)""".formatted(prod))) {
                copy.setString(1, ownChecks);
                copy.setInt(2, count);
                copy.setString(3, broken.org);
                assertThat(copy.executeUpdate()).isEqualTo(count);
            }
            try (PreparedStatement copy = connection.prepareStatement("""
                    insert into active_resource (id, environment_id, res_type, res_class, res_id, module_id, module_slug,
                                                 module_version, runner_id, spec, inputs_digest, resolved, outputs,
                                                 sensitive_outputs, tofu_resources, dependencies, last_deployment_id,
                                                 created_at, updated_at, digest_parts)
                    select gen_random_uuid(), ('00000000-0000-0000-0000-' || lpad(g::text, 12, '0'))::uuid, res_type,
                           res_class, res_id, module_id, module_slug, module_version, runner_id, spec, inputs_digest,
                           resolved, outputs, sensitive_outputs, tofu_resources, dependencies, last_deployment_id,
                           created_at, updated_at, digest_parts
                    from active_resource, generate_series(1, ?) g where environment_id = (%s)""".formatted(prod))) {
                copy.setInt(1, count);
                copy.setString(2, broken.org);
                assertThat(copy.executeUpdate()).isEqualTo(count);
            }
        }
    }

    /** The copies would be tried at every later look of this database's schedulers. */
    private void removeCopies() throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            String copies = "in (select id from environment where slug like 'copy-%'"
                    + " and id < '00000000-0000-0000-0000-000000001000')";
            statement.executeUpdate("delete from active_resource where environment_id " + copies);
            statement.executeUpdate("delete from environment where id " + copies);
        }
    }

    /** Prod and four more environments of its project, one more than an organization's default limit of checks. */
    private static final List<String> FIVE_ENVIRONMENTS = List.of("prod", "busy-1", "busy-2", "busy-3", "busy-4");

    @Test
    void checksAskedForByPeopleAreNotCountedAgainstTheOrganizationsLimitOfScheduledChecks() {
        Scenario s = deployed();
        scheduleType(s, Map.of("interval_minutes", 30));
        List<String> envs = FIVE_ENVIRONMENTS;
        for (String env : envs.subList(1, envs.size())) {
            admin().body(Map.of("id", env, "env_type_id", "production"))
                    .post("/api/v1/orgs/{org}/projects/shop/envs", s.org)
                    .then()
                    .statusCode(201);
            admin().contentType("application/yaml")
                    .body("workloads:\n  app:\n    resources:\n      a:\n        type: thing\n"
                            .getBytes(StandardCharsets.UTF_8))
                    .put("/api/v1/orgs/{org}/projects/shop/envs/{env}/manifest", s.org, env)
                    .then()
                    .statusCode(201);
            admin().body(Map.of("mode", "deploy"))
                    .post("/api/v1/orgs/{org}/projects/shop/envs/{env}/deployments", s.org, env)
                    .then()
                    .statusCode(201);
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            answerEveryJob(s, s::succeed);
            for (String env : envs) {
                assertThat(admin().get("/api/v1/orgs/{org}/projects/shop/envs/{env}/deployments", s.org, env)
                                .then()
                                .statusCode(200)
                                .extract()
                                .jsonPath()
                                .<String>getList("items.status"))
                        .as(env)
                        .containsOnly("succeeded");
            }
        });
        // as many checks asked for by a person as the organization may run scheduled ones (the default, 4), waiting
        // for the runner
        for (String env : envs.subList(1, envs.size())) {
            admin().body(Map.of())
                    .post("/api/v1/orgs/{org}/projects/shop/envs/{env}/checks", s.org, env)
                    .then()
                    .statusCode(201);
        }
        Instant later = Instant.now().plus(Duration.ofHours(1));
        assertThat(startedIn(s, later))
                .as("README: checks asked for with POST …/checks are not counted against the limit")
                .isEqualTo(1);

        finishChecks(s);
        Instant evenLater = later.plus(Duration.ofHours(1));
        scheduler.startDue(evenLater);
        assertThat(envs.stream()
                        .flatMap(env -> checksRunningIn(s, env).stream())
                        .filter(check -> "scheduled check".equals(check.get("created_by")))
                        .count())
                .as("five environments due, at most four scheduled checks of one organization at once")
                .isEqualTo(4);
        finishChecks(s);
    }

    /**
     * Answers every job the runner can claim now, one by one: the environments' resources have the same ids, so
     * {@link Scenario#claimAll} (by resource id) would leave some unanswered.
     */
    private static void answerEveryJob(Scenario s, Consumer<Map<String, Object>> answer) {
        Map<String, Object> job;
        while ((job = s.runner.claim("0s")) != null) {
            answer.accept(job);
        }
    }

    /** Reports a check job as having found no drift. */
    private static void noDrift(Scenario s, Map<String, Object> job) {
        s.runner
                .result(job.get("job_id"), Map.of("status", "succeeded", "check", CheckReports.CLEAN))
                .then()
                .statusCode(204);
    }

    /** Answers every check job until none is left, as having found no drift. */
    private static void finishChecks(Scenario s) {
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            answerEveryJob(s, job -> noDrift(s, job));
            return FIVE_ENVIRONMENTS.stream()
                    .allMatch(env -> checksRunningIn(s, env).isEmpty());
        });
    }

    /** The checks of {@code env} queued or running. */
    private static List<Map<String, Object>> checksRunningIn(Scenario s, String env) {
        return checks(s, env).stream()
                .filter(d -> List.of("queued", "running").contains(d.get("status")))
                .toList();
    }

    @Test
    void anEnvironmentsOwnScheduleOverridesItsTypesAndAWindowHoldsChecksBack() {
        Scenario s = deployed();
        Instant later = Instant.now().plus(Duration.ofHours(2));
        scheduleType(s, Map.of("interval_minutes", 10));
        admin().body(Map.of("env_type_id", "production", "checks", Map.of("interval_minutes", 0)))
                .put(ENV, s.org)
                .then()
                .statusCode(200)
                .body("checks.interval_minutes", equalTo(0));
        assertThat(startedIn(s, later)).as("switched off for this environment").isZero();

        LocalTime at = LocalTime.ofInstant(later, ZoneOffset.UTC);
        String elsewhere = "%02d:00-%02d:00".formatted((at.getHour() + 2) % 24, (at.getHour() + 3) % 24);
        admin().body(Map.of("env_type_id", "production", "checks", Map.of("interval_minutes", 10, "window", elsewhere)))
                .put(ENV, s.org)
                .then()
                .statusCode(200);
        assertThat(startedIn(s, later)).as("outside the window " + elsewhere).isZero();

        admin().body(Map.of("env_type_id", "production", "checks", Map.of()))
                .put(ENV, s.org)
                .then()
                .statusCode(200)
                .body("checks", org.hamcrest.Matchers.nullValue());
        assertThat(startedIn(s, later)).as("back to the type's schedule").isEqualTo(1);
    }

    @Test
    void twoSchedulersAtOnceStartOneCheck() throws Exception {
        Scenario s = deployed();
        scheduleType(s, Map.of("interval_minutes", 10));
        Instant later = Instant.now().plus(Duration.ofMinutes(11));
        int before = checks(s).size();
        CountDownLatch start = new CountDownLatch(1);
        Callable<Integer> replica = () -> {
            start.await();
            return scheduler.startDue(later);
        };
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Integer> one = pool.submit(replica);
            Future<Integer> two = pool.submit(replica);
            start.countDown();
            one.get();
            two.get();
        } finally {
            pool.shutdownNow();
        }
        assertThat(checks(s).size() - before).isEqualTo(1);
    }

    @Test
    void aScheduleIsValidated() {
        Scenario s = new Scenario(1);
        admin().body(Map.of("checks", Map.of("interval_minutes", 5)))
                .put("/api/v1/orgs/{org}/env-types/production", s.org)
                .then()
                .statusCode(400)
                .body("errors[0].pointer", equalTo("/checks/interval_minutes"));
        admin().body(Map.of("checks", Map.of("interval_minutes", 60, "window", "25:00-26:00")))
                .put("/api/v1/orgs/{org}/env-types/production", s.org)
                .then()
                .statusCode(400);
        admin().body(Map.of(
                        "id",
                        "nightly",
                        "checks",
                        Map.of("interval_minutes", 60, "window", "22:00-06:00", "refresh_only", true)))
                .post("/api/v1/orgs/{org}/env-types", s.org)
                .then()
                .statusCode(201)
                .body("checks.window", equalTo("22:00-06:00"))
                .body("checks.refresh_only", equalTo(true));
        // an update without checks leaves them as they are
        admin().body(Map.of("description", "nightly checks"))
                .put("/api/v1/orgs/{org}/env-types/nightly", s.org)
                .then()
                .statusCode(200)
                .body("checks.interval_minutes", equalTo(60));
    }
}
