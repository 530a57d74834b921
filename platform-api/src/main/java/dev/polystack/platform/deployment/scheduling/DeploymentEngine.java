package dev.polystack.platform.deployment.scheduling;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.platform.audit.AuditService;
import dev.polystack.platform.common.sql.AfterCommit;
import dev.polystack.platform.common.sql.InTransaction;
import dev.polystack.platform.common.sql.Statement;
import dev.polystack.platform.deployment.logs.LogService;
import dev.polystack.platform.deployment.model.ApprovalState;
import dev.polystack.platform.deployment.model.Deployment;
import dev.polystack.platform.deployment.model.DeploymentMode;
import dev.polystack.platform.deployment.model.DeploymentNode;
import dev.polystack.platform.deployment.model.DeploymentRepository;
import dev.polystack.platform.deployment.model.DeploymentStatus;
import dev.polystack.platform.deployment.model.EnvironmentRecords;
import dev.polystack.platform.deployment.model.IllegalTransitionException;
import dev.polystack.platform.deployment.model.Job;
import dev.polystack.platform.deployment.model.JobOutcome;
import dev.polystack.platform.deployment.model.JobRepository;
import dev.polystack.platform.deployment.model.JobStatus;
import dev.polystack.platform.deployment.model.NodeOperation;
import dev.polystack.platform.deployment.model.NodeRepository;
import dev.polystack.platform.deployment.model.NodeResolver;
import dev.polystack.platform.deployment.model.NodeSpecs;
import dev.polystack.platform.deployment.model.NodeStatus;
import dev.polystack.platform.deployment.model.PlanFingerprint;
import dev.polystack.platform.deployment.model.ResolvedNode;
import dev.polystack.platform.environment.EnvironmentService;
import dev.polystack.platform.environment.EnvironmentService.EnvironmentRef;
import dev.polystack.platform.environment.EnvironmentStatus;
import dev.polystack.platform.envtype.ApprovalPolicy;
import dev.polystack.platform.organization.OrganizationService;
import dev.polystack.platform.resource.ActiveResource;
import dev.polystack.platform.resource.ActiveResourceService;
import dev.polystack.platform.resource.Provisioned;
import dev.polystack.platform.state.StateService;
import dev.polystack.platform.webhook.WebhookEvent;
import dev.polystack.platform.webhook.WebhookService;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.RulesException;
import dev.polystack.rules.graph.Resolution;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.transaction.Transactional;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Drives deployments forward. Stateless: every step reads the facts from PostgreSQL and writes the
 * next ones in the same transaction, so any replica can advance any deployment and a restart loses
 * nothing. {@link #advance} runs under the locks of the environment's and the deployment's rows; it
 * is called when a deployment is created, after job results ({@link Advancer}, which shares one
 * advance between the results that arrive together), and by the sweeper. A job result itself
 * ({@link #jobEnded}) locks only its job and node.
 *
 * <p>Lock order, everywhere: environment → deployment → job → node; a subset keeps that order (job
 * results: job → node; claims: runner → job → node).
 */
@ApplicationScoped
public class DeploymentEngine {

    private static final Logger LOG = Logger.getLogger(DeploymentEngine.class);

    private final Map<UUID, Graph> graphs = new ConcurrentHashMap<>();

    @Inject
    DeploymentRepository deployments;

    @Inject
    NodeRepository nodes;

    @Inject
    JobRepository jobs;

    @Inject
    EnvironmentService environments;

    @Inject
    OrganizationService organizations;

    @Inject
    ActiveResourceService activeResources;

    @Inject
    Notifications notifications;

    @Inject
    LogService logs;

    @Inject
    Removals removals;

    @Inject
    Checks checks;

    @Inject
    Event<CheckFinished> checkFinished;

    @Inject
    WebhookService webhooks;

    @Inject
    AuditService audit;

    @Inject
    TransactionSynchronizationRegistry transactions;

    @Inject
    MeterRegistry meters;

    @Inject
    EngineDiagnostics diagnostics;

    private Counter advanceFailures;
    private Counter leaseExpiries;
    private Timer advanceDuration;

    @PostConstruct
    void registerMetrics() {
        advanceFailures = Counter.builder("polystack.engine.advance.failures")
                .description("Advances of a deployment that failed (the deployment is marked stalled and retried)")
                .register(meters);
        leaseExpiries = Counter.builder("polystack.jobs.lease.expiries")
                .description("Jobs whose runner was lost: no heartbeat before the lease expired")
                .register(meters);
        advanceDuration = Timer.builder("polystack.engine.advance.duration")
                .description("How long one advance of a deployment took")
                .publishPercentileHistogram()
                .register(meters);
    }

    /** Counts a deployment that ended, by how it ended. */
    private void countFinished(Deployment deployment) {
        meters.counter(
                        "polystack.deployments.finished",
                        "status",
                        deployment.status().wireName(),
                        "mode",
                        deployment.mode().wireName())
                .increment();
    }

    @Inject
    NodeResolver resolver;

    @Inject
    ObjectMapper json;

    @Inject
    EngineSettings settings;

    @Inject
    EnvironmentRecords environmentRecords;

    @Inject
    StateService states;

    @Inject
    Clock clock;

    /**
     * Moves a deployment as far as the facts allow (start it, skip, dispatch, finish), and when it finished,
     * starts the next one of its environment. Each deployment advances in its own transaction, so that one
     * that cannot advance never holds back the one before it. Never throws: a failure is logged with a
     * reference, counted, and recorded on the deployment as the reason it is stalled; the sweeper retries.
     * Call outside a transaction.
     */
    public void advance(UUID deploymentId) {
        advance(deploymentId, null);
    }

    /**
     * The same, after the nodes {@code ended} ended: only their dependents are looked at (null: every node).
     * The deployments started after it are walked whole.
     */
    public void advance(UUID deploymentId, Set<UUID> ended) {
        UUID current = deploymentId;
        Set<UUID> endedNow = ended;
        while (current != null) {
            UUID id = current;
            Set<UUID> nodesEnded = endedNow;
            Timer.Sample timing = Timer.start(meters);
            try {
                current = QuarkusTransaction.requiringNew()
                        .call(() -> advanceOne(id, nodesEnded))
                        .orElse(null);
                timing.stop(advanceDuration);
            } catch (RuntimeException e) {
                stalled(id, e);
                return;
            }
            endedNow = null;
        }
    }

    /** Advances the next deployment when a transaction that finished one has committed. */
    public void advance(Optional<UUID> next) {
        next.ifPresent(this::advance);
    }

    private Optional<UUID> advanceOne(UUID deploymentId, Set<UUID> ended) {
        if (!deployments.lockEnvironmentOfUnfinished(deploymentId)) {
            return Optional.empty();
        }
        Deployment deployment = deployments.lock(deploymentId);
        Optional<UUID> next = advanceLocked(deployment, ended);
        deployment.advanced();
        return next;
    }

    @Inject
    Shutdown shutdown;

    /** Logs, counts and records why a deployment could not advance; what the API shows says what, not how. */
    private void stalled(UUID deploymentId, RuntimeException e) {
        if (shutdown.started()) {
            // the database and the persistence unit are going away; the deployment advances after the restart
            LOG.debugf("Advance of deployment %s stopped by the shutdown: %s", deploymentId, e.getMessage());
            return;
        }
        String reference = UUID.randomUUID().toString();
        advanceFailures.increment();
        LOG.errorf(e, "Could not advance deployment %s (reference %s); the sweeper retries", deploymentId, reference);
        // only the engine's own messages are shown; anything else stays in the log, behind the reference
        String what = e instanceof IllegalTransitionException || e instanceof RulesException
                ? e.getMessage()
                : "an unexpected error";
        String reason = "cannot advance: " + what + " (log reference " + reference + ")";
        diagnostics.failed(deploymentId, reason, clock.instant());
        try {
            QuarkusTransaction.requiringNew().run(() -> deployments.markStalled(deploymentId, reason, clock.instant()));
        } catch (RuntimeException again) {
            LOG.warnf("Could not record that deployment %s is stalled: %s", deploymentId, again.getMessage());
        }
    }

    /**
     * The same, for a caller that already holds the environment's and the deployment's locks. Returns the
     * deployment of the environment to start next when this one finished: the caller advances it once its
     * transaction has committed ({@link #advance(Optional)}).
     */
    public Optional<UUID> advanceLocked(Deployment deployment) {
        return advanceLocked(deployment, null);
    }

    private Optional<UUID> advanceLocked(Deployment deployment, Set<UUID> ended) {
        Instant now = clock.instant();
        if (deployment.status().isTerminal()) {
            return Optional.empty();
        }
        if (deployment.status() == DeploymentStatus.QUEUED) {
            Optional<Deployment> head = deployments.head(deployment.environmentId());
            if (head.isPresent() && !head.get().id().equals(deployment.id())) {
                return Optional.empty();
            }
            if (deployment.cancelRequested()) {
                deployment.finish(DeploymentStatus.CANCELLED, "cancelled before it started", now);
                return finished(deployment);
            }
            deployment.start(now);
            announce(deployment, WebhookEvent.DEPLOYMENT_STARTED);
            graphs.remove(deployment.id()); // an earlier start that did not commit may have left one
            // what is removed (or checked) is decided now, from what the environment holds when this deployment starts
            if (deployment.mode() == DeploymentMode.CHECK) {
                checks.add(deployment, now);
            } else {
                removals.add(deployment);
            }
            ended = null;
        }
        if (deployment.status() == DeploymentStatus.AWAITING_APPROVAL) {
            return awaiting(deployment, now);
        }
        Step step = new Step(deployment, now);
        // a deployment that needs approval is walked whole: it has two parts, and few nodes wait for approval
        Graph graph = ended == null || deployment.cancelRequested() || deployment.approval() != null
                ? null
                : graphs.get(deployment.id());
        boolean walked = graph != null && afterEnded(step, graph, ended);
        Optional<UUID> next = walked ? Optional.empty() : walk(step);
        step.wake.forEach(runner -> notifications.notifyOnCommit(Notifications.JOBS, runner.toString()));
        return next;
    }

    /** What one advance needs across its nodes, looked up once and only when needed. */
    private final class Step {
        final Deployment deployment;
        final Instant now;
        final Set<UUID> wake = new HashSet<>();
        private EnvironmentRef environment;
        private NodeResolver.Lookups lookups;
        private final Map<ResourceIdentity, Optional<ActiveResource>> active = new HashMap<>();

        Step(Deployment deployment, Instant now) {
            this.deployment = deployment;
            this.now = now;
        }

        EnvironmentRef environment() {
            if (environment == null) {
                environment = environments.reference(deployment.environmentId(), organizationSlug(deployment));
            }
            return environment;
        }

        NodeResolver.Lookups lookups() {
            if (lookups == null) {
                lookups = resolver.lookups(deployment.orgId());
            }
            return lookups;
        }

        /** Reads the active resources of nodes about to be dispatched together, in one round trip instead of one each. */
        void readActive(Collection<DeploymentNode> dispatching) {
            if (dispatching.size() > 1) {
                active.putAll(activeResources.findAllWithoutFlush(
                        deployment.environmentId(),
                        dispatching.stream().map(DeploymentNode::identity).toList()));
            }
        }

        /** The node's resource in the environment, if it is active: read with the others of this step when it could be. */
        Optional<ActiveResource> active(DeploymentNode node) {
            Optional<ActiveResource> read = active.remove(node.identity());
            return read != null ? read : activeResources.findWithoutFlush(deployment.environmentId(), node.identity());
        }
    }

    /**
     * Looks only at the dependents of the nodes that ended, and at theirs when some of them end in this
     * step too (skipped, unchanged). False when the deployment may be done: the whole walk decides that. A node
     * this step left pending or queued shows that it is not done without asking the database; only advances,
     * which hold the deployment's lock, move a node on from pending. Otherwise it asks about the sinks only (a
     * look at every node took about 1 ms at 500 nodes, and most advances at the end of a deployment made it).
     */
    private boolean afterEnded(Step step, Graph graph, Set<UUID> ended) {
        Set<UUID> round = ended;
        boolean unfinished = false;
        while (!round.isEmpty()) {
            Set<UUID> candidates = new HashSet<>();
            round.forEach(id -> candidates.addAll(graph.dependents().getOrDefault(id, Set.of())));
            if (candidates.isEmpty()) {
                break;
            }
            Set<UUID> involved = new HashSet<>(candidates);
            candidates.forEach(id -> involved.addAll(graph.waitsFor().getOrDefault(id, Set.of())));
            Map<UUID, NodeStatus> statuses = nodes.statuses(involved);
            List<UUID> ready = new ArrayList<>();
            Map<UUID, UUID> blocked = new HashMap<>();
            for (UUID candidate : candidates) {
                if (statuses.get(candidate) != NodeStatus.PENDING) {
                    continue;
                }
                Set<UUID> dependencies = graph.waitsFor().getOrDefault(candidate, Set.of());
                if (dependencies.stream().anyMatch(id -> !statuses.get(id).isTerminal())) {
                    unfinished = true; // it stays pending
                    continue;
                }
                dependencies.stream()
                        .filter(id -> !statuses.get(id).letsDependentsRun())
                        .findFirst()
                        .ifPresentOrElse(blocker -> blocked.put(candidate, blocker), () -> ready.add(candidate));
            }
            Set<UUID> endedNow = new HashSet<>();
            List<DeploymentNode> dispatching = nodes.byIds(ready);
            step.readActive(dispatching);
            for (DeploymentNode node : dispatching) {
                dispatch(step, node);
                if (node.status().isTerminal()) {
                    endedNow.add(node.id());
                } else {
                    unfinished = true;
                }
            }
            blocked.forEach((id, blocker) -> {
                DeploymentNode node = nodes.findById(id);
                node.end(NodeStatus.SKIPPED, skipReason(node, nodes.findById(blocker)), null, step.now);
                endedNow.add(id);
            });
            round = endedNow;
        }
        // an unfinished sink shows that the deployment is not done; when every sink ended, the whole walk decides
        return unfinished || nodes.anyUnfinishedAmong(graph.sinks());
    }

    /** Every node: cancels, skips and dispatches what can go, and finishes the deployment when all ended. */
    private Optional<UUID> walk(Step step) {
        Deployment deployment = step.deployment;
        Instant now = step.now;
        if (deployment.cancelRequested()) {
            for (UUID nodeId : jobs.cancelQueued(deployment.id(), now)) {
                DeploymentNode node = nodes.lock(nodeId);
                if (node.status() == NodeStatus.QUEUED) {
                    node.end(NodeStatus.CANCELLED, "cancelled", null, now);
                }
            }
        }
        List<NodeRepository.NodeState> all = nodes.states(deployment.id());
        Graph graph = graphOf(deployment.id(), all);
        Map<UUID, NodeRepository.NodeState> byId = new HashMap<>();
        all.forEach(n -> byId.put(n.id, n));
        // while a gated deployment plans, a planned node is done (its dependents plan after it); once it is
        // approved, a planned node waits to apply as a pending one does
        boolean planning = deployment.planning();
        if (!deployment.cancelRequested()) {
            // the active resources of what goes in the first look below (a new deployment's first layer) read together;
            // the nodes' rows as the look reads them (a deployment created in this transaction holds them already)
            step.readActive(all.stream()
                    .filter(state -> waitsToGo(state, planning) && dependenciesDone(state, graph, byId, planning))
                    .map(state -> nodes.findById(state.id))
                    .toList());
        }
        boolean progressed = true;
        while (progressed) {
            progressed = false;
            for (NodeRepository.NodeState state : all) {
                if (!waitsToGo(state, planning)) {
                    continue;
                }
                if (deployment.cancelRequested()) {
                    DeploymentNode node = nodes.findById(state.id);
                    node.end(NodeStatus.CANCELLED, "cancelled", null, now);
                    state.status = node.status();
                    progressed = true;
                    continue;
                }
                if (!dependenciesDone(state, graph, byId, planning)) {
                    continue;
                }
                Set<UUID> dependencies = graph.waitsFor().getOrDefault(state.id, Set.of());
                Optional<NodeRepository.NodeState> blocker = dependencies.stream()
                        .map(byId::get)
                        .filter(d -> !(d.status.letsDependentsRun() || planning && d.status == NodeStatus.PLANNED))
                        .findFirst();
                DeploymentNode node = nodes.findById(state.id);
                if (blocker.isPresent()) {
                    node.end(NodeStatus.SKIPPED, skipReason(node, nodes.findById(blocker.get().id)), null, now);
                } else {
                    dispatch(step, node);
                }
                state.status = node.status();
                progressed = true;
            }
        }
        if (planning && all.stream().allMatch(n -> done(n.status, true))) {
            return planned(step, all);
        }
        if (all.stream().allMatch(n -> n.status.isTerminal())) {
            long failed =
                    all.stream().filter(n -> n.status == NodeStatus.FAILED).count();
            DeploymentStatus outcome = deployment.cancelRequested()
                    ? DeploymentStatus.CANCELLED
                    : failed > 0 ? DeploymentStatus.FAILED : DeploymentStatus.SUCCEEDED;
            String error = failed == 0 ? null : failed + " of " + all.size() + " resources failed";
            deployment.finish(outcome, error, now);
            return finished(deployment);
        }
        return Optional.empty();
    }

    /** Whether a node has yet to go: pending, or (once its gated deployment is approved) planned. */
    private static boolean waitsToGo(NodeRepository.NodeState state, boolean planning) {
        return state.status == NodeStatus.PENDING || !planning && state.status == NodeStatus.PLANNED;
    }

    /** Whether everything a node waits for is done. */
    private static boolean dependenciesDone(
            NodeRepository.NodeState state, Graph graph, Map<UUID, NodeRepository.NodeState> byId, boolean planning) {
        return graph.waitsFor().getOrDefault(state.id, Set.of()).stream()
                .allMatch(id -> done(byId.get(id).status, planning));
    }

    /** Whether a node is done for its dependents: ended, or (while its deployment plans for approval) planned. */
    private static boolean done(NodeStatus status, boolean planning) {
        return status.isTerminal() || planning && status == NodeStatus.PLANNED;
    }

    /**
     * A gated deployment that planned every node. It fails when a plan failed; applies at once when nothing
     * changes; and otherwise waits for approvals of this plan, bound to its fingerprint.
     */
    private Optional<UUID> planned(Step step, List<NodeRepository.NodeState> all) {
        Deployment deployment = step.deployment;
        Instant now = step.now;
        List<DeploymentNode> planned = nodes.byIds(all.stream()
                .filter(n -> n.status == NodeStatus.PLANNED)
                .map(n -> n.id)
                .toList());
        long failed = all.stream().filter(n -> n.status == NodeStatus.FAILED).count();
        if (failed > 0) {
            planned.forEach(node ->
                    node.end(NodeStatus.CANCELLED, "not applied: the plan of the deployment failed", null, now));
            deployment.finish(
                    DeploymentStatus.FAILED,
                    failed + " of " + all.size() + " resources failed to plan; nothing was applied",
                    now);
            return finished(deployment);
        }
        if (planned.stream().noneMatch(node -> PlanFingerprint.changes(node.planSummary()))) {
            deployment.approvalNotNeeded(now);
            return walk(step);
        }
        ApprovalPolicy policy = ApprovalPolicy.fromJson(deployment.approval());
        deployment.awaitApproval(
                PlanFingerprint.of(deployment.id(), planned),
                now.plus(Duration.ofHours(policy.expiresAfterHours())),
                now);
        notifications.notifyOnCommit(Notifications.DEPLOYMENTS, deployment.id().toString());
        announce(deployment, WebhookEvent.APPROVAL_NEEDED);
        return Optional.empty();
    }

    /** A deployment that waits for approval: it ends when cancelled or when its time is up, and otherwise waits on. */
    private Optional<UUID> awaiting(Deployment deployment, Instant now) {
        boolean expired = deployment.approvalExpiresAt() != null && !now.isBefore(deployment.approvalExpiresAt());
        if (!deployment.cancelRequested() && !expired) {
            return Optional.empty();
        }
        String reason = deployment.cancelRequested()
                ? "cancelled while it waited for approval"
                : "not approved before " + deployment.approvalExpiresAt() + "; nothing was applied";
        for (DeploymentNode node : nodes.of(deployment.id())) {
            if (!node.status().isTerminal()) {
                node.end(NodeStatus.CANCELLED, reason, null, now);
            }
        }
        if (deployment.cancelRequested()) {
            deployment.finish(DeploymentStatus.CANCELLED, reason, now);
        } else {
            deployment.notApproved(ApprovalState.EXPIRED, reason, now);
            // nobody asked for this: the audit log says Polystack did it
            String org = organizationSlug(deployment);
            EnvironmentRef environment = environments.reference(deployment.environmentId(), org);
            audit.appendWithin(new AuditService.Entry(
                    deployment.orgId(),
                    org,
                    null,
                    "polystack",
                    "system",
                    "expireApproval",
                    "SYSTEM",
                    "/api/v1/orgs/" + org + "/projects/" + environment.project() + "/envs/" + environment.env()
                            + "/deployments/" + deployment.id(),
                    null,
                    200));
        }
        return finished(deployment);
    }

    /**
     * Ends a deployment that waits for approval without applying it (rejected, or its plan went stale); the
     * caller holds its environment's and its own locks. Returns the deployment to start next.
     */
    public Optional<UUID> notApproved(Deployment deployment, ApprovalState state, String reason) {
        Instant now = clock.instant();
        for (DeploymentNode node : nodes.of(deployment.id())) {
            if (!node.status().isTerminal()) {
                node.end(NodeStatus.CANCELLED, reason, null, now);
            }
        }
        deployment.notApproved(state, reason, now);
        return finished(deployment);
    }

    /**
     * Why a deployment's approved plan would not be what applies, or empty when it still is: a planned
     * resource's state moved (its serial), or its inputs resolve differently now (a provider's settings or a
     * secret changed, say). Only nodes whose inputs were known when they planned are compared by inputs.
     */
    public Optional<String> staleness(Deployment deployment) {
        List<DeploymentNode> planned = nodes.of(deployment.id()).stream()
                .filter(n -> n.status() == NodeStatus.PLANNED)
                .toList();
        List<String> reasons = new ArrayList<>();
        Step step = new Step(deployment, clock.instant());
        for (DeploymentNode node : planned) {
            long serial =
                    states.serialOf(deployment.environmentId(), node.identity().toString());
            if (node.plannedSerial() != null && serial != node.plannedSerial()) {
                reasons.add("the state of " + node.identity() + " moved (serial " + node.plannedSerial()
                        + " when planned, " + serial + " now)");
                continue;
            }
            if (node.operation() != NodeOperation.APPLY || node.inputsDigest() == null) {
                continue;
            }
            try {
                Optional<NodeResolver.Resolved> now = resolvedForPlan(step, node);
                if (now.isEmpty() || !now.get().fingerprint().digest().equals(node.inputsDigest())) {
                    reasons.add("the inputs of " + node.identity() + " changed");
                }
            } catch (RulesException e) {
                reasons.add("the inputs of " + node.identity() + " no longer resolve: " + NodeResolver.unresolved(e));
            }
        }
        return reasons.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", reasons));
    }

    /** A node's inputs as its plan uses them, or empty when some are known only after a dependency applies. */
    private Optional<NodeResolver.Resolved> resolvedForPlan(Step step, DeploymentNode node) {
        if (node.fixed()) {
            return Optional.of(resolver.forApply(node, step.environment(), step.lookups()));
        }
        Set<ResourceIdentity> changing = nodes.dependenciesWithPlannedChanges(step.deployment.id(), node.id());
        Resolution resolution = resolver.resolve(node, step.environment(), true, changing);
        if (!resolution.isComplete()) {
            return Optional.empty();
        }
        ResolvedNode resolved = resolver.withSecretInputs(
                step.lookups(), node.moduleSlug(), node.moduleVersion(), resolver.toResolved(resolution));
        return Optional.of(resolver.sealed(node, step.lookups(), resolved));
    }

    /**
     * The first part of a gated deployment: plans a node (a job that only plans), or records what it will do
     * where no plan is needed (a removal) or possible yet (inputs known only after a dependency applies).
     */
    private void dispatchPlan(Step step, DeploymentNode node, Optional<ActiveResource> active) {
        Deployment deployment = step.deployment;
        Instant now = step.now;
        long serial =
                states.serialOf(deployment.environmentId(), node.identity().toString());
        if (node.operation() == NodeOperation.DESTROY) {
            if (active.isEmpty()) {
                node.nothingToDestroy(now);
                return;
            }
            int resources = active.get().tofuResources() == null
                    ? 1
                    : Math.max(1, active.get().tofuResources().size());
            node.planned(
                    "delete",
                    json.createObjectNode().put("add", 0).put("change", 0).put("destroy", resources),
                    serial,
                    now);
            return;
        }
        Optional<NodeResolver.Resolved> resolved;
        try {
            resolved = resolvedForPlan(step, node);
        } catch (RulesException e) {
            String error = NodeResolver.unresolved(e);
            logs.appendNodeLine(deployment.id(), node.id(), "error", "resolution", error, now);
            node.end(NodeStatus.FAILED, error, null, now);
            return;
        }
        if (resolved.isEmpty()) {
            Set<ResourceIdentity> changing = nodes.dependenciesWithPlannedChanges(deployment.id(), node.id());
            node.planned(
                    active.isPresent() ? "update" : "create",
                    json.createObjectNode()
                            .put("known_after_apply", true)
                            .put(
                                    "reason",
                                    "its inputs are known after "
                                            + String.join(
                                                    ", ",
                                                    changing.stream()
                                                            .map(ResourceIdentity::toString)
                                                            .sorted()
                                                            .toList())
                                            + " apply"),
                    serial,
                    now);
            return;
        }
        if (!deployment.force()
                && active.isPresent()
                && resolved.get().fingerprint().matches(active.get().fingerprint())) {
            node.unchanged(resolved.get().sealed(), resolved.get().fingerprint(), now);
            return;
        }
        queue(step, node, active.isPresent() ? "update" : "create", resolved.get());
    }

    /**
     * A deployment's graph as the engine walks it: what each node waits for, what waits for each node, and the sinks,
     * which nothing waits for. An unfinished sink shows that the deployment is not done; when every sink ended, the
     * whole walk looks at every node. That walk is rare: a node ends only after all it waits for ended (a cancel,
     * which ends nodes early, is walked whole anyway), so while any node runs or waits, a sink has not ended either.
     */
    record Graph(Map<UUID, Set<UUID>> waitsFor, Map<UUID, Set<UUID>> dependents, Set<UUID> sinks) {

        static Graph of(List<NodeRepository.NodeState> all, List<NodeRepository.Edge> edges) {
            Map<UUID, Set<UUID>> waitsFor = DeploymentEngine.waitsFor(all, edges);
            Map<UUID, Set<UUID>> dependents = new HashMap<>();
            waitsFor.forEach((node, dependencies) -> dependencies.forEach(dependency ->
                    dependents.computeIfAbsent(dependency, k -> new HashSet<>()).add(node)));
            Set<UUID> sinks = new HashSet<>();
            all.forEach(node -> {
                if (!dependents.containsKey(node.id)) {
                    sinks.add(node.id);
                }
            });
            return new Graph(waitsFor, dependents, Set.copyOf(sinks));
        }
    }

    /**
     * Which nodes each node waits for. Apply and plan nodes wait for their dependencies (a plan for its
     * dependencies' plans, to know whether their outputs will change); a destroy node
     * waits for the resources that depend on it to be destroyed, and in a deployment that also applies,
     * for every apply node (removals happen after the rest).
     */
    private static Map<UUID, Set<UUID>> waitsFor(List<NodeRepository.NodeState> all, List<NodeRepository.Edge> edges) {
        Map<UUID, Set<UUID>> waits = new HashMap<>();
        Map<UUID, NodeOperation> operations = new HashMap<>();
        all.forEach(n -> operations.put(n.id, n.operation));
        for (NodeRepository.Edge edge : edges) {
            NodeOperation from = operations.get(edge.from());
            if (from == NodeOperation.DESTROY) {
                waits.computeIfAbsent(edge.to(), k -> new HashSet<>()).add(edge.from());
            } else if (from == NodeOperation.APPLY || from == NodeOperation.PLAN) {
                waits.computeIfAbsent(edge.from(), k -> new HashSet<>()).add(edge.to());
            }
        }
        List<UUID> applies = all.stream()
                .filter(n -> n.operation == NodeOperation.APPLY)
                .map(n -> n.id)
                .toList();
        if (!applies.isEmpty()) {
            all.stream()
                    .filter(n -> n.operation == NodeOperation.DESTROY)
                    .forEach(n ->
                            waits.computeIfAbsent(n.id, k -> new HashSet<>()).addAll(applies));
        }
        return waits;
    }

    private static String skipReason(DeploymentNode node, DeploymentNode blocker) {
        if (node.operation() == NodeOperation.DESTROY && blocker.operation() == NodeOperation.APPLY) {
            return "not removed: " + blocker.identity() + " did not succeed, so removals were left alone";
        }
        return "dependency " + blocker.identity() + " " + blocker.status().wireName();
    }

    /**
     * Skips a node when nothing changed, or queues a job for its runner. A node that will run whatever its
     * inputs are (a resource not created yet, a forced deployment) is queued as it is: its inputs are resolved
     * when its job is claimed, so that an advance only changes statuses and adds jobs. Any other is resolved
     * now, to know whether it runs at all.
     */
    private void dispatch(Step step, DeploymentNode node) {
        Deployment deployment = step.deployment;
        Instant now = step.now;
        Optional<ActiveResource> active = step.active(node);
        if (deployment.planning()) {
            dispatchPlan(step, node, active);
            return;
        }
        if (node.status() == NodeStatus.PLANNED) {
            long serial =
                    states.serialOf(deployment.environmentId(), node.identity().toString());
            if (node.plannedSerial() != null && serial != node.plannedSerial()) {
                // the approval was checked against the state; this is the fence for what moved since
                node.end(
                        NodeStatus.FAILED,
                        "not applied: the state of " + node.identity() + " moved after the approved plan (serial "
                                + node.plannedSerial() + " when planned, " + serial + " now); plan again",
                        null,
                        now);
                return;
            }
        }
        if (node.operation() == NodeOperation.APPLY && !node.fixed() && (active.isEmpty() || deployment.force())) {
            queue(step, node, active.isPresent() ? "update" : "create", null);
            return;
        }
        ResolvedNode resolved;
        String action;
        try {
            switch (node.operation()) {
                case CHECK -> {
                    if (active.isEmpty()) {
                        node.end(NodeStatus.SKIPPED, "not checked: the resource is no longer active", null, now);
                        return;
                    }
                    // what its last apply used, copied when the check started: queued as it is, never resolved again
                    queue(step, node, "check", null);
                    return;
                }
                case DESTROY -> {
                    if (active.isEmpty()) {
                        // someone else removed it meanwhile: what this node was for already holds
                        node.nothingToDestroy(now);
                        return;
                    }
                    resolved = resolver.read(activeResources.resolvedOf(active.get()));
                    action = "delete";
                }
                case PLAN -> {
                    // outputs of a dependency whose plan changes it are known only after its apply, never today's
                    // values
                    Set<ResourceIdentity> changing = nodes.dependenciesWithPlannedChanges(deployment.id(), node.id());
                    Resolution resolution = resolver.resolve(node, step.environment(), true, changing);
                    if (!resolution.isComplete()) {
                        node.end(
                                NodeStatus.SKIPPED,
                                "cannot plan: " + String.join(", ", new TreeSet<>(resolution.unknown()))
                                        + " would be known after apply"
                                        + (changing.isEmpty()
                                                ? ""
                                                : " of "
                                                        + String.join(
                                                                ", ",
                                                                changing.stream()
                                                                        .map(ResourceIdentity::toString)
                                                                        .sorted()
                                                                        .toList())
                                                        + ", which this plan changes"),
                                null,
                                now);
                        return;
                    }
                    resolved = resolver.withSecretInputs(
                            step.lookups(), node.moduleSlug(), node.moduleVersion(), resolver.toResolved(resolution));
                    action = active.isPresent() ? "update" : "create";
                }
                default -> {
                    resolved = resolver.forApply(node, step.environment(), step.lookups())
                            .node();
                    action = active.isPresent() ? "update" : "create";
                }
            }
        } catch (RulesException e) {
            String error = NodeResolver.unresolved(e);
            logs.appendNodeLine(deployment.id(), node.id(), "error", "resolution", error, now);
            checks.ended(deployment, node, NodeStatus.FAILED, error, null, now);
            node.end(NodeStatus.FAILED, error, null, now);
            return;
        }
        NodeResolver.Resolved sealed = resolver.sealed(node, step.lookups(), resolved);
        if (node.operation() == NodeOperation.APPLY
                && !deployment.force()
                && active.isPresent()
                && sealed.fingerprint().matches(active.get().fingerprint())) {
            node.unchanged(sealed.sealed(), sealed.fingerprint(), now);
            return;
        }
        queue(step, node, action, sealed);
    }

    /**
     * Queues the node and its job, stamped with the moment they are queued rather than when the advance began:
     * an advance that dispatches many nodes, or first works out what a deployment removes, takes a while, and a
     * job's pickup time is counted from its stamp.
     */
    private void queue(Step step, DeploymentNode node, String action, NodeResolver.Resolved resolved) {
        Instant queuedAt = clock.instant();
        node.queue(action, resolved, queuedAt);
        enqueue(step.deployment, node, queuedAt, step.wake);
    }

    /** Creates the job for a node's current attempt; its runner's waiting claims are woken once per advance. */
    private void enqueue(Deployment deployment, DeploymentNode node, Instant now, Set<UUID> wake) {
        Job job = new Job(
                deployment.orgId(),
                deployment.id(),
                node.id(),
                node.runnerId(),
                node.attempt(),
                node.operation() == NodeOperation.CHECK,
                now);
        if (deployment.planning()) {
            job.planOnly();
        }
        jobs.persist(job);
        wake.add(node.runnerId());
    }

    /**
     * Wakes the waiting claims of the organization's runners that have queued jobs, when it runs fewer jobs than
     * {@code limit} (its quota of concurrent jobs): called after a job of it ended, once that is committed, and
     * when no claim took the slot the job freed. A claim that found the quota full waits for this. One statement
     * outside any transaction; two jobs that ended together each see both slots free, so neither misses the wake.
     */
    public void wakeRunnersForFreeSlots(UUID orgId, int limit) {
        notifications.notifyEach(
                Notifications.JOBS,
                "select distinct runner_id::text from job where org_id = ? and status = 'queued'"
                        + " and (select count(*) from job where org_id = ? and status = 'running') < ?",
                orgId,
                orgId,
                limit);
    }

    /** A job that ended: its deployment, to advance, and its node, whose dependents may go now. */
    public record Ended(UUID deploymentId, UUID nodeId) {}

    /**
     * Records what a runner reported: the job, the node and the environment's active resource. Returns
     * the deployment to advance once this transaction has committed ({@link #advance}), empty when the
     * job had already ended. Only the job's and the node's rows are locked, so that results of one
     * deployment are recorded in parallel; advancing, which needs the deployment to itself, is the only
     * part that runs one at a time.
     */
    @Transactional
    public Optional<Ended> jobEnded(UUID jobId, JobOutcome outcome) {
        Job job = jobs.lock(jobId).orElseThrow();
        if (job.status() != JobStatus.RUNNING) {
            return Optional.empty();
        }
        Deployment deployment = deployments.findById(job.deploymentId());
        Instant now = clock.instant();
        DeploymentNode node = nodes.lock(job.nodeId());
        // the plain writes of the result, sent in one round trip: with the statement that resolves the resource's
        // issues after a successful apply, on their own otherwise
        List<Statement> writes = new ArrayList<>();
        writes.add(
                jobs.ending(job, outcome.status() == NodeStatus.CANCELLED ? JobStatus.CANCELLED : JobStatus.DONE, now));
        writes.add(states.releasingLocksOf(job.id()));
        if (job.isPlanOnly()) {
            InTransaction.executeAll(jobs.getEntityManager(), writes);
            // the plan of a gated deployment: what it would do, and the state it was planned against
            if (outcome.status() == NodeStatus.SUCCEEDED) {
                node.planned(
                        outcome.planSummary() == null ? json.createObjectNode() : outcome.planSummary(),
                        states.serialOf(
                                deployment.environmentId(), node.identity().toString()),
                        now);
            } else {
                node.end(outcome.status(), outcome.error(), null, now);
            }
            return Optional.of(new Ended(deployment.id(), node.id()));
        }
        if (outcome.status() == NodeStatus.SUCCEEDED) {
            UUID environmentId = deployment.environmentId();
            switch (node.operation()) {
                case APPLY ->
                    writes.add(activeResources.recording(new Provisioned(
                            environmentId,
                            node.identity(),
                            node.moduleId(),
                            node.moduleSlug(),
                            node.moduleVersion(),
                            node.runnerId(),
                            node.spec(),
                            node.fingerprint(),
                            resolver.open(node),
                            outcome.outputs(),
                            json.valueToTree(outcome.sensitiveOutputs()),
                            outcome.resources(),
                            NodeSpecs.dependencies(node.spec()),
                            deployment.id())));
                case DESTROY -> activeResources.remove(environmentId, node.identity());
                default -> {}
            }
        }
        if (outcome.checkReport() != null && node.operation() == NodeOperation.CHECK) {
            node.reported(outcome.checkReport());
        }
        checks.ended(deployment, node, outcome.status(), outcome.error(), outcome.checkReport(), now, writes);
        node.end(outcome.status(), outcome.error(), outcome.planSummary(), now);
        return Optional.of(new Ended(deployment.id(), node.id()));
    }

    /**
     * A job whose lease expired: its runner is lost. Retries the node when attempts remain. Returns the
     * deployment to start next when this one finished.
     */
    @Transactional
    public Optional<UUID> leaseExpired(UUID jobId) {
        UUID deploymentId = jobs.getEntityManager()
                .createQuery("select j.deploymentId from Job j where j.id = ?1", UUID.class)
                .setParameter(1, jobId)
                .getSingleResult();
        environments.lock((UUID) deployments.environmentAndStatus(deploymentId).orElseThrow()[0]);
        Deployment deployment = deployments.lock(deploymentId);
        Job job = jobs.lock(jobId).orElseThrow();
        Instant now = clock.instant();
        if (job.status() != JobStatus.RUNNING || job.holdsLease(now)) {
            return Optional.empty();
        }
        job.end(JobStatus.LOST, now);
        leaseExpiries.increment();
        states.releaseLocksOf(job.id());
        DeploymentNode node = nodes.lock(job.nodeId());
        LOG.warnf(
                "Job %s of %s lost its runner (lease expired at %s)", job.id(), node.identity(), job.leaseExpiresAt());
        if (!deployment.cancelRequested() && node.attempt() < settings.maxAttempts()) {
            node.requeue(now);
            Set<UUID> wake = new HashSet<>();
            enqueue(deployment, node, now, wake);
            wake.forEach(runner -> notifications.notifyOnCommit(Notifications.JOBS, runner.toString()));
        } else {
            NodeStatus status = deployment.cancelRequested() ? NodeStatus.CANCELLED : NodeStatus.FAILED;
            String error = "runner lost: no heartbeat before the lease expired (attempt " + node.attempt() + ")";
            if (!job.isPlanOnly()) {
                checks.ended(deployment, node, status, error, null, now);
            }
            node.end(status, error, null, now);
        }
        return advanceLocked(deployment);
    }

    /**
     * A deployment's graph, which never changes once it started: built once, not at every job end (1,500
     * edges for 500 nodes). A bounded cache; an entry goes when its deployment finishes.
     */
    private Graph graphOf(UUID deploymentId, List<NodeRepository.NodeState> all) {
        Graph cached = graphs.get(deploymentId);
        if (cached != null) {
            return cached;
        }
        Graph graph = Graph.of(all, nodes.edges(deploymentId));
        if (graphs.size() >= 256) {
            graphs.clear();
        }
        graphs.put(deploymentId, graph);
        return graph;
    }

    /**
     * A queued deployment that cannot start (a reconcile whose manifest no longer expands with the rules of today):
     * it fails at once with the reason, announced like any failed deployment. The caller holds the environment's
     * lock and the deployment is its head.
     */
    public void failUnstarted(Deployment deployment, String reason) {
        Instant now = clock.instant();
        deployment.start(now);
        deployment.finish(DeploymentStatus.FAILED, reason, now);
        finished(deployment);
    }

    /**
     * After a deployment ends: wake its waiters and settle the environment. Returns the next deployment of
     * the environment, which starts in a transaction of its own once this one committed: if it cannot
     * advance, this one has still ended.
     */
    private Optional<UUID> finished(Deployment deployment) {
        graphs.remove(deployment.id());
        announce(
                deployment,
                switch (deployment.status()) {
                    case SUCCEEDED -> WebhookEvent.DEPLOYMENT_SUCCEEDED;
                    case CANCELLED -> WebhookEvent.DEPLOYMENT_CANCELLED;
                    default -> WebhookEvent.DEPLOYMENT_FAILED;
                });
        if (deployment.mode() == DeploymentMode.CHECK) {
            afterCommit(() -> checkFinished.fire(new CheckFinished(deployment.environmentId())));
        }
        countFinished(deployment);
        notifications.notifyOnCommit(Notifications.DEPLOYMENTS, deployment.id().toString());
        if (deployment.deletesEnvironment()) {
            if (deployment.status() == DeploymentStatus.SUCCEEDED) {
                environmentRecords.deleteAll(deployment.environmentId());
                return Optional.empty();
            }
            environments.moveTo(deployment.environmentId(), EnvironmentStatus.DELETE_FAILED);
        }
        return deployments.head(deployment.environmentId()).map(Deployment::id);
    }

    /**
     * Tells the organization's webhooks that a deployment started or ended, in this transaction (the outbox),
     * when any asked for it. Checks are not announced: what they find is, as issues.
     */
    private void announce(Deployment deployment, String type) {
        if (deployment.mode() == DeploymentMode.CHECK || !webhooks.subscribed(deployment.orgId(), type)) {
            return;
        }
        String org = organizationSlug(deployment);
        EnvironmentRef environment = environments.reference(deployment.environmentId(), org);
        ObjectNode data = json.createObjectNode()
                .put("id", deployment.id().toString())
                .put("org", org)
                .put("project", environment.project())
                .put("env", environment.env())
                .put("mode", deployment.mode().wireName())
                .put("status", deployment.status().wireName())
                .put("created_by", deployment.createdByName());
        if (deployment.error() != null) {
            data.put("error", deployment.error());
        }
        if (WebhookEvent.APPROVAL_NEEDED.equals(type)) {
            data.put("fingerprint", deployment.planFingerprint())
                    .put("expires_at", deployment.approvalExpiresAt().toString());
        }
        webhooks.publish(deployment.orgId(), type, "deployment:" + deployment.id(), data);
    }

    /** Runs {@code task} on a worker thread once the current transaction has committed (never if it rolls back). */
    private void afterCommit(Runnable task) {
        AfterCommit.run(
                transactions, () -> Infrastructure.getDefaultWorkerPool().execute(task));
    }

    private String organizationSlug(Deployment deployment) {
        return organizations.slugOf(deployment.orgId());
    }
}
