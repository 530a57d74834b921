package dev.polystack.platform.runner;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.platform.common.Management;
import dev.polystack.platform.common.ReferenceGuard;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.sql.Autocommit;
import dev.polystack.platform.common.sql.InTransaction;
import dev.polystack.platform.common.sql.Statement;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.common.web.Versions;
import dev.polystack.platform.quota.Quota;
import dev.polystack.platform.quota.QuotaService;
import dev.polystack.platform.security.OrgScope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

@ApplicationScoped
public class RunnerService {

    /**
     * How often a live runner calls: a running job's heartbeat, or an idle runner's claim, which waits at
     * most this long (see the runner protocol). Two intervals without a call and it is shown offline.
     */
    @ConfigProperty(name = "polystack.jobs.heartbeat-interval", defaultValue = "15s")
    Duration heartbeatInterval;

    @Inject
    RunnerRepository runners;

    @Inject
    ReferenceGuard references;

    @Inject
    RunnerWorkload busy;

    @Inject
    ObjectMapper json;

    @Inject
    Clock clock;

    @Inject
    QuotaService quotas;

    @Inject
    Autocommit autocommit;

    @Transactional
    public RunnerView create(OrgScope scope, RunnerRequest request) {
        if (request.id() == null) {
            throw PlatformException.invalid("/id", "must not be null");
        }
        String pem = canonicalKey(request.publicKey());
        if (runners.find(scope.orgId(), request.id()).isPresent()) {
            throw PlatformException.conflict("runner `" + request.id() + "` already exists");
        }
        quotas.requireRoom(
                scope.orgId(),
                Quota.RUNNERS,
                "in organization `" + scope.orgSlug() + "`",
                () -> quotas.used(scope.orgId(), Quota.RUNNERS));
        Runner runner = new Runner(scope.orgId(), request.id(), clock.instant());
        define(runner, request, pem);
        runner.manage(Management.of(request.managedBy(), request.protect()));
        runners.persist(runner);
        return view(runner);
    }

    @Transactional
    public Page<RunnerView> list(OrgScope scope, PageRequest page) {
        int limit = page.limit();
        return Page.of(runners.page(scope.orgId(), page.after(), limit), limit, Runner::slug, this::view);
    }

    @Transactional
    public RunnerView get(OrgScope scope, String id) {
        return view(require(scope, id));
    }

    @Transactional
    public RunnerView update(OrgScope scope, String id, RunnerRequest request, Long expectedVersion) {
        Runner runner = require(scope, id);
        if (request.id() != null && !request.id().equals(id)) {
            throw PlatformException.invalid("/id", "cannot change; register a new runner instead");
        }
        Versions.check(expectedVersion, runner.version());
        runner.manage(runner.management().with(request.managedBy(), request.protect()));
        define(runner, request, canonicalKey(request.publicKey()));
        runners.flush();
        return view(runner);
    }

    @Transactional
    public void delete(OrgScope scope, String id) {
        Runner runner = require(scope, id);
        runner.management().requireDeletable("runner `" + id + "`");
        references.requireUnused("runner", runner.id(), "runner `" + id + "`");
        runners.delete(runner);
    }

    /**
     * Records that a runner was seen, at most every few seconds. A plain update of that one column: contact
     * is not an edit of the runner (its version stays), so it never conflicts with one.
     */
    public void touch(UUID runnerId) {
        touch(runnerId, false);
    }

    /**
     * The same, for a transaction that writes nothing else (a look that found no job): its commit does not wait for
     * the write to reach the disk. A contact lost in a crash of the database is written again at the runner's next
     * call, seconds later; meanwhile the looks of thousands of idle runners do not each wait for a flush of the
     * write-ahead log. The setting is local to the transaction, and taken in the same statement.
     */
    public void touchIdle(UUID runnerId) {
        touch(runnerId, true);
    }

    private void touch(UUID runnerId, boolean lazily) {
        // the idle form's head takes the durable form's parameters
        Statement contact = contact(runnerId);
        InTransaction.execute(
                runners.getEntityManager(), lazily ? IDLE_CONTACT + "select 1" : contact.sql(), contact.parameters());
    }

    /**
     * The durable contact write of {@link #touch}, as a statement for a caller to run with another one of its own (a
     * claim marks its job in the same round trip). It never waits for the runner's row: when another transaction holds
     * it (a claim that writes the contact and waits for its result, or an edit of the runner), the contact is being
     * written, or is due again at the runner's next call.
     */
    public Statement contact(UUID runnerId) {
        Instant now = clock.instant();
        return new Statement(
                "update runner set last_seen_at = ? where id = (select id from runner where id = ?"
                        + " and (last_seen_at is null or last_seen_at < ?) for no key update skip locked)",
                now,
                runnerId,
                now.minus(seenResolution()));
    }

    /**
     * An idle look's contact write as the head of a statement (its parameters: now, the runner, the time before which
     * the contact is due): the transaction's commit does not wait for the disk, a setting local to that transaction
     * and taken in the same statement. A data-modifying {@code WITH} runs once and to its end whether or not the
     * statement's own query reads it.
     */
    private static final String IDLE_CONTACT = "with lazily as (select set_config('synchronous_commit', 'off', true)),"
            + " touched as (update runner set last_seen_at = ? from lazily"
            + " where id = (select id from runner where id = ? and (last_seen_at is null or last_seen_at < ?)"
            + " for no key update skip locked) returning runner.id) ";

    /**
     * An idle runner's contact, written as {@link #touchIdle} writes it, and the caller's read, in one statement on
     * an autocommit connection, outside any transaction: the look that thousands of idle runners make every few
     * seconds costs one round trip. The read sees what was committed before the statement began.
     */
    public <T> T touchIdleAnd(UUID runnerId, String read, Autocommit.Row<T> row, Object... readParameters) {
        // the idle head takes the durable contact's parameters, then the read's
        return autocommit
                .first(
                        IDLE_CONTACT + read,
                        row,
                        InTransaction.joined(contact(runnerId).parameters(), readParameters))
                .orElseThrow(() -> new IllegalStateException("no row from: " + read));
    }

    /** Contact is written at most this often: a quarter of the heartbeat interval, and never more than 5 s. */
    private Duration seenResolution() {
        Duration quarter = heartbeatInterval.dividedBy(4);
        return quarter.compareTo(Duration.ofSeconds(5)) < 0 ? quarter : Duration.ofSeconds(5);
    }

    public Optional<UUID> findId(UUID orgId, String slug) {
        return runners.find(orgId, slug).map(Runner::id);
    }

    public String slugOf(UUID runnerId) {
        return runners.findById(runnerId).slug();
    }

    private void define(Runner runner, RunnerRequest request, String pem) {
        Map<String, String> labels = request.labels() == null ? Map.of() : new TreeMap<>(request.labels());
        runner.define(
                request.description(),
                pem,
                json.valueToTree(labels),
                request.maxConcurrentJobs() == null ? 1 : request.maxConcurrentJobs(),
                clock.instant());
    }

    private static String canonicalKey(String pem) {
        try {
            return RunnerKeys.toPem(RunnerKeys.parse(pem));
        } catch (IllegalArgumentException e) {
            throw PlatformException.invalid("/public_key", e.getMessage());
        }
    }

    private RunnerView view(Runner runner) {
        Instant now = clock.instant();
        List<RunnerWorkload.CurrentJob> current = busy.current(runner.id());
        String status = status(runner, current.isEmpty(), now);
        Map<String, String> labels =
                json.convertValue(runner.labels(), new TypeReference<TreeMap<String, String>>() {});
        return new RunnerView(
                runner.slug(),
                runner.description(),
                runner.publicKey(),
                labels,
                runner.maxConcurrentJobs(),
                runner.lastSeenAt(),
                status,
                current,
                runner.management().managedBy(),
                runner.management().isProtected(),
                runner.createdAt(),
                runner.updatedAt(),
                runner.version());
    }

    /** offline (not heard from for two heartbeat intervals), idle or busy. */
    private String status(Runner runner, boolean idle, Instant now) {
        return runner.lastSeenAt() == null || runner.lastSeenAt().isBefore(now.minus(heartbeatInterval.multipliedBy(2)))
                ? "offline"
                : idle ? "idle" : "busy";
    }

    /** A runner's status, for diagnostics. */
    public String statusOf(UUID runnerId) {
        Runner runner = runners.findById(runnerId);
        return runner == null
                ? "deleted"
                : status(runner, busy.current(runnerId).isEmpty(), clock.instant());
    }

    private Runner require(OrgScope scope, String id) {
        return runners.find(scope.orgId(), id).orElseThrow(() -> PlatformException.notFound("runner `" + id + "`"));
    }
}
