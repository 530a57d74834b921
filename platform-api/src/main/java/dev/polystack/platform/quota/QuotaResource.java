package dev.polystack.platform.quota;

import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@Path("/api/v1/orgs/{org}/quotas")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Organizations")
public class QuotaResource {

    @Inject
    AccessService access;

    @Inject
    QuotaService quotas;

    @GET
    @Operation(operationId = "getQuotas", summary = "The organization's quotas: each limit (hard) and what is used")
    public QuotasView get(@PathParam("org") String org) {
        return quotas.view(access.require(org, Role.VIEWER).orgId());
    }

    @PUT
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(
            operationId = "putQuotas",
            summary = "Set the organization's quotas; one left out goes back to the default (instance administrators)")
    public QuotasView put(@PathParam("org") String org, @Valid @NotNull QuotaRequest request) {
        access.requireInstanceAdmin();
        return quotas.set(access.require(org, Role.VIEWER).orgId(), request);
    }
}
