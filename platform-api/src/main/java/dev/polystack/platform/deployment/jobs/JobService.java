package dev.polystack.platform.deployment.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.platform.common.sql.InTransaction;
import dev.polystack.platform.common.sql.Statement;
import dev.polystack.platform.deployment.logs.LogBatch;
import dev.polystack.platform.deployment.logs.LogService;
import dev.polystack.platform.deployment.logs.Masker;
import dev.polystack.platform.deployment.model.Deployment;
import dev.polystack.platform.deployment.model.DeploymentNode;
import dev.polystack.platform.deployment.model.DeploymentRepository;
import dev.polystack.platform.deployment.model.Job;
import dev.polystack.platform.deployment.model.JobOutcome;
import dev.polystack.platform.deployment.model.JobRepository;
import dev.polystack.platform.deployment.model.JobStatus;
import dev.polystack.platform.deployment.model.NodeOperation;
import dev.polystack.platform.deployment.model.NodeRepository;
import dev.polystack.platform.deployment.model.NodeResolver;
import dev.polystack.platform.deployment.model.NodeSpecs;
import dev.polystack.platform.deployment.model.NodeStatus;
import dev.polystack.platform.deployment.model.ResolvedNode;
import dev.polystack.platform.deployment.scheduling.Checks;
import dev.polystack.platform.deployment.scheduling.DeploymentEngine;
import dev.polystack.platform.deployment.scheduling.EngineSettings;
import dev.polystack.platform.environment.EnvironmentService.EnvironmentRef;
import dev.polystack.platform.module.ModuleService;
import dev.polystack.platform.provider.ProviderService;
import dev.polystack.platform.quota.Quota;
import dev.polystack.platform.quota.QuotaService;
import dev.polystack.platform.resource.ActiveResourceService;
import dev.polystack.platform.resourcetype.ResourceTypeService;
import dev.polystack.platform.runner.RunnerCaller;
import dev.polystack.platform.runner.RunnerService;
import dev.polystack.platform.state.StateAccess;
import dev.polystack.platform.state.StateCredentials;
import dev.polystack.rules.OutputSchema;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.RulesException;
import dev.polystack.rules.graph.Outputs;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import org.jboss.logging.Logger;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The runner protocol's side in the database: claims, heartbeats, logs, results. */
@ApplicationScoped
public class JobService implements StateCredentials {

    private static final Logger LOG = Logger.getLogger(JobService.class);

    private static final SecureRandom RANDOM = new SecureRandom();

    private final JobRepository jobs;
    private final NodeRepository nodes;
    private final DeploymentRepository deployments;
    private final DeploymentEngine engine;
    private final Checks checks;
    private final NodeResolver resolver;
    private final RunnerService runners;
    private final ProviderService providers;
    private final ResourceTypeService resourceTypes;
    private final EngineSettings settings;
    private final LogService logs;
    private final ActiveResourceService activeResources;
    private final QuotaService quotas;
    private final ObjectMapper json;
    private final Clock clock;
    private final MeterRegistry meters;

    @Inject
    JobService(
            JobRepository jobs,
            NodeRepository nodes,
            DeploymentRepository deployments,
            DeploymentEngine engine,
            Checks checks,
            NodeResolver resolver,
            RunnerService runners,
            ProviderService providers,
            ResourceTypeService resourceTypes,
            EngineSettings settings,
            LogService logs,
            ActiveResourceService activeResources,
            QuotaService quotas,
            ObjectMapper json,
            Clock clock,
            MeterRegistry meters) {
        this.jobs = jobs;
        this.nodes = nodes;
        this.deployments = deployments;
        this.engine = engine;
        this.checks = checks;
        this.resolver = resolver;
        this.runners = runners;
        this.providers = providers;
        this.resourceTypes = resourceTypes;
        this.settings = settings;
        this.logs = logs;
        this.activeResources = activeResources;
        this.quotas = quotas;
        this.json = json;
        this.clock = clock;
        this.meters = meters;
    }

    private Timer pickupLatency;

    @PostConstruct
    void registerMetrics() {
        pickupLatency = Timer.builder("polystack.jobs.pickup.latency")
                .description("From a job being queued to a runner claiming it")
                .publishPercentileHistogram()
                .register(meters);
    }

    /**
     * What a claim gave: a job or none, the nodes it failed on the way, whose deployments must advance, and when its
     * job was queued (null without one).
     */
    public record Claim(Optional<ClaimedJob> job, List<DeploymentEngine.Ended> failed, Instant queuedAt) {
        /** A claim that took no job. */
        Claim(Optional<ClaimedJob> job, List<DeploymentEngine.Ended> failed) {
            this(job, failed, null);
        }
    }

    /**
     * Whether any job is queued for the runner, its contact written in the same statement (as an idle look writes
     * it), outside any transaction. A waiting claim looks with this first: nearly every look of an idle runner
     * finds nothing, and then costs one round trip instead of a transaction, a persistence session and a locking
     * read. A job queued after this read wakes the claim, which registered its waiter before looking.
     */
    public boolean anyQueued(RunnerCaller runner) {
        return runners.touchIdleAnd(
                runner.runnerId(),
                "select exists (select 1 from job where runner_id = ? and status = 'queued')",
                row -> row.getBoolean(1),
                runner.runnerId());
    }

    /**
     * Claims the runner's oldest queued job, unless it already runs as many as it may. The job's row is
     * taken first (claims skip each other's jobs), its node resolved when that was left to the claim, its payload
     * read, and the job marked running. The limits of running jobs (the runner's and its organization's) are checked
     * exactly when the claim commits, by the database ({@link JobLimits}): claims of one organization wait for each
     * other's commits only. A claim whose commit a limit refuses keeps nothing. A node whose inputs cannot be
     * resolved fails here, and the next job is tried.
     */
    public Claim tryClaim(RunnerCaller runner, URI baseUri) {
        return committed(runner, baseUri, null);
    }

    /**
     * A claim made beside the result of one of the runner's jobs, while that result is being recorded in another
     * transaction: it finds, prepares and marks the next job as {@link #tryClaim} does, then waits for {@code
     * resultStored} before it commits. So the counts made at its commit see the reported job ended, and the limits
     * hold as exactly as when the claim came after the result. When the result was not stored (refused, or failed),
     * or not within {@link #RESULT_WAIT}, the claim keeps nothing. Its first look counts the reported job as ended
     * already.
     */
    public Claim tryClaimBeside(RunnerCaller runner, URI baseUri, Future<Boolean> resultStored) {
        return committed(runner, baseUri, resultStored);
    }

    /**
     * A claim in a transaction of its own, once committed. A claim undone (its result refused, or a limit reached at
     * its check) or refused at its commit by the limits is a claim of nothing.
     */
    private Claim committed(RunnerCaller runner, URI baseUri, Future<Boolean> resultStored) {
        Claim claim;
        try {
            claim = QuarkusTransaction.requiringNew().call(() -> claim(runner, baseUri, resultStored));
        } catch (ClaimUndone e) {
            return new Claim(Optional.empty(), List.of());
        } catch (RuntimeException e) {
            if (!JobLimits.refusedAtCommit(e)) {
                throw e;
            }
            // another claim took the last place between this one's look and its commit: the job waits for a slot
            LOG.debugf("A claim of runner %s took no job: a limit of running jobs was reached at its commit", runner);
            return new Claim(Optional.empty(), List.of());
        }
        claim.job().ifPresent(job -> pickupLatency.record(Duration.between(claim.queuedAt(), clock.instant())));
        return claim;
    }

    /** How long a claim made beside a result waits for the result's transaction before it gives up. */
    static final Duration RESULT_WAIT = Duration.ofSeconds(10);

    private Claim claim(RunnerCaller runner, URI baseUri, Future<Boolean> resultStored) {
        List<DeploymentEngine.Ended> failed = new ArrayList<>();
        // one transaction: a claim whose payload could not be read (the database went away between the
        // two) would leave the job claimed by nobody until its lease ran out, and fail its node
        while (true) {
            // a runner (or organization) that already runs as many jobs as it may finds nothing: its job's inputs are
            // not resolved for nothing
            // beside a result, the reported job may still run in this statement's snapshot: one more is allowed
            // here, and the step that marks the job counts exactly, once the result is stored
            int ending = resultStored == null ? 0 : 1;
            Optional<JobRepository.QueuedJob> next = jobs.nextQueued(
                    runner.runnerId(),
                    above(runner.maxConcurrentJobs(), ending),
                    runner.orgId(),
                    above(quotas.limit(runner.orgId(), Quota.CONCURRENT_JOBS), ending));
            if (next.isEmpty()) {
                if (!failed.isEmpty() && resultStored != null && !stored(resultStored)) {
                    // the nodes it failed on the way are kept only with the result that asked for this claim
                    throw new ClaimUndone();
                }
                if (failed.isEmpty()) {
                    runners.touchIdle(runner.runnerId());
                } else {
                    // the nodes that failed on the way are written durably
                    runners.touch(runner.runnerId());
                }
                return new Claim(Optional.empty(), failed);
            }
            JobRepository.QueuedJob job = next.get();
            // the node locked and its environment read in one statement
            NodeRepository.ForClaim taken = nodes.lockForClaim(job.nodeId());
            DeploymentNode node = taken.node();
            EnvironmentRef environment = taken.environment();
            String org = environment.org();
            Instant now = clock.instant();
            ResolvedNode resolved;
            // what resolving the node and writing its payload both read (its module version, resource type and
            // providers' secrets), read once
            NodeResolver.Lookups lookups = resolver.lookups(job.orgId());
            if (node.unresolved()) {
                try {
                    NodeResolver.Resolved resolution = resolver.forApply(node, environment, lookups);
                    node.resolvedForRun(resolution);
                    resolved = resolution.node();
                } catch (RulesException e) {
                    failed.add(unresolvable(job, node, NodeResolver.unresolved(e), now));
                    nextAfterUnresolvable();
                    continue;
                } catch (RuntimeException e) {
                    // not the caller's doing, and not a reason to refuse every later claim: the node fails
                    String reference = UUID.randomUUID().toString();
                    LOG.errorf(
                            e,
                            "Could not resolve %s when its job was claimed (reference %s)",
                            node.identity(),
                            reference);
                    failed.add(unresolvable(
                            job,
                            node,
                            "its inputs could not be resolved: an unexpected error (log reference " + reference + ")",
                            now));
                    nextAfterUnresolvable();
                    continue;
                }
            } else {
                resolved = resolver.read(resolver.open(node));
            }
            String token = newToken();
            ClaimedJob payload = payload(job, node, resolved, lookups, org, environment, token, baseUri);
            // the node's resolution and its start are one update; the runner's contact and the job's mark with the
            // limits this claim is within follow in one round trip. All are written before a claim beside a result
            // waits for it: once the result is stored, only the commit is left, and the limits are checked in it
            node.run(now);
            jobs.getEntityManager().flush();
            List<Statement> marking = new ArrayList<>();
            marking.add(runners.contact(runner.runnerId()));
            int organizationLimit = quotas.limit(job.orgId(), Quota.CONCURRENT_JOBS);
            if (resultStored == null
                    && (JobLimits.nearlyReached(job.runnerRunning(), runner.maxConcurrentJobs())
                            || JobLimits.nearlyReached(job.organizationRunning(), organizationLimit))) {
                marking.add(CHECK_LIMITS_AT_ONCE);
            }
            marking.add(JobRepository.markClaimed(
                    job.id(),
                    JobLimits.stated(runner.maxConcurrentJobs(), organizationLimit),
                    hash(token),
                    now.plus(settings.lease()),
                    now));
            int marked;
            try {
                marked = InTransaction.executeAll(jobs.getEntityManager(), marking);
            } catch (RuntimeException e) {
                if (JobLimits.refusedAtCommit(e)) {
                    throw new ClaimUndone();
                }
                throw e;
            }
            if (marked != 1) {
                // the claim holds the job's row since its first look, when it was queued
                throw new IllegalStateException("job " + job.id() + " was no longer queued when its claim marked it");
            }
            if (resultStored != null && !stored(resultStored)) {
                // the result that freed the slot was refused or not stored: nothing of this claim is kept
                throw new ClaimUndone();
            }
            // a limit reached by the time of the check refuses it: nothing of this claim is kept (the job waits for a
            // slot, and its deployment says so; a node that failed on the way fails again at the next claim)
            return new Claim(Optional.of(payload), failed, job.createdAt());
        }
    }

    /**
     * Makes the limits of running jobs checked when the job is marked, not at the commit: for a claim that came with no
     * result while its first look found few places left ({@link JobLimits#nearlyReached}). Such claims come together
     * (a slot freed in a full organization wakes every waiting one) and race for the same places, and a commit the
     * check refuses costs the pool its connection (Agroal closes a connection whose commit failed). A refusal is then
     * the marking statement's error, and the transaction is rolled back as usual. The price: the organization's lock
     * is held until the commit, a round trip more than when it is taken at the commit, and every other claim of the
     * organization waits for it. So claims that find places enough (a runner's slots starting together, an
     * organization far from its quota) are checked at their commit. A claim beside a result takes the place its result
     * frees, and is refused at its commit only when a claim of another runner took that place first.
     */
    private static final Statement CHECK_LIMITS_AT_ONCE =
            new Statement("set constraints " + JobLimits.CONSTRAINT + " immediate");

    /**
     * Undoes a claim: its transaction is rolled back, and it is a claim of nothing. Thrown where a claim ends without a
     * job once it wrote something; a transaction marked for rollback alone would make the commit throw.
     */
    private static final class ClaimUndone extends RuntimeException {
        ClaimUndone() {
            super("the claim is undone", null, false, false);
        }
    }

    /** A limit raised by {@code by}, where an unlimited one stays unlimited. */
    private static int above(int limit, int by) {
        return limit > Integer.MAX_VALUE - by ? Integer.MAX_VALUE : limit + by;
    }

    /** Whether the result a claim waits for was stored; false when it was refused, failed or took too long. */
    private static boolean stored(Future<Boolean> resultStored) {
        try {
            return resultStored.get(RESULT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    /**
     * Writes a job that just ended unresolved before the next look for a queued one: that look skips only
     * rows other transactions lock, so it would find this job again while it is still queued in the database.
     */
    private void nextAfterUnresolvable() {
        jobs.getEntityManager().flush();
    }

    /** A node whose inputs could not be resolved when its job was claimed: it fails; its deployment advances after the claim. */
    private DeploymentEngine.Ended unresolvable(
            JobRepository.QueuedJob job, DeploymentNode node, String error, Instant now) {
        logs.appendNodeLine(job.deploymentId(), node.id(), "error", "resolution", error, now);
        jobs.findById(job.id()).end(JobStatus.CANCELLED, now);
        if (!job.planOnly()) {
            checks.ended(deployments.findById(job.deploymentId()), node, NodeStatus.FAILED, error, null, now);
        }
        node.end(NodeStatus.FAILED, error, null, now);
        return new DeploymentEngine.Ended(job.deploymentId(), node.id());
    }

    private ClaimedJob payload(
            JobRepository.QueuedJob job,
            DeploymentNode node,
            ResolvedNode resolved,
            NodeResolver.Lookups lookups,
            String org,
            EnvironmentRef environment,
            String token,
            URI baseUri) {
        ModuleService.ModuleRun module = lookups.moduleRun(node.moduleSlug(), node.moduleVersion())
                .orElseThrow(() -> new IllegalStateException(
                        "module " + node.moduleSlug() + " v" + node.moduleVersion() + " is gone"));
        List<ClaimedJob.Provider> providerBlocks = new ArrayList<>();
        JsonNode spec = node.spec();
        NodeSpecs.providerKeys(spec).forEach((local, key) -> {
            ObjectNode configuration = resolved.providers()
                    .getOrDefault(local, json.createObjectNode())
                    .deepCopy();
            lookups.providerSecrets(key).forEach(configuration::put);
            JsonNode provider = spec.path("providers").path(local).path("provider");
            providerBlocks.add(new ClaimedJob.Provider(
                    local,
                    provider.path("source").asText(),
                    provider.path("versionConstraint").isTextual()
                            ? provider.path("versionConstraint").asText()
                            : null,
                    configuration));
        });
        // every output the module declares is reported (and stored, and shown); where its code was not read,
        // the outputs its resource type declares
        ModuleService.ModuleSource source = module.source();
        List<String> outputs = module.declaredOutputs()
                .orElseGet(() -> lookups.outputSchema(node.identity().type())
                        .map(OutputSchema::declaredOutputs)
                        .orElse(List.of()));
        ResourceIdentity identity = node.identity();
        String address = baseUri.resolve("/api/state/v1/" + environment.id() + "/" + identity.type() + "/"
                        + identity.resourceClass() + "/" + identity.id())
                .toString();
        // a gated deployment's first part only plans, whatever its node will do once approved
        NodeOperation operation = job.planOnly() ? NodeOperation.PLAN : node.operation();
        return new ClaimedJob(
                job.id(),
                job.deploymentId(),
                job.attempt(),
                operation,
                new ClaimedJob.Resource(identity.type(), identity.resourceClass(), identity.id()),
                new ClaimedJob.Environment(org, environment.project(), environment.env(), environment.envType()),
                new ClaimedJob.Module(
                        node.moduleSlug(), node.moduleVersion(), source.moduleSource(), source.moduleSourceCode()),
                resolved.inputs(),
                resolved.sensitiveInputs(),
                providerBlocks,
                outputs,
                new ClaimedJob.State(address, address, address, job.id().toString(), token),
                settings.lease().toSeconds(),
                settings.heartbeatInterval().toSeconds(),
                node.operation() == NodeOperation.CHECK
                        && deployments.findById(job.deploymentId()).refreshOnly());
    }

    /** Extends a job's lease; the reply says whether it was cancelled meanwhile. */
    @Transactional
    public HeartbeatReply heartbeat(RunnerCaller runner, UUID jobId) {
        Job job = ownJob(runner, jobId, true);
        Instant now = clock.instant();
        if (!job.holdsLease(now)) {
            throw new PlatformException(
                    ProblemType.CONFLICT,
                    "job " + jobId + " lost its lease (" + job.status().wireName() + "); stop working on it");
        }
        job.heartbeat(now.plus(settings.lease()), now);
        runners.touch(runner.runnerId());
        Deployment deployment = deployments.findById(job.deploymentId());
        return new HeartbeatReply(deployment.cancelRequested(), job.leaseExpiresAt());
    }

    /** Stores a batch of log lines with every known secret value of the job masked. */
    @Transactional
    public void appendLogs(RunnerCaller runner, UUID jobId, LogBatch batch) {
        Job job = ownJob(runner, jobId, false);
        if (job.status().isTerminal()) {
            // the agent sends every batch before the result; after it only a repeat of a stored one is harmless
            if (logs.hasBatch(job.id(), batch.batch())) {
                return;
            }
            throw new PlatformException(
                    ProblemType.CONFLICT,
                    "job " + jobId + " has ended (" + job.status().wireName() + "); log batch " + batch.batch()
                            + " came after its result and is refused");
        }
        DeploymentNode node = nodes.findById(job.nodeId());
        Masker masker = Masker.of(secretValues(job, node));
        var lines = json.createArrayNode();
        for (LogBatch.Line line : batch.lines()) {
            ObjectNode stored = lines.addObject();
            stored.put("time", (line.time() == null ? clock.instant() : line.time()).toString());
            stored.put("level", Masker.level(line.level()));
            if (line.type() != null) {
                stored.put("type", masker.mask(line.type()));
            }
            stored.put("message", masker.mask(line.message()));
        }
        logs.store(job.deploymentId(), job.nodeId(), job.id(), batch.batch(), lines.toString(), clock.instant());
    }

    /** The longest error stored for a node; the full text stays in the job's logs. */
    static final int MAX_ERROR = 8192;

    private static final String TRUNCATED = "… (truncated)";

    /** Records a job's result (once; a repeat is accepted and ignored) and moves the deployment on. */
    @Transactional
    public Optional<DeploymentEngine.Ended> complete(RunnerCaller runner, UUID jobId, JobResult result) {
        return record(runner, jobId, result, () -> {});
    }

    /**
     * The same, calling {@code jobLocked} once the job's row is locked: from then on this transaction holds its
     * database connection, so work started there (a claim beside the result) cannot take the connection this one
     * still needs. It is not called when the job is not the runner's.
     */
    @Transactional
    public Optional<DeploymentEngine.Ended> complete(
            RunnerCaller runner, UUID jobId, JobResult result, Runnable jobLocked) {
        return record(runner, jobId, result, jobLocked);
    }

    private Optional<DeploymentEngine.Ended> record(
            RunnerCaller runner, UUID jobId, JobResult result, Runnable jobLocked) {
        // the job, its node and its deployment in one statement, the first two locked: recording the result locks
        // them anyway (the engine finds them in the session)
        JobRepository.Reported reported = jobs.lockReported(jobId, runner.runnerId())
                .orElseThrow(() -> PlatformException.notFound("job `" + jobId + "`"));
        Job job = reported.job();
        jobLocked.run();
        if (job.status() == JobStatus.DONE || job.status() == JobStatus.CANCELLED) {
            return Optional.empty();
        }
        if (job.status() != JobStatus.RUNNING) {
            throw new PlatformException(
                    ProblemType.CONFLICT,
                    "job " + jobId + " is " + job.status().wireName() + "; its result is refused");
        }
        if (!job.holdsLease(clock.instant())) {
            // the sweeper may not have seen it yet: the lease decides, not when the sweeper runs
            throw new PlatformException(
                    ProblemType.CONFLICT,
                    "job " + jobId + " lost its lease at " + job.leaseExpiresAt() + "; its result is refused");
        }
        DeploymentNode node = reported.node();
        ObjectNode outputs = json.createObjectNode();
        Set<String> sensitive = new TreeSet<>();
        if (result.outputs() != null) {
            result.outputs().forEach((name, output) -> {
                outputs.set(name, output.value() == null ? json.nullNode() : output.value());
                if (output.sensitive()) {
                    sensitive.add(name);
                }
            });
        }
        NodeStatus status = result.status().nodeStatus();
        String error = result.error() == null
                ? null
                : result.error().summary()
                        + (result.error().detail() == null
                                        || result.error().detail().isBlank()
                                ? ""
                                : ": " + result.error().detail());
        if (status == NodeStatus.SUCCEEDED && node.operation() == NodeOperation.APPLY && !job.isPlanOnly()) {
            // read with the job: the type's schema as it is stored now
            Optional<OutputSchema> schema = resourceTypes.outputSchemaOf(reported.outputSchema());
            if (schema.isPresent()) {
                // the schema validates what it declares; other outputs of the module are kept as they are
                List<OutputSchema.Violation> violations =
                        schema.get().validate(schema.get().declaredPart(outputs));
                if (!violations.isEmpty()) {
                    status = NodeStatus.FAILED;
                    error = "the module's outputs do not match resource type `"
                            + node.identity().type() + "`: "
                            + String.join(
                                    "; ",
                                    violations.stream()
                                            .map(OutputSchema.Violation::toString)
                                            .toList());
                }
            }
        }
        if (error != null) {
            // the job's secrets, and its own sensitive outputs (a schema violation may quote one)
            Set<String> secrets = secretValues(job, node);
            sensitive.forEach(name -> collect(outputs.get(name), secrets));
            error = Masker.of(secrets).mask(error);
        }
        if (error != null && error.length() > MAX_ERROR) {
            error = error.substring(0, MAX_ERROR - TRUNCATED.length()) + TRUNCATED;
        }
        JsonNode planSummary = result.planSummary() == null ? null : json.valueToTree(result.planSummary());
        // only a check reports what it found; anything else's report is not stored. The runner masked what
        // OpenTofu marks sensitive; the job's own secrets are masked here too, wherever a value quotes one
        JsonNode checkReport = result.check() == null || node.operation() != NodeOperation.CHECK
                ? null
                : masked(json.valueToTree(result.check()), Masker.of(secretValues(job, node)));
        JsonNode resources = json.valueToTree(result.resources() == null ? List.of() : result.resources());
        // the slot this frees in the organization's concurrent jobs is offered to its other runners after the
        // commit, and only when this runner's next claim does not take it (slotFreed)
        return engine.jobEnded(
                jobId, new JobOutcome(status, error, outputs, sensitive, resources, planSummary, checkReport));
    }

    /**
     * After a job of the runner ended (committed) and the runner's own claim did not take the slot it freed in the
     * organization's concurrent jobs: the organization's other runners whose claims wait for a slot may claim.
     */
    public void slotFreed(RunnerCaller runner) {
        engine.wakeRunnersForFreeSlots(runner.orgId(), quotas.limit(runner.orgId(), Quota.CONCURRENT_JOBS));
    }

    /** A job of this runner; another runner's (or another organization's) job does not exist for it. */
    private Job ownJob(RunnerCaller runner, UUID jobId, boolean lock) {
        Optional<Job> job = lock ? jobs.lock(jobId) : Optional.ofNullable(jobs.findById(jobId));
        return job.filter(j -> j.runnerId().equals(runner.runnerId()))
                .orElseThrow(() -> PlatformException.notFound("job `" + jobId + "`"));
    }

    /**
     * Every value the job could have seen that must not reach a log: its sensitive inputs (secret inputs
     * of the module version and inputs taken from sensitive outputs), its providers' secrets and
     * sensitive fields, the sensitive outputs of every resource it depends on and those of its own
     * resource (they are in its state).
     */
    private Set<String> secretValues(Job job, DeploymentNode node) {
        Set<String> values = new HashSet<>();
        UUID environmentId = deployments.findById(job.deploymentId()).environmentId();
        var outputs = activeResources.outputsLookup(environmentId);
        Set<ResourceIdentity> seen = new HashSet<>(NodeSpecs.upstream(node.spec()));
        seen.add(node.identity());
        for (ResourceIdentity identity : seen) {
            Outputs stored = outputs.apply(identity);
            if (stored != null) {
                stored.sensitive().forEach(name -> collect(stored.values().get(name), values));
            }
        }
        if (node.sealedResolved() == null) {
            return values;
        }
        ResolvedNode resolved = resolver.read(resolver.open(node));
        for (String name : resolved.sensitiveInputs()) {
            collect(resolved.inputs().get(name), values);
        }
        for (String field : resolved.sensitiveProviderFields()) {
            String[] parts = field.split("\\.", 2);
            ObjectNode configuration = resolved.providers().get(parts[0]);
            if (configuration != null) {
                collect(configuration.get(parts[1]), values);
            }
        }
        NodeSpecs.providerKeys(node.spec()).values().forEach(key -> {
            String[] parts = key.split("\\.", 2);
            values.addAll(providers.secretsFor(job.orgId(), parts[0], parts[1]).values());
        });
        return values;
    }

    /** A copy of {@code value} with every known secret in its values masked. */
    static JsonNode masked(JsonNode value, Masker masker) {
        if (value.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            value.fields().forEachRemaining(e -> copy.set(e.getKey(), masked(e.getValue(), masker)));
            return copy;
        }
        if (value.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            value.forEach(item -> copy.add(masked(item, masker)));
            return copy;
        }
        if (value.isValueNode() && !value.isNull()) {
            String text = value.asText();
            String hidden = masker.mask(text);
            return hidden.equals(text) ? value : TextNode.valueOf(hidden);
        }
        return value;
    }

    private static void collect(JsonNode value, Set<String> into) {
        if (value == null || value.isNull()) {
            return;
        }
        if (value.isValueNode()) {
            into.add(value.asText());
        } else {
            value.forEach(child -> collect(child, into));
        }
    }

    /**
     * What a job's state credentials open: the state of its node's resource in its environment, while
     * its lease lives. Empty for unknown or wrong credentials.
     */
    @Transactional
    @Override
    public Optional<StateAccess> access(String jobId, String token) {
        if (token == null || jobId == null) {
            return Optional.empty();
        }
        return jobs.byTokenHash(hash(token))
                .filter(job -> job.id().toString().equals(jobId))
                .map(job -> {
                    DeploymentNode node = nodes.findById(job.nodeId());
                    Deployment deployment = deployments.findById(job.deploymentId());
                    return new StateAccess(
                            job.id(), deployment.environmentId(), node.identity(), job.holdsLease(clock.instant()));
                });
    }

    static String newToken() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    static byte[] hash(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
