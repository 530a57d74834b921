package dev.polystack.platform.runner;

import dev.polystack.platform.common.ManagementRequest;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

import java.util.UUID;

@Path("/api/v1/orgs/{org}/runner-rules")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Runner rules")
public class RunnerRuleResource {

    @Inject
    AccessService access;

    @Inject
    RunnerRuleService rules;

    @GET
    @Operation(operationId = "listRunnerRules", summary = "List runner rules, optionally of one runner")
    public Page<RunnerRuleView> list(
            @PathParam("org") String org, @QueryParam("runner_id") String runnerId, @BeanParam PageRequest page) {
        return rules.list(access.require(org, Role.VIEWER), runnerId, page);
    }

    @POST
    @Operation(operationId = "createRunnerRule", summary = "Create a runner rule (platform engineers)")
    public RestResponse<RunnerRuleView> create(
            @PathParam("org") String org, @Valid @NotNull CreateRunnerRuleRequest request, @Context UriInfo uriInfo) {
        RunnerRuleView created = rules.create(access.require(org, Role.PLATFORM_ENGINEER), request);
        return RestResponse.ResponseBuilder.<RunnerRuleView>created(uriInfo.getAbsolutePathBuilder()
                        .path(created.id().toString())
                        .build())
                .entity(created)
                .build();
    }

    @GET
    @Path("/{rule_id}")
    @Operation(operationId = "getRunnerRule", summary = "Get a runner rule")
    public RunnerRuleView get(@PathParam("org") String org, @PathParam("rule_id") UUID ruleId) {
        return rules.get(access.require(org, Role.VIEWER), ruleId);
    }

    @PATCH
    @Path("/{rule_id}")
    @Operation(
            operationId = "manageRunnerRule",
            summary = "Change who manages a runner rule and whether it is protected (platform engineers);"
                    + " its criteria never change")
    public RunnerRuleView manage(
            @PathParam("org") String org,
            @PathParam("rule_id") UUID ruleId,
            @Valid @NotNull ManagementRequest request) {
        return rules.manage(access.require(org, Role.PLATFORM_ENGINEER), ruleId, request);
    }

    @DELETE
    @Path("/{rule_id}")
    @Operation(operationId = "deleteRunnerRule", summary = "Delete a runner rule (platform engineers)")
    public RestResponse<Void> delete(@PathParam("org") String org, @PathParam("rule_id") UUID ruleId) {
        rules.delete(access.require(org, Role.PLATFORM_ENGINEER), ruleId);
        return RestResponse.noContent();
    }
}
