package dev.polystack.platform.audit;

import dev.polystack.platform.common.problem.Problems;
import dev.polystack.platform.identity.MemberService;
import dev.polystack.platform.organization.OrganizationService;
import dev.polystack.platform.security.Caller;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.Context;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import org.eclipse.microprofile.context.ManagedExecutor;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import java.lang.reflect.Method;
import java.net.URI;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

/**
 * Appends an audit event for every mutating call of the API — whether it succeeded or not — with the
 * caller, the operation, the target, the request id and the status. Bodies are never recorded, so no
 * secret can reach the log. Calls on an organization by callers who are not its members (anonymous
 * ones included) are recorded in the instance-level log, not in the organization's.
 */
public class AuditFilter {

    private static final Logger LOG = Logger.getLogger(AuditFilter.class);
    private static final Set<String> MUTATING = Set.of("POST", "PUT", "PATCH", "DELETE");

    @Inject
    AuditService audit;

    @Inject
    OrganizationService organizations;

    @Inject
    MemberService members;

    @Inject
    CurrentIdentityAssociation identities;

    @Inject
    ManagedExecutor workers;

    @ServerResponseFilter
    public void record(ContainerRequestContext request, ContainerResponseContext response, ResourceInfo resource) {
        String path = request.getUriInfo().getPath();
        if (!MUTATING.contains(request.getMethod()) || !path.startsWith("/api/v1/")) {
            return;
        }
        try {
            String orgSlug = request.getUriInfo().getPathParameters().getFirst("org");
            String target = path;
            Object location = response.getHeaders().getFirst("Location");
            if (location != null && response.getStatus() == 201) {
                target = URI.create(location.toString()).getPath();
            }
            if (orgSlug == null && target.startsWith("/api/v1/orgs/")) {
                orgSlug = target.substring("/api/v1/orgs/".length()).split("/")[0];
            }
            Caller caller = caller();
            String slug = orgSlug == null || orgSlug.indexOf('\0') >= 0 ? null : orgSlug;
            // whatever a caller put into the path, its event must be storable (PostgreSQL text cannot hold NUL)
            String finalTarget = storable(target);
            String action = action(resource, request.getMethod());
            String method = request.getMethod();
            String requestId = storable(request.getHeaderString(Problems.REQUEST_ID_HEADER));
            int status = response.getStatus();
            Runnable write = () -> {
                try {
                    UUID orgId =
                            slug == null ? null : organizations.findId(slug).orElse(null);
                    // a caller who is not a member learns nothing about the organization (404), and its
                    // attempts go to the instance-level log, where they cannot fill the organization's
                    boolean member = orgId != null
                            && caller != null
                            && (caller.instanceAdmin()
                                    || members.roleOf(orgId, caller.principalId())
                                            .isPresent());
                    audit.append(new AuditService.Entry(
                            member ? orgId : null,
                            slug,
                            caller == null ? null : caller.principalId(),
                            caller == null ? "anonymous" : members.actorName(caller),
                            caller == null ? "anonymous" : caller.serviceUser() ? "service" : "user",
                            action,
                            method,
                            finalTarget,
                            requestId,
                            status));
                } catch (RuntimeException e) {
                    LOG.errorf(e, "Could not write the audit event of %s %s", method, finalTarget);
                }
            };
            if (Context.isOnEventLoopThread()) {
                // Refused before reaching a worker thread (unauthenticated, throttled): the database must not block the
                // event loop.
                workers.execute(write);
            } else {
                write.run();
            }
        } catch (RuntimeException e) {
            LOG.errorf(e, "Could not write the audit event of %s %s", request.getMethod(), path);
        }
    }

    private static String storable(String text) {
        return text == null ? null : text.replace('\0', '\uFFFD');
    }

    private Caller caller() {
        try {
            SecurityIdentity identity = identities.getIdentity();
            return identity == null || identity.isAnonymous() ? null : identity.getAttribute(Caller.ATTRIBUTE);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String action(ResourceInfo resource, String method) {
        Method target = resource == null ? null : resource.getResourceMethod();
        if (target == null) {
            return method.toLowerCase(Locale.ROOT);
        }
        Operation operation = target.getAnnotation(Operation.class);
        return operation != null && !operation.operationId().isBlank() ? operation.operationId() : target.getName();
    }
}
