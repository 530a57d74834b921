package dev.polystack.platform.deployment;

import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.List;
import java.util.UUID;

/** Manual gates: the decisions on a deployment's plan, and what waits for the caller's decision. */
@Path("/api/v1/orgs/{org}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Approvals")
public class ApprovalResource {

    @Inject
    AccessService access;

    @Inject
    ApprovalService approvals;

    @POST
    @Path("/projects/{project}/envs/{env}/deployments/{id}/approvals")
    @Operation(
            operationId = "decideApproval",
            summary =
                    "Approve or reject the plan of a deployment that waits for approval"
                            + " (members whose role the environment type's approval policy names; not the deployment's author unless it allows)")
    @APIResponse(
            responseCode = "201",
            description = "The decision; with enough approvals the deployment applies",
            content = @Content(schema = @Schema(implementation = ApprovalView.class)))
    @APIResponse(responseCode = "403", description = "Your role may not decide here, or you started the deployment")
    @APIResponse(
            responseCode = "409",
            description =
                    "It does not wait for approval, you decided already, you reviewed another"
                            + " plan, or the plan is stale (a planned resource's state or inputs moved; the deployment then fails, plan again)")
    public Response decide(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @PathParam("id") UUID id,
            @Valid @NotNull ApprovalRequest request,
            @Context UriInfo uriInfo) {
        ApprovalView approval = approvals.decide(access.require(org, Role.VIEWER), project, env, id, request);
        return Response.created(uriInfo.getAbsolutePathBuilder()
                        .path(approval.id().toString())
                        .build())
                .entity(approval)
                .build();
    }

    @GET
    @Path("/projects/{project}/envs/{env}/deployments/{id}/approvals")
    @Operation(
            operationId = "listApprovals",
            summary = "The decisions on a deployment's plan, oldest first (viewers and up)")
    public List<ApprovalView> list(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @PathParam("id") UUID id) {
        return approvals.list(access.require(org, Role.VIEWER), project, env, id);
    }

    @GET
    @Path("/approvals")
    @Operation(
            operationId = "listPendingApprovals",
            summary = "Deployments that wait for your approval: your role may decide, someone"
                    + " else started them, and you have not decided yet (viewers and up; oldest first, at most 200)")
    public List<PendingApprovalView> pending(@PathParam("org") String org) {
        return approvals.waitingFor(access.require(org, Role.VIEWER));
    }
}
