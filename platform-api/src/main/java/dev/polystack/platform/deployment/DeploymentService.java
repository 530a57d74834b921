package dev.polystack.platform.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.platform.common.sql.Autocommit;
import dev.polystack.platform.common.sql.ScalarQueries;
import dev.polystack.platform.common.web.EntityTags;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.crypto.SecretBox;
import dev.polystack.platform.deployment.model.ApprovalRepository;
import dev.polystack.platform.deployment.model.Deployment;
import dev.polystack.platform.deployment.model.DeploymentMode;
import dev.polystack.platform.deployment.model.DeploymentNode;
import dev.polystack.platform.deployment.model.DeploymentRepository;
import dev.polystack.platform.deployment.model.DeploymentStatus;
import dev.polystack.platform.deployment.model.JobRepository;
import dev.polystack.platform.deployment.model.NodeOperation;
import dev.polystack.platform.deployment.model.NodeRepository;
import dev.polystack.platform.deployment.model.NodeResolver;
import dev.polystack.platform.deployment.model.NodeSpecs;
import dev.polystack.platform.deployment.model.NodeStatus;
import dev.polystack.platform.deployment.model.ResolvedNode;
import dev.polystack.platform.deployment.scheduling.DeploymentEngine;
import dev.polystack.platform.deployment.scheduling.EngineSettings;
import dev.polystack.platform.deployment.scheduling.Removals;
import dev.polystack.platform.environment.EnvironmentService;
import dev.polystack.platform.environment.EnvironmentService.EnvironmentRef;
import dev.polystack.platform.environment.EnvironmentStatus;
import dev.polystack.platform.envtype.ApprovalPolicy;
import dev.polystack.platform.envtype.CheckSchedule;
import dev.polystack.platform.envtype.EnvTypeService;
import dev.polystack.platform.manifest.GraphPlanner;
import dev.polystack.platform.manifest.ManifestFormat;
import dev.polystack.platform.manifest.ManifestProblems;
import dev.polystack.platform.manifest.ManifestService;
import dev.polystack.platform.manifest.ManifestVersion;
import dev.polystack.platform.module.ModuleService;
import dev.polystack.platform.organization.OrganizationService;
import dev.polystack.platform.quota.Quota;
import dev.polystack.platform.quota.QuotaService;
import dev.polystack.platform.resource.ActiveResource;
import dev.polystack.platform.resource.ActiveResourceService;
import dev.polystack.platform.resource.Fingerprint;
import dev.polystack.platform.resource.ResourceDependency;
import dev.polystack.platform.runner.RunnerService;
import dev.polystack.platform.security.OrgScope;
import dev.polystack.platform.security.Role;
import dev.polystack.rules.Problem;
import dev.polystack.rules.ResourceIdentity;
import dev.polystack.rules.RulesException;
import dev.polystack.rules.graph.Edge;
import dev.polystack.rules.graph.GraphNode;
import dev.polystack.rules.graph.Outputs;
import dev.polystack.rules.graph.Resolution;
import dev.polystack.rules.graph.Resolver;
import dev.polystack.rules.graph.ResourceGraph;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** Creating, listing, cancelling deployments; the engine moves them forward. */
@ApplicationScoped
public class DeploymentService {

    @Inject
    Autocommit autocommit;

    @Inject
    DeploymentRepository deployments;

    @Inject
    NodeRepository nodes;

    @Inject
    LatestNodeStatuses latestStatuses;

    @Inject
    JobRepository jobs;

    @Inject
    DeploymentEngine engine;

    @Inject
    EnvironmentService environments;

    @Inject
    ManifestService manifests;

    @Inject
    GraphPlanner planner;

    @Inject
    ModuleService modules;

    @Inject
    RunnerService runners;

    @Inject
    ActiveResourceService activeResources;

    @Inject
    EngineSettings settings;

    @Inject
    Removals removals;

    @Inject
    SecretBox secretBox;

    @Inject
    ObjectMapper json;

    @Inject
    EnvTypeService envTypes;

    @Inject
    ApprovalRepository approvals;

    @Inject
    NodeResolver resolver;

    @Inject
    Clock clock;

    @Inject
    QuotaService quotas;

    @Inject
    OrganizationService organizations;

    /** The result of a create: the deployment's id, and whether it was made now or found by its idempotency key. */
    public record Created(UUID id, boolean replayed) {}

    /**
     * Creates a deployment and starts it when its environment is free. It commits before the answer's view is read
     * ({@link #get}, in a transaction of its own): the runners can claim the first jobs meanwhile (at 500 nodes the
     * view took about 20 ms).
     */
    @Transactional
    public Created create(
            OrgScope scope, String project, String env, CreateDeploymentRequest request, String idempotencyKey) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        Instant now = clock.instant();
        environments.lock(environment.id());
        if (idempotencyKey != null) {
            Optional<Deployment> earlier = deployments.byIdempotencyKey(
                    environment.id(), idempotencyKey, now.minus(settings.idempotencyWindow()));
            if (earlier.isPresent()) {
                return new Created(earlier.get().id(), true);
            }
        }
        if (environment.status() != EnvironmentStatus.ACTIVE
                && !(environment.status() == EnvironmentStatus.DELETE_FAILED
                        && request.mode() == DeploymentMode.DESTROY)) {
            throw PlatformException.conflict("environment `" + environment.path() + "` is "
                    + environment.status().wireName() + "; it takes no new deployments");
        }
        if (request.mode() == DeploymentMode.CHECK) {
            throw PlatformException.invalid(
                    "/mode", "checks are started with POST …/envs/" + environment.env() + "/checks");
        }
        quotas.requireQueueRoom(environment.orgId(), environment.id(), environment.path());
        boolean force = Boolean.TRUE.equals(request.force());
        // a deployment goes before checks: those queued or running are cancelled (they only read)
        boolean checkStillRuns = cancelChecks(environment);
        Deployment deployment = switch (request.mode()) {
            case PLAN, DEPLOY -> fromManifest(scope, environment, request, force, idempotencyKey, now);
            case DESTROY -> destroy(scope, environment, force, false, idempotencyKey, now);
            case ROLLBACK -> rollback(scope, environment, request, force, idempotencyKey, now);
            case DRY_RUN, CHECK ->
                throw new IllegalArgumentException(request.mode().wireName() + " is not created here");
        };
        if (!checkStillRuns) {
            engine.advanceLocked(deployments.lock(deployment.id()));
        }
        return new Created(deployment.id(), false);
    }

    /**
     * Asks every unfinished check of the environment to stop. True when one still runs (its jobs stop at
     * their next heartbeat; the next deployment starts when it has ended).
     */
    private boolean cancelChecks(EnvironmentRef environment) {
        boolean running = false;
        for (Deployment check : deployments.unfinished(environment.id(), DeploymentMode.CHECK)) {
            Deployment locked = deployments.lock(check.id());
            locked.requestCancel(clock.instant());
            engine.advanceLocked(locked);
            if (!locked.status().isTerminal()) {
                running = true;
            }
        }
        return running;
    }

    /**
     * Takes an active environment's row lock when no other transaction (another replica's scheduler) holds it
     * and nothing of it runs or waits; false otherwise, and then the caller leaves it alone.
     */
    private boolean lockIfIdle(UUID environmentId) {
        boolean locked = !ScalarQueries.of(
                        deployments.getEntityManager(),
                        "select id from environment where id = ?1 and status = 'active' for update skip locked",
                        "id",
                        UUID.class)
                .setParameter(1, environmentId)
                .getResultList()
                .isEmpty();
        return locked && deployments.head(environmentId).isEmpty();
    }

    /**
     * Whether the environment ?1 had a deployment that ended, or began and has not ended, after ?2: one probe of
     * {@code deployment_last_activity_idx} (V37), whose expression this repeats.
     */
    static final String ACTIVE_SINCE = "select exists (select 1 from deployment where environment_id = ?1"
            + " and coalesce(finished_at, created_at) > ?2) as active";

    /** Who a scheduled check was created by ({@code created_by_name}; it has no {@code created_by}). */
    public static final String SCHEDULED_CHECK = "scheduled check";

    /**
     * Starts a scheduled check of an environment when it is still due: taken under its row lock, skipped when
     * another replica holds it, and looked at again under the lock (nothing runs or waits, its interval has
     * passed since its last deployment or check ended, its organization has room for another check).
     */
    @Transactional
    public boolean scheduledCheck(UUID environmentId, CheckSchedule schedule, Instant now, int maxPerOrganization) {
        if (!lockIfIdle(environmentId)) {
            return false;
        }
        Instant since = now.minus(Duration.ofMinutes(schedule.intervalMinutes()));
        boolean recent = ScalarQueries.of(deployments.getEntityManager(), ACTIVE_SINCE, "active", Boolean.class)
                .setParameter(1, environmentId)
                .setParameter(2, since)
                .getSingleResult();
        if (recent) {
            return false;
        }
        EnvironmentRef environment = environments.reference(environmentId, null);
        // checks a person asked for are not counted (README)
        long running = deployments.runningScheduledChecks(environment.orgId(), SCHEDULED_CHECK);
        if (running >= maxPerOrganization) {
            return false;
        }
        Deployment deployment = new Deployment(
                environment.orgId(),
                environmentId,
                DeploymentMode.CHECK,
                null,
                null,
                false,
                false,
                null,
                null,
                SCHEDULED_CHECK,
                now);
        deployment.refreshOnly(Boolean.TRUE.equals(schedule.refreshOnly()));
        deployments.persist(deployment);
        deployments.flush();
        engine.advanceLocked(deployments.lock(deployment.id()));
        // it starts: an earlier look's failure to start it is over
        deployments
                .getEntityManager()
                .createNativeQuery("update environment set check_failed_reason = null, check_failed_at = null"
                        + " where id = ?1 and check_failed_reason is not null")
                .setParameter(1, environmentId)
                .executeUpdate();
        return true;
    }

    /**
     * Starts a check of every active resource of an environment: a plan of what each was last applied with,
     * never applied. Refused while a deployment of the environment runs or waits, since a check would
     * only see that deployment's half-done work.
     */
    @Transactional
    public DeploymentView check(OrgScope scope, String project, String env, boolean refreshOnly) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        Instant now = clock.instant();
        environments.lock(environment.id());
        if (environment.status() != EnvironmentStatus.ACTIVE) {
            throw PlatformException.conflict("environment `" + environment.path() + "` is "
                    + environment.status().wireName() + "; it is not checked");
        }
        Optional<Deployment> head = deployments.head(environment.id());
        if (head.isPresent()) {
            Deployment busy = head.get();
            throw PlatformException.conflict((busy.mode() == DeploymentMode.CHECK ? "a check (" : "deployment (")
                    + busy.mode().wireName() + ") " + busy.id() + " of `" + environment.path() + "` is "
                    + busy.status().wireName()
                    + "; checks run when the environment has no deployment running or waiting");
        }
        quotas.requireQueueRoom(environment.orgId(), environment.id(), environment.path());
        Deployment deployment = begin(scope, environment, DeploymentMode.CHECK, null, null, false, false, null, now);
        deployment.refreshOnly(refreshOnly);
        engine.advanceLocked(deployments.lock(deployment.id()));
        return view(deployment, environment, true);
    }

    /** The manifest's graph, with removals of active resources the graph no longer has. */
    private Deployment fromManifest(
            OrgScope scope,
            EnvironmentRef environment,
            CreateDeploymentRequest request,
            boolean force,
            String idempotencyKey,
            Instant now) {
        ManifestVersion manifest = manifest(environment, request.manifestVersion());
        ResourceGraph graph = planner.expand(environment, manifest.content(), manifest.format());
        Deployment deployment =
                begin(scope, environment, request.mode(), manifest.number(), null, force, false, idempotencyKey, now);
        addNodes(
                environment,
                deployment,
                graph,
                request.mode() == DeploymentMode.PLAN ? NodeOperation.PLAN : NodeOperation.APPLY,
                identity -> true);
        return deployment;
    }

    /**
     * Adds a node for each resource of the graph that {@code include} takes, and the edges between them. Looks up
     * every module and runner first: a runner that does not exist fails it before anything was added.
     */
    private void addNodes(
            EnvironmentRef environment,
            Deployment deployment,
            ResourceGraph graph,
            NodeOperation operation,
            Predicate<ResourceIdentity> include) {
        // looked up once per module and runner, not per node: each query would flush (and dirty-check) every node so
        // far
        Map<String, Optional<UUID>> moduleIds = new HashMap<>();
        Map<String, Optional<UUID>> runnerIds = new HashMap<>();
        List<DeploymentNode> added = new ArrayList<>();
        for (GraphNode node : graph.nodes().values()) {
            if (!include.test(node.identity())) {
                continue;
            }
            UUID moduleId = moduleIds
                    .computeIfAbsent(node.module().id(), slug -> modules.findId(environment.orgId(), slug))
                    .orElse(null);
            UUID runnerId = runnerIds
                    .computeIfAbsent(node.runnerId(), slug -> runners.findId(environment.orgId(), slug))
                    .orElseThrow(() -> PlatformException.unprocessable(
                            node.path(), "runner `" + node.runnerId() + "` does not exist"));
            added.add(new DeploymentNode(
                    deployment.id(),
                    node.identity(),
                    node.path(),
                    operation,
                    moduleId,
                    node.module().id(),
                    node.module().version(),
                    runnerId,
                    NodeSpecs.write(node)));
        }
        Map<ResourceIdentity, DeploymentNode> created = new LinkedHashMap<>();
        for (DeploymentNode node : added) {
            nodes.persist(node);
            created.put(node.identity(), node);
        }
        List<NodeRepository.Edge> edges = new ArrayList<>();
        for (Edge edge : graph.edges()) {
            if (created.containsKey(edge.from()) && created.containsKey(edge.to())) {
                edges.add(new NodeRepository.Edge(
                        created.get(edge.from()).id(), created.get(edge.to()).id(), edge.alias()));
            }
        }
        nodes.addEdges(deployment.id(), edges);
    }

    /**
     * Starts the reconcile deployment of an environment's drift whose policy is {@code auto} or {@code approve}:
     * a forced deploy of the current manifest, limited to the drifted resources (it removes nothing), naming the
     * issues it is for. It waits for approval of its plan when any of them has policy {@code approve} or needs a
     * delete or replace. Taken under the environment's row lock, skipped when another replica holds it or a deployment runs
     * or waits (the drift is looked at again when that ends). Empty when there was nothing to start.
     */
    @Transactional
    public Optional<UUID> reconcile(UUID environmentId, Instant now) {
        if (!lockIfIdle(environmentId)) {
            return Optional.empty();
        }
        @SuppressWarnings("unchecked")
        List<Object[]> waiting = deployments
                .getEntityManager()
                .createNativeQuery(RECONCILE_WAITING + " and i.environment_id = ?1")
                .setParameter(1, environmentId)
                .getResultList();
        if (waiting.isEmpty()) {
            return Optional.empty();
        }
        // the rules see the organization by its slug, as in any deployment
        EnvironmentRef environment =
                environments.reference(environmentId, organizations.slugOf(organizationOf(environmentId)));
        Optional<ManifestVersion> manifest = manifests.find(environmentId, null);
        if (manifest.isEmpty()) {
            return Optional.empty();
        }
        ResourceGraph graph = null;
        String cannotStart = null;
        try {
            graph = planner.expand(
                    environment, manifest.get().content(), manifest.get().format());
        } catch (PlatformException e) {
            cannotStart = "manifest " + manifest.get().number() + " does not expand with today's rules: "
                    + configurationProblem(e);
        }
        Set<ResourceIdentity> targets = new TreeSet<>();
        List<UUID> issues = new ArrayList<>();
        boolean gated = false;
        for (Object[] row : waiting) {
            ResourceIdentity identity = new ResourceIdentity((String) row[2], (String) row[3], (String) row[4]);
            // a resource the manifest no longer has is removed by the next deployment, not put back
            if (graph == null || graph.nodes().containsKey(identity)) {
                targets.add(identity);
                issues.add((UUID) row[1]);
                gated |= Boolean.TRUE.equals(row[5]);
            }
        }
        if (targets.isEmpty()) {
            return Optional.empty();
        }
        Deployment deployment = new Deployment(
                environment.orgId(),
                environmentId,
                DeploymentMode.DEPLOY,
                manifest.get().number(),
                null,
                true,
                false,
                null,
                null,
                "reconcile",
                now);
        deployment.reconcile(targets, issues);
        if (gated) {
            // policy approve, or a fix that deletes or replaces: planned, and applied only once approved
            ApprovalPolicy approval = envTypes.approvalPolicy(environment.orgId(), environment.envType());
            deployment.requireApproval((approval == null ? ApprovalPolicy.DEFAULT : approval).toJson());
        }
        deployments.persist(deployment);
        deployments.flush();
        if (cannotStart == null) {
            try {
                addNodes(environment, deployment, graph, NodeOperation.APPLY, targets::contains);
            } catch (PlatformException e) {
                cannotStart = configurationProblem(e);
            }
        }
        deployments
                .getEntityManager()
                .createNativeQuery("update issue set reconciled_by = ?1 where id in (?2)")
                .setParameter(1, deployment.id())
                .setParameter(2, issues)
                .executeUpdate();
        if (cannotStart != null) {
            // nobody is there to be told: the reconcile fails, saying why, and its issues wait for a person (tried
            // again at every tick it would fail the same way, and say so only in a log)
            engine.failUnstarted(deployments.lock(deployment.id()), "the reconcile could not start: " + cannotStart);
        } else {
            engine.advanceLocked(deployments.lock(deployment.id()));
        }
        return Optional.of(deployment.id());
    }

    /** What a problem of the configuration (4xx) says; anything else is not the configuration's, and is thrown on. */
    private static String configurationProblem(PlatformException e) {
        if (e.type().status() >= 500) {
            throw e;
        }
        return e.getMessage();
    }

    private UUID organizationOf(UUID environmentId) {
        return ScalarQueries.of(
                        deployments.getEntityManager(),
                        "select org_id from environment where id = ?1",
                        "org_id",
                        UUID.class)
                .setParameter(1, environmentId)
                .getSingleResult();
    }

    /**
     * Open drift not yet handed to a reconcile, whose policy is {@code auto} or {@code approve}: the environment
     * type's override for the resource type, else the resource type's own. Columns: environment, issue, type,
     * class, id, and whether its fix must wait for approval (policy approve, or destructive drift whatever the
     * policy).
     */
    static final String RECONCILE_WAITING = """
            select i.environment_id, i.id, i.res_type, i.res_class, i.res_id,
                   i.kind = 'destructive-drift' or coalesce(t.reconcile ->> i.res_type, r.reconcile, 'observe') = 'approve'
            from issue i join environment e on e.id = i.environment_id join env_type t on t.id = e.env_type_id
                 left join resource_type r on r.org_id = i.org_id and r.slug = i.res_type
            where i.state = 'open' and i.kind in ('drift', 'destructive-drift') and i.reconciled_by is null
              and coalesce(t.reconcile ->> i.res_type, r.reconcile, 'observe') in ('auto', 'approve')""";

    /** Tears every active resource down, dependents first. */
    Deployment destroy(
            OrgScope scope,
            EnvironmentRef environment,
            boolean force,
            boolean deleteEnvironment,
            String idempotencyKey,
            Instant now) {
        Deployment deployment = begin(
                scope, environment, DeploymentMode.DESTROY, null, null, force, deleteEnvironment, idempotencyKey, now);
        return deployment;
    }

    /** Deploys again the module versions and resolved inputs an earlier deployment applied. */
    private Deployment rollback(
            OrgScope scope,
            EnvironmentRef environment,
            CreateDeploymentRequest request,
            boolean force,
            String idempotencyKey,
            Instant now) {
        if (request.rollbackTo() == null) {
            throw PlatformException.invalid(
                    "/rollback_to", "is required for a rollback: the id of the deployment to go back to");
        }
        Deployment source = rollbackTarget(environment, request.rollbackTo());
        SortedSet<String> destroyed = removals.outsideOf(environment.id(), source.id());
        boolean allowDestroy = Boolean.TRUE.equals(request.allowDestroy());
        if (!destroyed.isEmpty() && !allowDestroy) {
            throw PlatformException.conflict(
                    "a rollback to deployment " + source.id() + " would destroy live resources it did not"
                            + " have: " + String.join(", ", destroyed)
                            + "; send \"allow_destroy\": true to destroy them (a dry-run with"
                            + " rollback_to shows what the rollback does)");
        }
        Deployment deployment = begin(
                scope,
                environment,
                DeploymentMode.ROLLBACK,
                source.manifestNumber(),
                source.id(),
                force,
                false,
                idempotencyKey,
                now);
        if (allowDestroy) {
            deployment.allowDestroying();
        }
        Map<UUID, DeploymentNode> copies = new HashMap<>();
        Map<ResourceIdentity, DeploymentNode> created = new LinkedHashMap<>();
        for (DeploymentNode original : nodes.of(source.id())) {
            if (original.operation() != NodeOperation.APPLY
                    || original.sealedResolved() == null
                    || !original.status().letsDependentsRun()) {
                continue;
            }
            DeploymentNode copy = new DeploymentNode(
                    deployment.id(),
                    original.identity(),
                    original.path(),
                    NodeOperation.APPLY,
                    original.moduleId(),
                    original.moduleSlug(),
                    original.moduleVersion(),
                    original.runnerId(),
                    original.spec());
            copy.preset(secretBox.seal(resolver.open(original), copy.resolvedBinding()));
            nodes.persist(copy);
            copies.put(original.id(), copy);
            created.put(copy.identity(), copy);
        }
        if (created.isEmpty()) {
            throw PlatformException.unprocessable(
                    "/rollback_to", "deployment `" + source.id() + "` applied no resource to go back to");
        }
        List<NodeRepository.Edge> edges = new ArrayList<>();
        for (NodeRepository.Edge edge : nodes.edges(source.id())) {
            if (copies.containsKey(edge.from()) && copies.containsKey(edge.to())) {
                edges.add(new NodeRepository.Edge(
                        copies.get(edge.from()).id(), copies.get(edge.to()).id(), edge.alias()));
            }
        }
        nodes.addEdges(deployment.id(), edges);
        return deployment;
    }

    private Deployment rollbackTarget(EnvironmentRef environment, UUID target) {
        Deployment source = deployments
                .find(environment.id(), target)
                .orElseThrow(() -> PlatformException.unprocessable(
                        "/rollback_to",
                        "deployment `" + target + "` is not a deployment of `" + environment.path() + "`"));
        if (!source.status().isTerminal()
                || (source.mode() != DeploymentMode.DEPLOY && source.mode() != DeploymentMode.ROLLBACK)) {
            throw PlatformException.unprocessable(
                    "/rollback_to", "only a finished deploy or rollback can be rolled back to");
        }
        return source;
    }

    /**
     * What a rollback to {@code target} would do, computed at once and not stored: every resource the target
     * applied is applied again with the target's module version and inputs (compared with what is live now);
     * a resource the target failed, skipped or did not reach is kept as it is; a live resource the target did
     * not have is destroyed with {@code allow_destroy}, kept otherwise (and the rollback refused).
     */
    @Transactional
    public DryRunView dryRunRollback(OrgScope scope, String project, String env, UUID target, boolean allowDestroy) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        Deployment source = rollbackTarget(environment, target);
        Map<ResourceIdentity, ActiveResource> before = new HashMap<>();
        activeResources.of(environment.id()).forEach(resource -> before.put(resource.identity(), resource));
        NodeResolver.Lookups lookups = resolver.lookups(environment.orgId());
        Map<ResourceIdentity, DryRunView.Node> views = new TreeMap<>();
        int add = 0;
        int change = 0;
        int destroy = 0;
        int unchanged = 0;
        for (DeploymentNode node : nodes.of(source.id())) {
            if (node.operation() != NodeOperation.APPLY) {
                continue;
            }
            ResourceIdentity identity = node.identity();
            ActiveResource active = before.get(identity);
            if (!node.status().letsDependentsRun() || node.sealedResolved() == null) {
                views.put(
                        identity,
                        rollbackNode(
                                node,
                                active,
                                "kept",
                                List.of("the target did not apply it ("
                                        + node.status().wireName() + "): "
                                        + (active == null ? "it stays absent" : "it stays as it is")),
                                null));
                unchanged++;
                continue;
            }
            ResolvedNode resolved = resolver.read(resolver.open(node));
            Fingerprint fingerprint = resolver.fingerprint(
                    lookups, node.moduleSlug(), node.moduleVersion(), identity.type(), node.spec(), resolved);
            ObjectNode inputs = resolved.inputs().deepCopy();
            resolved.sensitiveInputs().forEach(name -> inputs.put(name, "***"));
            if (active == null) {
                views.put(identity, rollbackNode(node, null, "added", List.of(), inputs));
                add++;
                continue;
            }
            boolean moduleChanged =
                    !active.moduleSlug().equals(node.moduleSlug()) || active.moduleVersion() != node.moduleVersion();
            List<String> reasons = fingerprint.differences(active.fingerprint(), moduleChanged);
            String kind = reasons.isEmpty()
                    ? "unchanged"
                    : moduleChanged
                            ? "module_changed"
                            : reasons.contains("inputs") ? "inputs_changed" : "definition_changed";
            views.put(identity, rollbackNode(node, active, kind, reasons, inputs));
            if (reasons.isEmpty()) {
                unchanged++;
            } else {
                change++;
            }
        }
        for (ActiveResource resource : before.values()) {
            ResourceIdentity identity = resource.identity();
            if (views.containsKey(identity)) {
                continue;
            }
            if (allowDestroy) {
                destroy++;
            } else {
                unchanged++;
            }
            views.put(
                    identity,
                    new DryRunView.Node(
                            identity.toString(),
                            identity.type(),
                            identity.resourceClass(),
                            identity.id(),
                            null,
                            resource.moduleSlug(),
                            resource.moduleVersion(),
                            null,
                            allowDestroy ? "removed" : "kept",
                            List.of(
                                    allowDestroy
                                            ? "the target did not have it"
                                            : "the target did not have it; destroyed only with allow_destroy"),
                            null,
                            List.of()));
        }
        return new DryRunView(
                source.manifestNumber(),
                new ArrayList<>(views.values()),
                List.of(),
                List.of(),
                new DryRunView.Summary(add, change, destroy, unchanged));
    }

    private DryRunView.Node rollbackNode(
            DeploymentNode node, ActiveResource active, String kind, List<String> reasons, JsonNode inputs) {
        ResourceIdentity identity = node.identity();
        return new DryRunView.Node(
                identity.toString(),
                identity.type(),
                identity.resourceClass(),
                identity.id(),
                node.path(),
                node.moduleSlug(),
                node.moduleVersion(),
                node.runnerId() == null ? null : runners.slugOf(node.runnerId()),
                kind,
                reasons,
                inputs,
                List.of());
    }

    private Deployment begin(
            OrgScope scope,
            EnvironmentRef environment,
            DeploymentMode mode,
            Integer manifestNumber,
            UUID rollbackOf,
            boolean force,
            boolean deleteEnvironment,
            String idempotencyKey,
            Instant now) {
        environments.lock(environment.id());
        if (idempotencyKey != null) {
            Optional<Deployment> earlier = deployments
                    .find("environmentId = ?1 and idempotencyKey = ?2", environment.id(), idempotencyKey)
                    .firstResultOptional();
            if (earlier.isPresent()) {
                deployments
                        .getEntityManager()
                        .createNativeQuery("update deployment set idempotency_key = null where id = ?1")
                        .setParameter(1, earlier.get().id())
                        .executeUpdate();
            }
        }
        Deployment deployment = new Deployment(
                environment.orgId(),
                environment.id(),
                mode,
                manifestNumber,
                rollbackOf,
                force,
                deleteEnvironment,
                idempotencyKey,
                scope.caller().principalId(),
                scope.caller().name(),
                now);
        ApprovalPolicy approval = envTypes.approvalPolicy(environment.orgId(), environment.envType());
        if (approval != null && approval.gatesDeployments() && mode != DeploymentMode.PLAN) {
            // it plans first, and applies what changes only once approved
            deployment.requireApproval(approval.toJson());
        }
        deployments.persist(deployment);
        deployments.flush();
        return deployment;
    }

    private ManifestVersion manifest(EnvironmentRef environment, Integer number) {
        return manifests
                .find(environment.id(), number)
                .orElseThrow(() -> number == null
                        ? PlatformException.unprocessable(
                                "/manifest_version",
                                "environment `" + environment.path() + "` has no manifest yet; PUT one first")
                        : PlatformException.unprocessable(
                                "/manifest_version",
                                "environment `" + environment.path() + "` has no manifest version " + number));
    }

    /** What deploying a manifest version would do: the resolved graph and its diff against the active resources. */
    @Transactional
    public DryRunView dryRun(OrgScope scope, String project, String env, Integer manifestVersion) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        ManifestVersion manifest = manifest(environment, manifestVersion);
        return preview(environment, manifest.content(), manifest.format(), manifest.number());
    }

    /** What deploying a manifest that is not stored would do; nothing is written. */
    @Transactional
    public DryRunView dryRun(OrgScope scope, String project, String env, String content, ManifestFormat format) {
        if (content == null || content.isBlank()) {
            throw PlatformException.invalid("/", "the manifest is empty");
        }
        return preview(environments.reference(scope, project, env), content, format, null);
    }

    /**
     * Resolves every node in dependency order: a dependency that will run (added or changed) has outputs only
     * known after its apply, so what depends on it shows them as unknown rather than as today's values. A
     * reference that today's outputs cannot satisfy is a 422 at its manifest path, as a deployment would
     * fail that node.
     */
    private DryRunView preview(
            EnvironmentRef environment, String content, ManifestFormat format, Integer manifestNumber) {
        ResourceGraph graph = planner.expand(environment, content, format);
        Map<ResourceIdentity, Outputs> outputs = activeResources.outputs(environment.id());
        Map<ResourceIdentity, ActiveResource> before = new HashMap<>();
        activeResources.of(environment.id()).forEach(resource -> before.put(resource.identity(), resource));
        NodeResolver.Lookups lookups = resolver.lookups(environment.orgId());
        Map<ResourceIdentity, DryRunView.Node> views = new TreeMap<>();
        Set<ResourceIdentity> runs = new HashSet<>();
        List<Problem> problems = new ArrayList<>();
        int add = 0;
        int change = 0;
        int unchanged = 0;
        for (ResourceIdentity identity : graph.order()) {
            GraphNode node = graph.nodes().get(identity);
            Resolution resolution;
            try {
                resolution = Resolver.resolve(
                        node,
                        environment.context(),
                        target -> runs.contains(target) ? null : outputs.get(target),
                        true);
            } catch (RulesException e) {
                problems.addAll(e.problems());
                continue;
            }
            Map<String, String> secretInputs =
                    lookups.secretInputs(node.module().id(), node.module().version());
            Fingerprint fingerprint = resolver.fingerprint(
                    lookups,
                    node.module().id(),
                    node.module().version(),
                    identity.type(),
                    NodeSpecs.write(node),
                    resolver.withSecretInputs(
                            lookups,
                            node.module().id(),
                            node.module().version(),
                            new ResolvedNode(
                                    resolution.inputs(),
                                    List.copyOf(new TreeSet<>(resolution.sensitiveInputs())),
                                    new TreeMap<>(resolution.providerConfigurations()),
                                    List.copyOf(new TreeSet<>(resolution.sensitiveProviderFields())))));
            ActiveResource active = before.get(identity);
            String kind;
            List<String> reasons;
            if (active == null) {
                kind = "added";
                reasons = List.of();
                add++;
            } else {
                boolean moduleChanged =
                        !active.moduleSlug().equals(node.module().id())
                                || active.moduleVersion() != node.module().version();
                reasons = new ArrayList<>(fingerprint.differences(active.fingerprint(), moduleChanged));
                if (!resolution.isComplete() && !reasons.contains("inputs")) {
                    reasons.add("inputs");
                }
                kind = reasons.isEmpty()
                        ? "unchanged"
                        : moduleChanged
                                ? "module_changed"
                                : reasons.contains("inputs") ? "inputs_changed" : "definition_changed";
                if (reasons.isEmpty()) {
                    unchanged++;
                } else {
                    change++;
                }
            }
            if (!kind.equals("unchanged")) {
                runs.add(identity);
            }
            ObjectNode inputs = resolution.inputs();
            resolution.sensitiveInputs().forEach(name -> inputs.put(name, "***"));
            secretInputs.keySet().forEach(name -> inputs.put(name, "***"));
            views.put(
                    identity,
                    new DryRunView.Node(
                            identity.toString(),
                            identity.type(),
                            identity.resourceClass(),
                            identity.id(),
                            node.path(),
                            node.module().id(),
                            node.module().version(),
                            node.runnerId(),
                            kind,
                            reasons,
                            inputs,
                            resolution.unknown().stream().sorted().toList()));
        }
        if (!problems.isEmpty()) {
            throw ManifestProblems.of(new RulesException(problems), content);
        }
        int destroy = 0;
        for (ActiveResource resource : before.values()) {
            if (!graph.nodes().containsKey(resource.identity())) {
                ResourceIdentity identity = resource.identity();
                views.put(
                        identity,
                        new DryRunView.Node(
                                identity.toString(),
                                identity.type(),
                                identity.resourceClass(),
                                identity.id(),
                                null,
                                resource.moduleSlug(),
                                resource.moduleVersion(),
                                null,
                                "removed",
                                List.of(),
                                null,
                                List.of()));
                destroy++;
            }
        }
        List<GraphView.Edge> edges = graph.edges().stream()
                .map(e -> new GraphView.Edge(e.from().toString(), e.to().toString(), e.alias()))
                .toList();
        List<List<String>> layers = graph.layers().stream()
                .map(l -> l.stream().map(ResourceIdentity::toString).toList())
                .toList();
        return new DryRunView(
                manifestNumber,
                new ArrayList<>(views.values()),
                edges,
                layers,
                new DryRunView.Summary(add, change, destroy, unchanged));
    }

    @Transactional
    public Page<DeploymentView> list(OrgScope scope, String project, String env, PageRequest page) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        int limit = page.limit();
        return Page.of(
                deployments.page(environment.id(), page.afterInstantAndId(), limit),
                limit,
                d -> d.createdAt() + "|" + d.id(),
                d -> view(d, environment, false));
    }

    @Transactional
    public DeploymentView get(OrgScope scope, String project, String env, UUID id) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        return view(require(environment, id), environment, true);
    }

    /** Whether a deployment has ended, or waits for a person's approval (nothing happens until then); for waiting. */
    @Transactional
    public boolean isSettled(OrgScope scope, String project, String env, UUID id) {
        DeploymentStatus status =
                require(environments.reference(scope, project, env), id).status();
        return status.isTerminal() || status == DeploymentStatus.AWAITING_APPROVAL;
    }

    /** Cancels a deployment; when that ends it, the next one of the environment starts after the cancel committed. */
    public DeploymentView cancel(OrgScope scope, String project, String env, UUID id) {
        Optional<UUID> next = QuarkusTransaction.requiringNew().call(() -> requestCancel(scope, project, env, id));
        engine.advance(next);
        return QuarkusTransaction.requiringNew().call(() -> {
            EnvironmentRef environment = environments.reference(scope, project, env);
            return view(require(environment, id), environment, true);
        });
    }

    private Optional<UUID> requestCancel(OrgScope scope, String project, String env, UUID id) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        // lock order environment → deployment; the deployment is loaded under the environment's lock
        environments.lock(environment.id());
        require(environment, id);
        Deployment deployment = deployments.lock(id);
        if (deployment.status().isTerminal()) {
            throw new PlatformException(
                    ProblemType.CONFLICT,
                    "deployment " + id + " already " + deployment.status().wireName());
        }
        deployment.requestCancel(clock.instant());
        return engine.advanceLocked(deployment);
    }

    @Transactional
    public GraphView graph(OrgScope scope, String project, String env, UUID id) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        Deployment deployment = require(environment, id);
        List<DeploymentNode> all = nodes.of(deployment.id());
        Map<UUID, DeploymentNode> byId = new HashMap<>();
        all.forEach(n -> byId.put(n.id(), n));
        List<GraphView.Node> views = new ArrayList<>();
        for (DeploymentNode node : all) {
            ResourceIdentity identity = node.identity();
            views.add(new GraphView.Node(
                    identity.type(),
                    identity.resourceClass(),
                    identity.id(),
                    node.moduleSlug(),
                    node.moduleVersion(),
                    node.runnerId() == null ? null : runners.slugOf(node.runnerId()),
                    deployment.id(),
                    displayStatus(node.status()),
                    null,
                    null,
                    node.finishedAt(),
                    null));
        }
        List<GraphView.Edge> edges = nodes.edges(deployment.id()).stream()
                .map(e -> new GraphView.Edge(
                        byId.get(e.from()).identity().toString(),
                        byId.get(e.to()).identity().toString(),
                        e.alias()))
                .toList();
        return new GraphView(views, edges);
    }

    /** The environment's current resources and what depends on what; their outputs only when asked for. */
    @Transactional
    public GraphView resourceGraph(OrgScope scope, String project, String env, boolean withOutputs) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        List<ActiveResourceService.GraphRow> resources = activeResources.graphRows(environment.id(), withOutputs);
        Map<ResourceIdentity, String> statuses = latestStatuses.of(
                environment.id(),
                resources.stream().map(ActiveResourceService.GraphRow::identity).collect(Collectors.toSet()));
        // a check's node says how the check went, not how the resource is: its findings are the open issues
        @SuppressWarnings("unchecked")
        List<Object[]> open = deployments
                .getEntityManager()
                .createNativeQuery("""
                        select res_type, res_class, res_id, count(*) from issue where environment_id = ?1 and state = 'open'
                        group by res_type, res_class, res_id""")
                .setParameter(1, environment.id())
                .getResultList();
        Map<String, Integer> issues = new HashMap<>();
        open.forEach(row -> issues.put(row[0] + "/" + row[1] + "/" + row[2], ((Number) row[3]).intValue()));
        List<GraphView.Node> views = new ArrayList<>();
        List<GraphView.Edge> edges = new ArrayList<>();
        for (ActiveResourceService.GraphRow resource : resources) {
            ResourceIdentity identity = resource.identity();
            views.add(new GraphView.Node(
                    identity.type(),
                    identity.resourceClass(),
                    identity.id(),
                    resource.moduleSlug(),
                    resource.moduleVersion(),
                    resource.runnerSlug(),
                    resource.lastDeploymentId(),
                    statuses.getOrDefault(identity, "succeeded"),
                    resource.outputs(),
                    resource.tofuResources(),
                    resource.updatedAt(),
                    issues.getOrDefault(identity.toString(), 0)));
            for (ResourceDependency dependency : resource.dependencies()) {
                edges.add(new GraphView.Edge(
                        identity.toString(), dependency.resource().toString(), dependency.alias()));
            }
        }
        return new GraphView(views, edges);
    }

    /**
     * The ETag of an environment's resource graph while nothing can change it: no deployment of the environment
     * is queued or running (only jobs of deployments change active resources and the statuses shown). It names
     * the newest deployment, which every later change needs to come after, and the database's newest migration
     * (an upgrade may rewrite what the graph is made of), and, like every tag, the running build
     * ({@link EntityTags#RELEASE}); empty while one is queued or runs. Read before the graph,
     * so an answer is never older than its tag.
     */
    public Optional<String> resourceGraphTag(OrgScope scope, String project, String env, boolean withOutputs) {
        // one statement outside a transaction, since a client that has the graph asks often; an unknown
        // environment has no tag (the read that follows answers 404)
        return autocommit.first(
                """
                        select cast(e.id as text),
                               (select count(*) from deployment d where d.environment_id = e.id and d.status in ('queued', 'running', 'awaiting_approval')),
                               (select cast(d.id as text) from deployment d where d.environment_id = e.id
                                order by d.created_at desc, d.id desc limit 1),
                               (%s)
                        from environment e join project p on p.id = e.project_id
                        where p.org_id = ? and p.slug = ? and e.slug = ?""".formatted(NEWEST_MIGRATION),
                row -> row.getLong(2) > 0
                        ? null
                        : EntityTags.of(
                                "graph",
                                row.getString(1),
                                Objects.requireNonNullElse(row.getString(3), "none"),
                                withOutputs ? "outputs" : "plain",
                                "schema " + row.getLong(4)),
                scope.orgId(),
                project,
                env);
    }

    /**
     * The ETag of a deployment that has ended (it no longer changes); empty before. Like the graph's, one statement
     * outside a transaction; an unknown deployment has no tag (the read that follows answers 404).
     */
    public Optional<String> endedTag(OrgScope scope, String project, String env, UUID id) {
        return autocommit.first(
                """
                        select d.finished_at, (%s)
                        from deployment d join environment e on e.id = d.environment_id join project p on p.id = e.project_id
                        where p.org_id = ? and p.slug = ? and e.slug = ? and d.id = ?""".formatted(NEWEST_MIGRATION),
                row -> {
                    OffsetDateTime finishedAt = row.getObject(1, OffsetDateTime.class);
                    return finishedAt == null ? null : endedTag(id, finishedAt.toInstant(), row.getLong(2));
                },
                scope.orgId(),
                project,
                env,
                id);
    }

    /**
     * A deployment has its end time once it has ended, and never changes after, except by an upgrade's migration:
     * the tag names the database's newest migration too.
     */
    public Optional<String> endedTag(UUID id, Instant finishedAt) {
        if (finishedAt == null) {
            return Optional.empty();
        }
        long schema = autocommit.first(NEWEST_MIGRATION, row -> row.getLong(1)).orElse(0L);
        return Optional.of(endedTag(id, finishedAt, schema));
    }

    private static String endedTag(UUID id, Instant finishedAt, long schema) {
        return EntityTags.of("deployment", id, finishedAt, "schema " + schema);
    }

    /**
     * The rank of the database's newest migration (Flyway's history): it moves when an upgrade migrates the
     * database, whose migration may rewrite what answers kept by clients under their ETags were made of.
     */
    private static final String NEWEST_MIGRATION = "select max(installed_rank) from flyway_schema_history";

    private Deployment require(EnvironmentRef environment, UUID id) {
        return deployments
                .find(environment.id(), id)
                .orElseThrow(
                        () -> PlatformException.notFound("deployment `" + id + "` of `" + environment.path() + "`"));
    }

    /** How a node's status is shown: as it is stored (a node is running from its job's claim on). */
    private static String displayStatus(NodeStatus status) {
        return status.wireName();
    }

    DeploymentView view(Deployment deployment, EnvironmentRef environment, boolean withNodes) {
        List<NodeRepository.NodeSummary> all = nodes.summaries(deployment.id());
        Map<String, Integer> progress = new TreeMap<>();
        for (NodeStatus status : NodeStatus.values()) {
            progress.put(status.wireName(), 0);
        }
        all.forEach(n -> progress.merge(n.status().wireName(), 1, Integer::sum));
        progress.put("total", all.size());
        progress.put(
                "done", (int) all.stream().filter(n -> n.status().isTerminal()).count());
        List<NodeView> nodeViews = null;
        if (withNodes) {
            Map<UUID, String> runnerSlugs = new HashMap<>();
            nodeViews = all.stream()
                    .map(n -> {
                        ResourceIdentity identity = n.identity();
                        String runner = n.runnerId() == null
                                ? null
                                : runnerSlugs.computeIfAbsent(n.runnerId(), runners::slugOf);
                        return new NodeView(
                                identity.type(),
                                identity.resourceClass(),
                                identity.id(),
                                n.path(),
                                n.operation().wireName(),
                                n.action(),
                                displayStatus(n.status()),
                                n.moduleSlug(),
                                n.moduleVersion(),
                                runner,
                                n.attempt(),
                                n.planSummary(),
                                n.error(),
                                n.queuedAt(),
                                n.startedAt(),
                                n.finishedAt());
                    })
                    .toList();
        }
        String waiting = null;
        if (withNodes
                && deployment.status() == DeploymentStatus.RUNNING
                && progress.getOrDefault(NodeStatus.QUEUED.wireName(), 0) > 0) {
            long running = quotas.used(deployment.orgId(), Quota.CONCURRENT_JOBS);
            int limit = quotas.limit(deployment.orgId(), Quota.CONCURRENT_JOBS);
            if (running >= limit) {
                waiting = "waiting for a job slot: the organization runs " + running + " of " + limit
                        + " concurrent jobs (quota `" + Quota.CONCURRENT_JOBS.wireName() + "`)";
            }
        }
        return new DeploymentView(
                deployment.id(),
                environment.project(),
                environment.env(),
                deployment.mode().wireName(),
                deployment.status().wireName(),
                deployment.manifestNumber(),
                deployment.rollbackOf(),
                deployment.force(),
                deployment.cancelRequested(),
                deployment.createdByName(),
                deployment.createdAt(),
                deployment.startedAt(),
                deployment.finishedAt(),
                deployment.error(),
                deployment.stalledReason(),
                deployment.stalledAt(),
                waiting,
                progress,
                changes(all),
                failures(all),
                nodeViews,
                deployment.targets() == null
                        ? null
                        : deployment.targets().stream()
                                .map(ResourceIdentity::toString)
                                .toList(),
                deployment.reconciles().isEmpty() ? null : deployment.reconciles(),
                deployment.mode() == DeploymentMode.CHECK ? deployment.refreshOnly() : null,
                gate(deployment));
    }

    /** A gated deployment's approval settings, state and decisions; null for any other. */
    private DeploymentView.Gate gate(Deployment deployment) {
        ApprovalPolicy policy = ApprovalPolicy.fromJson(deployment.approval());
        if (policy == null) {
            return null;
        }
        List<ApprovalView> decisions =
                approvals.of(deployment.id()).stream().map(ApprovalView::of).toList();
        return new DeploymentView.Gate(
                deployment.approvalState() == null
                        ? null
                        : deployment.approvalState().wireName(),
                policy.required(),
                policy.approvers().stream().map(Role::wireName).toList(),
                policy.allowSelfApproval(),
                deployment.planFingerprint(),
                deployment.approvalExpiresAt(),
                decisions);
    }

    private static final int MAX_FAILURES_SHOWN = 10;

    /** The plan summaries its resources reported, summed; null while none did. */
    private static DeploymentView.Changes changes(List<NodeRepository.NodeSummary> all) {
        int add = 0;
        int change = 0;
        int destroy = 0;
        boolean reported = false;
        for (NodeRepository.NodeSummary node : all) {
            JsonNode summary = node.planSummary();
            if (summary != null && summary.isObject()) {
                reported = true;
                add += summary.path("add").asInt();
                change += summary.path("change").asInt();
                destroy += summary.path("destroy").asInt();
            }
        }
        return reported ? new DeploymentView.Changes(add, change, destroy) : null;
    }

    /** Its first few failed resources, each with the first line of its error ({@code progress.failed} counts them all). */
    private static List<DeploymentView.Failure> failures(List<NodeRepository.NodeSummary> all) {
        return all.stream()
                .filter(node -> node.status() == NodeStatus.FAILED)
                .limit(MAX_FAILURES_SHOWN)
                .map(node -> new DeploymentView.Failure(node.identity().id(), firstLine(node.error())))
                .toList();
    }

    private static String firstLine(String error) {
        if (error == null) {
            return null;
        }
        String line = error.strip().lines().findFirst().orElse("");
        return line.length() > 300 ? line.substring(0, 299) + "…" : line;
    }
}
