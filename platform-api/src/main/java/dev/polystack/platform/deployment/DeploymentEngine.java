package dev.polystack.platform.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.platform.crypto.SecretBox;
import dev.polystack.platform.environment.EnvironmentService;
import dev.polystack.platform.environment.EnvironmentService.EnvironmentRef;
import dev.polystack.platform.environment.EnvironmentStatus;
import dev.polystack.platform.organization.OrganizationService;
import dev.polystack.platform.provider.ProviderService;
import dev.polystack.platform.resource.ActiveResource;
import dev.polystack.platform.resource.ActiveResourceService;
import dev.polystack.platform.resource.Fingerprint;
import dev.polystack.platform.resourcetype.ResourceTypeService;
import dev.polystack.rules.graph.ResourceTypeSpec;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.RulesException;
import dev.polystack.rules.graph.GraphNode;
import dev.polystack.rules.graph.Outputs;
import dev.polystack.rules.graph.Resolution;
import dev.polystack.rules.graph.Resolver;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.transaction.Transactional;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

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

    private final Map<UUID, List<NodeRepository.Edge>> edges = new java.util.concurrent.ConcurrentHashMap<>();

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
    ProviderService providers;

    @Inject
    dev.polystack.platform.module.ModuleService modules;

    @Inject
    Notifications notifications;

    @Inject
    ResourceTypeService resourceTypes;

    @Inject
    LogService logs;

    @Inject
    Removals removals;

    @Inject
    io.micrometer.core.instrument.MeterRegistry meters;

    @Inject
    EngineDiagnostics diagnostics;

    private io.micrometer.core.instrument.Counter advanceFailures;
    private io.micrometer.core.instrument.Counter leaseExpiries;
    private io.micrometer.core.instrument.Timer advanceDuration;

    @jakarta.annotation.PostConstruct
    void registerMetrics() {
        advanceFailures = io.micrometer.core.instrument.Counter.builder("polystack.engine.advance.failures")
                .description("Advances of a deployment that failed (the deployment is marked stalled and retried)").register(meters);
        leaseExpiries = io.micrometer.core.instrument.Counter.builder("polystack.jobs.lease.expiries")
                .description("Jobs whose runner was lost: no heartbeat before the lease expired").register(meters);
        advanceDuration = io.micrometer.core.instrument.Timer.builder("polystack.engine.advance.duration")
                .description("How long one advance of a deployment took").publishPercentileHistogram().register(meters);
    }

    /** Counts a deployment that ended, by how it ended. */
    private void countFinished(Deployment deployment) {
        meters.counter("polystack.deployments.finished", "status", deployment.status().wireName(), "mode", deployment.mode().wireName())
                .increment();
    }

    @Inject
    SecretBox secretBox;

    @Inject
    ObjectMapper json;

    @Inject
    EngineSettings settings;

    @Inject
    EnvironmentDeletion environmentDeletion;

    @Inject
    dev.polystack.platform.state.StateService states;

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
        UUID current = deploymentId;
        while (current != null) {
            UUID id = current;
            io.micrometer.core.instrument.Timer.Sample timing = io.micrometer.core.instrument.Timer.start(meters);
            try {
                current = QuarkusTransaction.requiringNew().call(() -> advanceOne(id)).orElse(null);
                timing.stop(advanceDuration);
            } catch (RuntimeException e) {
                stalled(id, e);
                return;
            }
        }
    }

    /** Advances the next deployment when a transaction that finished one has committed. */
    public void advance(Optional<UUID> next) {
        next.ifPresent(this::advance);
    }

    private Optional<UUID> advanceOne(UUID deploymentId) {
        Optional<Object[]> unlocked = deployments.environmentAndStatus(deploymentId);
        if (unlocked.isEmpty() || ((DeploymentStatus) unlocked.get()[1]).isTerminal()) {
            return Optional.empty();
        }
        environments.lock((UUID) unlocked.get()[0]);
        Deployment deployment = deployments.lock(deploymentId);
        Optional<UUID> next = advanceLocked(deployment);
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
        String what = e instanceof IllegalTransitionException || e instanceof RulesException ? e.getMessage() : "an unexpected error";
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
    Optional<UUID> advanceLocked(Deployment deployment) {
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
            // what is removed is decided now, from what the environment holds when this deployment starts
            removals.add(deployment);
        }
        EnvironmentRef environment = environments.reference(deployment.environmentId(), organizationSlug(deployment));
        if (deployment.cancelRequested()) {
            for (UUID nodeId : jobs.cancelQueued(deployment.id(), now)) {
                DeploymentNode node = nodes.lock(nodeId);
                if (node.status() == NodeStatus.QUEUED) {
                    node.end(NodeStatus.CANCELLED, "cancelled", null, now);
                }
            }
        }
        List<NodeRepository.NodeState> all = nodes.states(deployment.id());
        Map<UUID, Set<UUID>> waitsFor = waitsFor(all, edgesOf(deployment.id()));
        Map<UUID, NodeRepository.NodeState> byId = new java.util.HashMap<>();
        all.forEach(n -> byId.put(n.id, n));
        Lookups lookups = new Lookups(environment.orgId());
        boolean progressed = true;
        while (progressed) {
            progressed = false;
            for (NodeRepository.NodeState state : all) {
                if (state.status != NodeStatus.PENDING) {
                    continue;
                }
                if (deployment.cancelRequested()) {
                    DeploymentNode node = nodes.findById(state.id);
                    node.end(NodeStatus.CANCELLED, "cancelled", null, now);
                    state.status = node.status();
                    progressed = true;
                    continue;
                }
                Set<UUID> dependencies = waitsFor.getOrDefault(state.id, Set.of());
                if (dependencies.stream().anyMatch(id -> !byId.get(id).status.isTerminal())) {
                    continue;
                }
                Optional<NodeRepository.NodeState> blocker = dependencies.stream().map(byId::get)
                        .filter(d -> !d.status.letsDependentsRun()).findFirst();
                DeploymentNode node = nodes.findById(state.id);
                if (blocker.isPresent()) {
                    node.end(NodeStatus.SKIPPED, skipReason(node, nodes.findById(blocker.get().id)), null, now);
                } else {
                    dispatch(deployment, environment, lookups, node, now);
                }
                state.status = node.status();
                progressed = true;
            }
        }
        if (all.stream().allMatch(n -> n.status.isTerminal())) {
            long failed = all.stream().filter(n -> n.status == NodeStatus.FAILED).count();
            DeploymentStatus outcome = deployment.cancelRequested() ? DeploymentStatus.CANCELLED
                    : failed > 0 ? DeploymentStatus.FAILED : DeploymentStatus.SUCCEEDED;
            String error = failed == 0 ? null : failed + " of " + all.size() + " resources failed";
            deployment.finish(outcome, error, now);
            return finished(deployment);
        }
        return Optional.empty();
    }

    /**
     * Which nodes each node waits for. Apply and plan nodes wait for their dependencies (a plan for its
     * dependencies' plans, to know whether their outputs will change); a destroy node
     * waits for the resources that depend on it to be destroyed, and in a deployment that also applies,
     * for every apply node (removals happen after the rest).
     */
    private static Map<UUID, Set<UUID>> waitsFor(List<NodeRepository.NodeState> all, List<NodeRepository.Edge> edges) {
        Map<UUID, Set<UUID>> waits = new java.util.HashMap<>();
        Map<UUID, NodeOperation> operations = new java.util.HashMap<>();
        all.forEach(n -> operations.put(n.id, n.operation));
        for (NodeRepository.Edge edge : edges) {
            NodeOperation from = operations.get(edge.from());
            if (from == NodeOperation.DESTROY) {
                waits.computeIfAbsent(edge.to(), k -> new java.util.HashSet<>()).add(edge.from());
            } else if (from == NodeOperation.APPLY || from == NodeOperation.PLAN) {
                waits.computeIfAbsent(edge.from(), k -> new java.util.HashSet<>()).add(edge.to());
            }
        }
        List<UUID> applies = all.stream().filter(n -> n.operation == NodeOperation.APPLY).map(n -> n.id).toList();
        if (!applies.isEmpty()) {
            all.stream().filter(n -> n.operation == NodeOperation.DESTROY)
                    .forEach(n -> waits.computeIfAbsent(n.id, k -> new java.util.HashSet<>()).addAll(applies));
        }
        return waits;
    }

    private static String skipReason(DeploymentNode node, DeploymentNode blocker) {
        if (node.operation() == NodeOperation.DESTROY && blocker.operation() == NodeOperation.APPLY) {
            return "not removed: " + blocker.identity() + " did not succeed, so removals were left alone";
        }
        return "dependency " + blocker.identity() + " " + blocker.status().wireName();
    }

    /** Resolves a node, skips it when nothing changed, or queues a job for its runner. */
    private void dispatch(Deployment deployment, EnvironmentRef environment, Lookups lookups, DeploymentNode node, Instant now) {
        ResolvedNode resolved;
        String action;
        Optional<ActiveResource> active = activeResources.find(environment.id(), node.identity());
        try {
            switch (node.operation()) {
                case DESTROY -> {
                    if (active.isEmpty()) {
                        // someone else removed it meanwhile: what this node was for already holds
                        node.nothingToDestroy(now);
                        return;
                    }
                    resolved = read(activeResources.resolvedOf(active.get()));
                    action = "delete";
                }
                case PLAN -> {
                    // outputs of a dependency whose plan changes it are known only after its apply, never today's values
                    Set<ResourceIdentity> changing = nodes.dependenciesWithPlannedChanges(deployment.id(), node.id());
                    Resolution resolution = resolve(node, environment, true, changing);
                    if (!resolution.isComplete()) {
                        node.end(NodeStatus.SKIPPED, "cannot plan: " + String.join(", ", new java.util.TreeSet<>(resolution.unknown()))
                                + " would be known after apply" + (changing.isEmpty() ? ""
                                : " of " + String.join(", ", changing.stream().map(ResourceIdentity::toString).sorted().toList())
                                + ", which this plan changes"), null, now);
                        return;
                    }
                    resolved = withSecretInputs(lookups, node.moduleSlug(), node.moduleVersion(), toResolved(resolution));
                    action = active.isPresent() ? "update" : "create";
                }
                default -> {
                    resolved = node.spec().has("fixed") ? read(open(node))
                            : withSecretInputs(lookups, node.moduleSlug(), node.moduleVersion(), toResolved(resolve(node, environment, false)));
                    action = active.isPresent() ? "update" : "create";
                }
            }
        } catch (RulesException e) {
            String error = "its inputs could not be resolved: " + e.getMessage();
            logs.appendNodeLine(deployment.id(), node.id(), "error", "resolution", error, now);
            node.end(NodeStatus.FAILED, error, null, now);
            return;
        }
        Fingerprint fingerprint = fingerprint(lookups, node.moduleSlug(), node.moduleVersion(), node.identity().type(), node.spec(),
                resolved);
        byte[] sealed = secretBox.seal(write(resolved), node.resolvedBinding());
        if (node.operation() == NodeOperation.APPLY && !deployment.force() && active.isPresent()
                && fingerprint.matches(active.get().fingerprint())) {
            node.unchanged(sealed, fingerprint, now);
            return;
        }
        node.queue(action, sealed, fingerprint, now);
        enqueue(deployment, node, now);
    }

    /** Creates the job for a node's current attempt and wakes its runner's waiting claims. */
    private void enqueue(Deployment deployment, DeploymentNode node, Instant now) {
        Job job = new Job(deployment.orgId(), deployment.id(), node.id(), node.runnerId(), node.attempt(), now);
        jobs.persist(job);
        notifications.notifyOnCommit(Notifications.JOBS, node.runnerId().toString());
    }

    private Resolution resolve(DeploymentNode node, EnvironmentRef environment, boolean lenient) {
        return resolve(node, environment, lenient, Set.of());
    }

    /** Resolves with the active resources' outputs, except those of {@code unknown}, whose outputs are not known yet. */
    private Resolution resolve(DeploymentNode node, EnvironmentRef environment, boolean lenient, Set<ResourceIdentity> unknown) {
        GraphNode graphNode = NodeSpecs.read(json, node.spec());
        var outputs = activeResources.outputsLookup(environment.id());
        return Resolver.resolve(graphNode, environment.context(), id -> unknown.contains(id) ? null : outputs.apply(id), lenient);
    }

    /** Adds the module version's secret inputs, which never leave sealed storage before this point. */
    ResolvedNode withSecretInputs(Lookups lookups, String moduleSlug, Integer moduleVersion, ResolvedNode resolved) {
        Map<String, String> secrets = lookups.secretInputs(moduleSlug, moduleVersion);
        if (secrets.isEmpty()) {
            return resolved;
        }
        ObjectNode inputs = resolved.inputs().deepCopy();
        secrets.forEach(inputs::put);
        java.util.TreeSet<String> sensitive = new java.util.TreeSet<>(resolved.sensitiveInputs());
        sensitive.addAll(secrets.keySet());
        return new ResolvedNode(inputs, new ArrayList<>(sensitive), resolved.providers(), resolved.sensitiveProviderFields());
    }

    private ResolvedNode toResolved(Resolution resolution) {
        return new ResolvedNode(resolution.inputs(), new ArrayList<>(new java.util.TreeSet<>(resolution.sensitiveInputs())),
                new TreeMap<>(resolution.providerConfigurations()),
                new ArrayList<>(new java.util.TreeSet<>(resolution.sensitiveProviderFields())));
    }

    /**
     * What decides whether a node must run again: module version, resolved inputs, provider configuration,
     * the providers' secret values (by digest only), their sources and versions, and the output schema of
     * the resource type. The digest itself is made as it always was (module, inputs, provider configuration
     * and secrets), so that resources recorded before the parts were kept do not all run again.
     */
    Fingerprint fingerprint(Lookups lookups, String moduleSlug, Integer moduleVersion, String resourceType, JsonNode spec,
                            ResolvedNode resolved) {
        ObjectNode document = json.createObjectNode();
        document.put("module", moduleSlug);
        document.put("version", moduleVersion == null ? 0 : moduleVersion);
        document.set("inputs", resolved.inputs());
        document.set("providers", json.valueToTree(resolved.providers()));
        ObjectNode secrets = document.putObject("provider_secrets");
        NodeSpecs.providerKeys(spec).forEach((local, key) -> secrets.put(local, lookups.providerSecretsDigest(key)));
        ObjectNode providers = json.createObjectNode();
        providers.set("configuration", document.get("providers"));
        providers.set("secrets", secrets);
        providers.set("sources", NodeSpecs.providerSources(spec));
        ObjectNode parts = json.createObjectNode();
        parts.put("module", moduleSlug + "@" + (moduleVersion == null ? 0 : moduleVersion));
        parts.put("inputs", Digests.of(resolved.inputs()));
        parts.put("providers", Digests.of(providers));
        parts.put("schema", lookups.schemaDigest(resourceType));
        return new Fingerprint(Digests.of(document), parts);
    }

    /**
     * What many nodes of one deployment or dry-run look up alike, looked up once: module versions'
     * secret inputs and the digests of providers' secrets. Lives for one call, never longer (secrets
     * may change between calls).
     */
    final class Lookups {
        private final UUID orgId;
        private final Map<String, Map<String, String>> secretInputs = new java.util.HashMap<>();
        private final Map<String, String> providerSecrets = new java.util.HashMap<>();
        private final Map<String, String> schemas = new java.util.HashMap<>();

        Lookups(UUID orgId) {
            this.orgId = orgId;
        }

        Map<String, String> secretInputs(String moduleSlug, Integer moduleVersion) {
            if (moduleVersion == null) {
                return Map.of();
            }
            return secretInputs.computeIfAbsent(moduleSlug + "@" + moduleVersion, k -> modules.secretInputsOf(orgId, moduleSlug, moduleVersion));
        }

        String schemaDigest(String resourceType) {
            return schemas.computeIfAbsent(resourceType, type -> Digests.of(resourceTypes.spec(orgId, type)
                    .map(ResourceTypeSpec::outputSchema).filter(java.util.Objects::nonNull).orElse(json.nullNode())));
        }

        String providerSecretsDigest(String key) {
            return providerSecrets.computeIfAbsent(key, k -> {
                String[] parts = k.split("\\.", 2);
                return Digests.of(json.valueToTree(new TreeMap<>(providers.secretsFor(orgId, parts[0], parts[1]))));
            });
        }
    }

    Lookups lookups(UUID orgId) {
        return new Lookups(orgId);
    }

    /**
     * Records what a runner reported: the job, the node and the environment's active resource. Returns
     * the deployment to advance once this transaction has committed ({@link #advance}), empty when the
     * job had already ended. Only the job's and the node's rows are locked, so that results of one
     * deployment are recorded in parallel; advancing, which needs the deployment to itself, is the only
     * part that runs one at a time.
     */
    @Transactional
    public Optional<UUID> jobEnded(UUID jobId, JobOutcome outcome) {
        Job job = jobs.lock(jobId).orElseThrow();
        if (job.status() != JobStatus.RUNNING) {
            return Optional.empty();
        }
        Deployment deployment = deployments.findById(job.deploymentId());
        Instant now = clock.instant();
        DeploymentNode node = nodes.lock(job.nodeId());
        job.end(outcome.status() == NodeStatus.CANCELLED ? JobStatus.CANCELLED : JobStatus.DONE, now);
        states.releaseLocksOf(job.id());
        if (outcome.status() == NodeStatus.SUCCEEDED) {
            EnvironmentRef environment = environments.reference(deployment.environmentId(), organizationSlug(deployment));
            switch (node.operation()) {
                case APPLY -> activeResources.record(new dev.polystack.platform.resource.Provisioned(environment.id(),
                        node.identity(), node.moduleId(), node.moduleSlug(), node.moduleVersion(), node.runnerId(), node.spec(),
                        node.fingerprint(), open(node), outcome.outputs(), json.valueToTree(outcome.sensitiveOutputs()),
                        outcome.resources(), dependenciesOf(deployment, node), deployment.id()));
                case DESTROY -> activeResources.remove(environment.id(), node.identity());
                default -> {
                }
            }
        }
        node.end(outcome.status(), outcome.error(), outcome.planSummary(), now);
        return Optional.of(deployment.id());
    }

    /**
     * A job whose lease expired: its runner is lost. Retries the node when attempts remain. Returns the
     * deployment to start next when this one finished.
     */
    @Transactional
    public Optional<UUID> leaseExpired(UUID jobId) {
        UUID deploymentId = jobs.getEntityManager().createQuery("select j.deploymentId from Job j where j.id = ?1", UUID.class)
                .setParameter(1, jobId).getSingleResult();
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
        LOG.warnf("Job %s of %s lost its runner (lease expired at %s)", job.id(), node.identity(), job.leaseExpiresAt());
        if (!deployment.cancelRequested() && node.attempt() < settings.maxAttempts()) {
            node.requeue(now);
            enqueue(deployment, node, now);
        } else {
            node.end(deployment.cancelRequested() ? NodeStatus.CANCELLED : NodeStatus.FAILED,
                    "runner lost: no heartbeat before the lease expired (attempt " + node.attempt() + ")", null, now);
        }
        return advanceLocked(deployment);
    }

    /** The resources a node depends on, for destroying in the right order later. */
    private JsonNode dependenciesOf(Deployment deployment, DeploymentNode node) {
        var array = json.createArrayNode();
        for (Object[] row : nodes.dependencyIdentities(deployment.id(), node.id())) {
            array.addObject().put("type", (String) row[0]).put("class", (String) row[1]).put("id", (String) row[2]).put("alias", (String) row[3]);
        }
        return array;
    }

    /**
     * A deployment's edges, which never change after it was created: read once, not at every job end
     * (1,500 rows for 500 nodes). A bounded cache; an entry goes when its deployment finishes.
     */
    private List<NodeRepository.Edge> edgesOf(UUID deploymentId) {
        List<NodeRepository.Edge> cached = edges.get(deploymentId);
        if (cached != null) {
            return cached;
        }
        List<NodeRepository.Edge> loaded = List.copyOf(nodes.edges(deploymentId));
        if (edges.size() >= 256) {
            edges.clear();
        }
        edges.put(deploymentId, loaded);
        return loaded;
    }

    /**
     * After a deployment ends: wake its waiters and settle the environment. Returns the next deployment of
     * the environment, which starts in a transaction of its own once this one committed: if it cannot
     * advance, this one has still ended.
     */
    private Optional<UUID> finished(Deployment deployment) {
        edges.remove(deployment.id());
        countFinished(deployment);
        notifications.notifyOnCommit(Notifications.DEPLOYMENTS, deployment.id().toString());
        if (deployment.deletesEnvironment()) {
            if (deployment.status() == DeploymentStatus.SUCCEEDED) {
                environmentDeletion.deleteNow(deployment.environmentId());
                return Optional.empty();
            }
            environments.moveTo(deployment.environmentId(), EnvironmentStatus.DELETE_FAILED);
        }
        return deployments.head(deployment.environmentId()).map(Deployment::id);
    }

    private String organizationSlug(Deployment deployment) {
        return organizations.slugsOf(List.of(deployment.orgId())).get(deployment.orgId());
    }

    byte[] open(DeploymentNode node) {
        return secretBox.open(node.sealedResolved(), node.resolvedBinding());
    }

    ResolvedNode read(byte[] resolved) {
        try {
            return json.readValue(resolved, ResolvedNode.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private byte[] write(ResolvedNode resolved) {
        try {
            return json.writeValueAsBytes(resolved);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
