package dev.polystack.platform.deployment;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.platform.deployment.model.Approval;
import dev.polystack.platform.deployment.model.ApprovalRepository;
import dev.polystack.platform.deployment.model.ApprovalState;
import dev.polystack.platform.deployment.model.Deployment;
import dev.polystack.platform.deployment.model.DeploymentRepository;
import dev.polystack.platform.deployment.model.DeploymentStatus;
import dev.polystack.platform.deployment.model.NodeRepository;
import dev.polystack.platform.deployment.scheduling.DeploymentEngine;
import dev.polystack.platform.environment.EnvironmentService;
import dev.polystack.platform.environment.EnvironmentService.EnvironmentRef;
import dev.polystack.platform.envtype.ApprovalPolicy;
import dev.polystack.platform.security.OrgScope;
import dev.polystack.platform.security.Role;
import dev.polystack.platform.webhook.WebhookEvent;
import dev.polystack.platform.webhook.WebhookService;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Manual gates: members decide on the plan of a deployment that waits for approval. A decision is bound to the
 * plan's fingerprint; enough approvals let the deployment apply, one rejection ends it. Where a planned
 * resource's state or inputs moved since the plan, approving fails the deployment as stale (409): what would
 * apply is no longer what was reviewed, and a new deployment plans again.
 */
@ApplicationScoped
public class ApprovalService {

    private static final Logger LOG = Logger.getLogger(ApprovalService.class);

    @Inject
    ApprovalRepository approvals;

    @Inject
    EnvironmentService environments;

    @Inject
    DeploymentRepository deployments;

    @Inject
    NodeRepository nodes;

    @Inject
    DeploymentEngine engine;

    @Inject
    DeploymentService deploymentService;

    @Inject
    WebhookService webhooks;

    @Inject
    ObjectMapper json;

    @Inject
    Clock clock;

    /** What a decision did; {@code stale} says why the plan could not be approved any more. */
    private record Outcome(ApprovalView approval, Optional<UUID> next, String stale) {}

    /** Records a decision; the deployment applies when it has enough approvals, and ends when rejected. */
    public ApprovalView decide(OrgScope scope, String project, String env, UUID deploymentId, ApprovalRequest request) {
        Outcome outcome =
                QuarkusTransaction.requiringNew().call(() -> decideLocked(scope, project, env, deploymentId, request));
        engine.advance(outcome.next());
        if (outcome.stale() != null) {
            throw PlatformException.conflict("the plan of deployment " + deploymentId + " is stale: " + outcome.stale()
                    + ". The deployment failed without applying anything; create a new deployment to plan again");
        }
        return outcome.approval();
    }

    private Outcome decideLocked(
            OrgScope scope, String project, String env, UUID deploymentId, ApprovalRequest request) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        environments.lock(environment.id());
        Deployment deployment = deployments
                .find(environment.id(), deploymentId)
                .orElseThrow(() -> PlatformException.notFound(
                        "deployment `" + deploymentId + "` of `" + environment.path() + "`"));
        deployment = deployments.lock(deployment.id());
        if (deployment.status() != DeploymentStatus.AWAITING_APPROVAL) {
            throw PlatformException.conflict("deployment " + deploymentId + " does not wait for approval (it is "
                    + deployment.status().wireName()
                    + (deployment.approvalState() == null
                            ? ""
                            : ", approval " + deployment.approvalState().wireName()) + ")");
        }
        ApprovalPolicy policy = ApprovalPolicy.fromJson(deployment.approval());
        if (!policy.allows(scope.role())) {
            throw new PlatformException(
                    ProblemType.FORBIDDEN,
                    "only members with the role "
                            + policy.approvers().stream().map(Role::wireName).collect(Collectors.joining(" or "))
                            + " may decide on deployments of environment type `" + environment.envType()
                            + "`; yours is " + scope.role().wireName());
        }
        UUID caller = scope.caller().principalId();
        if (!policy.allowSelfApproval() && caller.equals(deployment.createdBy())) {
            throw new PlatformException(
                    ProblemType.FORBIDDEN, "you started this deployment; another member must approve or reject it");
        }
        if (decisions(deployment.id()).stream().anyMatch(a -> a.userId().equals(caller))) {
            throw PlatformException.conflict("you have already decided on deployment " + deploymentId);
        }
        if (request.fingerprint() != null && !request.fingerprint().equals(deployment.planFingerprint())) {
            throw PlatformException.conflict("you reviewed plan " + request.fingerprint() + ", but deployment "
                    + deploymentId + " waits with plan " + deployment.planFingerprint() + "; review that plan");
        }
        Instant now = clock.instant();
        String comment = request.comment() == null || request.comment().isBlank()
                ? null
                : request.comment().strip();
        boolean approves = Approval.APPROVE.equals(request.decision());
        if (approves) {
            Optional<String> stale = engine.staleness(deployment);
            if (stale.isPresent()) {
                LOG.infof(
                        "Deployment %s: approval by %s refused, the plan is stale (%s)",
                        deployment.id(), scope.caller().name(), stale.get());
                Optional<UUID> next = engine.notApproved(
                        deployment,
                        ApprovalState.STALE,
                        "not applied: the plan is stale, " + stale.get() + "; create a new deployment to plan again");
                return new Outcome(null, next, stale.get());
            }
        }
        String fingerprint = deployment.planFingerprint();
        long approved = decisions(deployment.id()).stream()
                        .filter(a -> a.approves() && a.fingerprint().equals(fingerprint))
                        .count()
                + (approves ? 1 : 0);
        Approval approval = new Approval(
                deployment.orgId(),
                deployment.id(),
                request.decision(),
                comment,
                caller,
                scope.caller().name(),
                scope.role().wireName(),
                fingerprint,
                now);
        approvals.persist(approval);
        announce(deployment, environment, approval, approved, policy.required());
        Optional<UUID> next = Optional.empty();
        if (!approves) {
            next = engine.notApproved(
                    deployment,
                    ApprovalState.REJECTED,
                    "rejected by " + scope.caller().name() + (comment == null ? "" : ": " + comment)
                            + "; nothing was applied");
        } else if (approved >= policy.required()) {
            deployment.approved(now);
            next = engine.advanceLocked(deployment);
        }
        return new Outcome(ApprovalView.of(approval), next, null);
    }

    /** The decisions on a deployment, oldest first. */
    @Transactional
    public List<ApprovalView> list(OrgScope scope, String project, String env, UUID deploymentId) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        Deployment deployment = deployments
                .find(environment.id(), deploymentId)
                .orElseThrow(() -> PlatformException.notFound(
                        "deployment `" + deploymentId + "` of `" + environment.path() + "`"));
        return decisions(deployment.id()).stream().map(ApprovalView::of).toList();
    }

    /**
     * What waits for the caller: deployments of the organization awaiting approval that the caller's role may
     * decide on, that someone else started (unless self-approval is allowed), and that the caller has not
     * decided on yet. Oldest first, at most 200.
     */
    @Transactional
    public List<PendingApprovalView> waitingFor(OrgScope scope) {
        List<Deployment> awaiting = deployments.awaitingApproval(scope.orgId(), 200);
        UUID caller = scope.caller().principalId();
        List<PendingApprovalView> pending = new ArrayList<>();
        for (Deployment deployment : awaiting) {
            ApprovalPolicy policy = ApprovalPolicy.fromJson(deployment.approval());
            List<Approval> decisions = decisions(deployment.id());
            if (!policy.allows(scope.role())
                    || !policy.allowSelfApproval() && caller.equals(deployment.createdBy())
                    || decisions.stream().anyMatch(a -> a.userId().equals(caller))) {
                continue;
            }
            EnvironmentRef environment = environments.reference(deployment.environmentId(), scope.orgSlug());
            DeploymentView view = deploymentService.view(deployment, environment, false);
            int approved = (int) decisions.stream()
                    .filter(a -> a.approves() && a.fingerprint().equals(deployment.planFingerprint()))
                    .count();
            pending.add(new PendingApprovalView(
                    deployment.id(),
                    environment.project(),
                    environment.env(),
                    deployment.mode().wireName(),
                    deployment.createdByName(),
                    deployment.createdAt(),
                    deployment.reconciles().isEmpty() ? null : deployment.reconciles(),
                    view.changes(),
                    approved,
                    policy.required(),
                    deployment.planFingerprint(),
                    deployment.approvalExpiresAt()));
        }
        return pending;
    }

    private List<Approval> decisions(UUID deploymentId) {
        return approvals.of(deploymentId);
    }

    /** {@code approval.given}, for approvals and rejections alike, in the decision's transaction. */
    private void announce(
            Deployment deployment, EnvironmentRef environment, Approval approval, long approvals, int required) {
        if (!webhooks.subscribed(deployment.orgId(), WebhookEvent.APPROVAL_GIVEN)) {
            return;
        }
        ObjectNode data = json.createObjectNode()
                .put("deployment", deployment.id().toString())
                .put("org", environment.org())
                .put("project", environment.project())
                .put("env", environment.env())
                .put("decision", approval.decision())
                .put("by", approval.userName())
                .put("approvals", approvals)
                .put("required", required)
                .put("fingerprint", approval.fingerprint());
        if (approval.comment() != null) {
            data.put("comment", approval.comment());
        }
        webhooks.publish(deployment.orgId(), WebhookEvent.APPROVAL_GIVEN, "deployment:" + deployment.id(), data);
    }
}
