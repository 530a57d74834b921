package dev.polystack.platform.audit;

import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.time.Instant;
import java.time.format.DateTimeParseException;

@Path("/api/v1/orgs/{org}/audit-events")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Audit")
public class AuditResource {

    @Inject
    AccessService access;

    @Inject
    AuditService audit;

    @GET
    @Operation(
            operationId = "listAuditEvents",
            summary = "The organization's audit log, newest first (platform engineers and owners)")
    public Page<AuditEventView> list(
            @PathParam("org") String org,
            @QueryParam("actor") String actor,
            @QueryParam("action") String action,
            @QueryParam("target") String target,
            @QueryParam("from") String from,
            @QueryParam("to") String to,
            @BeanParam PageRequest page) {
        return audit.list(
                access.require(org, Role.PLATFORM_ENGINEER),
                actor,
                action,
                target,
                instant(from, "from"),
                instant(to, "to"),
                page);
    }

    static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

    static Instant instant(String value, String parameter) {
        if (value == null || value.isBlank()) {
            return null;
        }
        Instant instant;
        try {
            instant = Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw PlatformException.invalid(parameter, "must be an RFC 3339 timestamp such as 2026-11-29T12:00:00Z");
        }
        // PostgreSQL stores timestamps from 4713 BC to 294276 AD; Instant goes much further
        if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
            throw PlatformException.invalid(parameter, "must be between 0001-01-01 and 9999-12-31");
        }
        return instant;
    }
}
