package dev.polystack.platform.audit;

import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.security.AccessService;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import static dev.polystack.platform.audit.AuditResource.instant;

@Path("/api/v1/audit-events")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Audit")
public class InstanceAuditResource {

    @Inject
    AccessService access;

    @Inject
    AuditService audit;

    @GET
    @Operation(
            operationId = "listInstanceAuditEvents",
            summary =
                    "The instance-level audit log, newest first (instance administrators):"
                            + " attempts on organizations by callers who are not their members, and calls outside any organization")
    public Page<AuditEventView> list(
            @QueryParam("org") String org,
            @QueryParam("actor") String actor,
            @QueryParam("action") String action,
            @QueryParam("target") String target,
            @QueryParam("from") String from,
            @QueryParam("to") String to,
            @BeanParam PageRequest page) {
        access.requireInstanceAdmin();
        return audit.listInstance(org, actor, action, target, instant(from, "from"), instant(to, "to"), page);
    }
}
