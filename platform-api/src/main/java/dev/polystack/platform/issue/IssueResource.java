package dev.polystack.platform.issue;

import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.UUID;

/** The issues of an environment, and of a whole organization: newest first, filtered by kind, state and resource. */
@Path("/api/v1/orgs/{org}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Issues")
public class IssueResource {

    @Inject
    AccessService access;

    @Inject
    IssueService issues;

    @GET
    @Path("/projects/{project}/envs/{env}/issues")
    @Operation(
            operationId = "listEnvironmentIssues",
            summary = "The environment's issues: drift, failed checks and applies, newest first (viewers and up)")
    public Page<IssueView> listOfEnvironment(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @QueryParam("kind") String kind,
            @QueryParam("state") String state,
            @QueryParam("resource") String resource,
            @BeanParam PageRequest page) {
        return issues.list(
                access.require(org, Role.VIEWER), project, env, new IssueService.Filter(kind, state, resource), page);
    }

    @GET
    @Path("/issues")
    @Operation(
            operationId = "listIssues",
            summary = "The issues of every environment of the organization, newest first (viewers and up)")
    public Page<IssueView> list(
            @PathParam("org") String org,
            @QueryParam("kind") String kind,
            @QueryParam("state") String state,
            @QueryParam("resource") String resource,
            @BeanParam PageRequest page) {
        return issues.list(access.require(org, Role.VIEWER), new IssueService.Filter(kind, state, resource), page);
    }

    @POST
    @Path("/projects/{project}/envs/{env}/issues/{id}/acknowledge")
    @Operation(
            operationId = "acknowledgeIssue",
            summary =
                    "Acknowledge an issue with a comment; it stays open until the deviation is gone (developers and up)")
    public IssueView acknowledge(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @PathParam("env") String env,
            @PathParam("id") UUID id,
            @Valid @NotNull AcknowledgeIssueRequest request) {
        return issues.acknowledge(access.require(org, Role.DEVELOPER), project, env, id, request.comment());
    }
}
