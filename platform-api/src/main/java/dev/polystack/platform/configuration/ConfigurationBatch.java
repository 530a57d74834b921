package dev.polystack.platform.configuration;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.polystack.platform.audit.AuditService;
import dev.polystack.platform.common.ManagementRequest;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemMappers;
import dev.polystack.platform.common.problem.Problems;
import dev.polystack.platform.environment.CreateEnvironmentRequest;
import dev.polystack.platform.environment.EnvironmentService;
import dev.polystack.platform.environment.UpdateEnvironmentRequest;
import dev.polystack.platform.envtype.CreateEnvTypeRequest;
import dev.polystack.platform.envtype.EnvTypeService;
import dev.polystack.platform.envtype.UpdateEnvTypeRequest;
import dev.polystack.platform.identity.MemberService;
import dev.polystack.platform.module.CreateModuleRuleRequest;
import dev.polystack.platform.module.ModuleRequest;
import dev.polystack.platform.module.ModuleRuleService;
import dev.polystack.platform.module.ModuleService;
import dev.polystack.platform.project.CreateProjectRequest;
import dev.polystack.platform.project.ProjectService;
import dev.polystack.platform.project.UpdateProjectRequest;
import dev.polystack.platform.provider.ProviderRequest;
import dev.polystack.platform.provider.ProviderService;
import dev.polystack.platform.resourcetype.CreateResourceTypeRequest;
import dev.polystack.platform.resourcetype.ResourceTypeService;
import dev.polystack.platform.resourcetype.UpdateResourceTypeRequest;
import dev.polystack.platform.runner.CreateRunnerRuleRequest;
import dev.polystack.platform.runner.RunnerRequest;
import dev.polystack.platform.runner.RunnerRuleService;
import dev.polystack.platform.runner.RunnerService;
import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Caller;
import dev.polystack.platform.security.OrgScope;
import dev.polystack.platform.security.Role;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Makes several configuration changes in one transaction: each change is the API call it names, with
 * that call's role check, validation and rules, and the first that fails undoes them all. Environments
 * are not deleted here: that may destroy their resources, which is a deployment of its own.
 * Problems point into the batch: {@code /changes/2/body/module_id}.
 */
@ApplicationScoped
public class ConfigurationBatch {

    static final String PATHS =
            "/env-types[/ID], /resource-types[/ID], /providers[/TYPE/ID], /modules[/ID], /module-rules[/ID],"
                    + " /runners[/ID], /runner-rules[/ID], /projects[/ID], /projects/PROJECT/envs[/ID] (an environment is deleted on its own: that may"
                    + " destroy its resources)";

    @Inject
    AccessService access;

    @Inject
    EnvTypeService envTypes;

    @Inject
    ResourceTypeService resourceTypes;

    @Inject
    ProviderService providers;

    @Inject
    ModuleService modules;

    @Inject
    ModuleRuleService moduleRules;

    @Inject
    RunnerService runners;

    @Inject
    RunnerRuleService runnerRules;

    @Inject
    ProjectService projects;

    @Inject
    EnvironmentService environments;

    @Inject
    AuditService audit;

    @Inject
    MemberService members;

    @Inject
    ObjectMapper json;

    @Inject
    Validator validator;

    /** How each collection's objects are named in operation ids (createEnvType, manageModuleRule, …). */
    private static final Map<String, String> KINDS = Map.of(
            "env-types",
            "EnvType",
            "resource-types",
            "ResourceType",
            "providers",
            "Provider",
            "modules",
            "Module",
            "module-rules",
            "ModuleRule",
            "runners",
            "Runner",
            "runner-rules",
            "RunnerRule",
            "projects",
            "Project",
            "envs",
            "Environment");

    private static final Map<String, String> VERBS =
            Map.of("POST", "create", "PUT", "update", "PATCH", "manage", "DELETE", "delete");

    @Transactional
    public List<BatchResult> apply(String org, List<BatchChange> changes, String requestId) {
        List<BatchResult> results = new ArrayList<>();
        for (int i = 0; i < changes.size(); i++) {
            BatchChange change = changes.get(i);
            String context = "change " + i + " (" + change.method() + " " + change.path()
                    + ") failed, so the batch changed nothing";
            BatchResult result;
            try {
                result = apply(org, change);
            } catch (PlatformException e) {
                throw e.within("/changes/" + i + "/body", context);
            }
            if (result == null) {
                throw PlatformException.unprocessable(
                                "/changes/" + i + "/path",
                                "`" + change.method() + " " + change.path()
                                        + "` is not a change a batch makes; the paths are " + PATHS)
                        .within("", context);
            }
            results.add(result);
        }
        record(org, changes, results, requestId);
        return results;
    }

    /**
     * One audit event per change, in the batch's transaction, named as the change's own call would be
     * (the batch call itself is recorded by the audit filter as {@code applyConfigurationBatch}).
     */
    private void record(String org, List<BatchChange> changes, List<BatchResult> results, String requestId) {
        OrgScope scope = access.require(org, Role.VIEWER);
        Caller caller = scope.caller();
        String actor = members.actorName(caller);
        for (int i = 0; i < changes.size(); i++) {
            BatchChange change = changes.get(i);
            BatchResult result = results.get(i);
            String[] p = change.path().replaceAll("^/+|/+$", "").split("/+");
            String kind = KINDS.get(p.length >= 3 ? p[2] : p[0]);
            String target = "/api/v1/orgs/" + scope.orgSlug() + "/" + String.join("/", p);
            if (result.status() == 201 && result.body() != null && result.body().hasNonNull("id")) {
                target += "/"
                        + (kind.equals("Provider")
                                ? result.body().path("provider_type").asText() + "/"
                                : "") + result.body().path("id").asText();
            }
            audit.appendWithin(new AuditService.Entry(
                    scope.orgId(),
                    scope.orgSlug(),
                    caller.principalId(),
                    actor,
                    caller.serviceUser() ? "service" : "user",
                    VERBS.get(change.method()) + kind,
                    change.method(),
                    target,
                    requestId,
                    result.status()));
        }
    }

    /** The change made, or null when its method and path name no change a batch makes. */
    private BatchResult apply(String org, BatchChange change) {
        String[] p = change.path().replaceAll("^/+|/+$", "").split("/+");
        String method = change.method();
        int n = p.length;
        String collection = p[0];
        switch (collection) {
            case "env-types" -> {
                OrgScope scope = access.require(org, Role.PLATFORM_ENGINEER);
                if (n == 1 && method.equals("POST")) {
                    return created(envTypes.create(scope, body(change, CreateEnvTypeRequest.class)));
                } else if (n == 2 && method.equals("PUT")) {
                    UpdateEnvTypeRequest request = body(change, UpdateEnvTypeRequest.class);
                    return ok(envTypes.update(scope, p[1], request, request.version()));
                } else if (n == 2 && method.equals("DELETE")) {
                    envTypes.delete(scope, p[1]);
                    return deleted();
                }
            }
            case "resource-types" -> {
                OrgScope scope = access.require(org, Role.PLATFORM_ENGINEER);
                if (n == 1 && method.equals("POST")) {
                    return created(resourceTypes.create(scope, body(change, CreateResourceTypeRequest.class)));
                } else if (n == 2 && method.equals("PUT")) {
                    UpdateResourceTypeRequest request = body(change, UpdateResourceTypeRequest.class);
                    return ok(resourceTypes.update(scope, p[1], request, request.version()));
                } else if (n == 2 && method.equals("DELETE")) {
                    resourceTypes.delete(scope, p[1]);
                    return deleted();
                }
            }
            case "providers" -> {
                OrgScope scope = access.require(org, Role.PLATFORM_ENGINEER);
                if (n == 1 && method.equals("POST")) {
                    return created(providers.create(scope, body(change, ProviderRequest.class)));
                } else if (n == 3 && method.equals("PUT")) {
                    ProviderRequest request = body(change, ProviderRequest.class);
                    return ok(providers.update(scope, p[1], p[2], request, request.version()));
                } else if (n == 3 && method.equals("DELETE")) {
                    providers.delete(scope, p[1], p[2]);
                    return deleted();
                }
            }
            case "modules" -> {
                OrgScope scope = access.require(org, Role.PLATFORM_ENGINEER);
                if (n == 1 && method.equals("POST")) {
                    return created(modules.create(scope, body(change, ModuleRequest.class)));
                } else if (n == 2 && method.equals("PUT")) {
                    ModuleRequest request = body(change, ModuleRequest.class);
                    return ok(modules.update(scope, p[1], request, request.version()));
                } else if (n == 2 && method.equals("DELETE")) {
                    modules.delete(scope, p[1]);
                    return deleted();
                }
            }
            case "module-rules" -> {
                OrgScope scope = access.require(org, Role.PLATFORM_ENGINEER);
                if (n == 1 && method.equals("POST")) {
                    return created(moduleRules.create(scope, body(change, CreateModuleRuleRequest.class)));
                } else if (n == 2 && method.equals("PATCH")) {
                    return ok(moduleRules.manage(scope, ruleId(p[1]), body(change, ManagementRequest.class)));
                } else if (n == 2 && method.equals("DELETE")) {
                    moduleRules.delete(scope, ruleId(p[1]));
                    return deleted();
                }
            }
            case "runners" -> {
                OrgScope scope = access.require(org, Role.PLATFORM_ENGINEER);
                if (n == 1 && method.equals("POST")) {
                    return created(runners.create(scope, body(change, RunnerRequest.class)));
                } else if (n == 2 && method.equals("PUT")) {
                    RunnerRequest request = body(change, RunnerRequest.class);
                    return ok(runners.update(scope, p[1], request, request.version()));
                } else if (n == 2 && method.equals("DELETE")) {
                    runners.delete(scope, p[1]);
                    return deleted();
                }
            }
            case "runner-rules" -> {
                OrgScope scope = access.require(org, Role.PLATFORM_ENGINEER);
                if (n == 1 && method.equals("POST")) {
                    return created(runnerRules.create(scope, body(change, CreateRunnerRuleRequest.class)));
                } else if (n == 2 && method.equals("PATCH")) {
                    return ok(runnerRules.manage(scope, ruleId(p[1]), body(change, ManagementRequest.class)));
                } else if (n == 2 && method.equals("DELETE")) {
                    runnerRules.delete(scope, ruleId(p[1]));
                    return deleted();
                }
            }
            case "projects" -> {
                OrgScope scope = access.require(org, Role.DEVELOPER);
                if (n == 1 && method.equals("POST")) {
                    return created(projects.create(scope, body(change, CreateProjectRequest.class)));
                } else if (n == 2 && method.equals("PUT")) {
                    UpdateProjectRequest request = body(change, UpdateProjectRequest.class);
                    return ok(projects.update(scope, p[1], request, request.version()));
                } else if (n == 2 && method.equals("DELETE")) {
                    projects.delete(scope, p[1]);
                    return deleted();
                } else if (n == 3 && p[2].equals("envs") && method.equals("POST")) {
                    return created(environments.create(scope, p[1], body(change, CreateEnvironmentRequest.class)));
                } else if (n == 4 && p[2].equals("envs") && method.equals("PUT")) {
                    UpdateEnvironmentRequest request = body(change, UpdateEnvironmentRequest.class);
                    return ok(environments.update(scope, p[1], p[3], request, request.version()));
                }
            }
            default -> {}
        }
        return null;
    }

    /** The change's body as the request its own call takes, validated as that call validates it. */
    private <T> T body(BatchChange change, Class<T> type) {
        JsonNode body = change.body() == null ? NullNode.getInstance() : change.body();
        if (!body.isObject()) {
            throw PlatformException.invalid("", "must be an object");
        }
        T request;
        try {
            request = json.treeToValue(body, type);
        } catch (JsonMappingException e) {
            String pointer = Problems.pointer(e.getPath());
            throw PlatformException.invalid(pointer, e.getOriginalMessage().split("\n")[0]);
        } catch (JsonProcessingException e) {
            throw PlatformException.invalid("", "is not valid JSON for this call");
        }
        Set<ConstraintViolation<T>> violations = validator.validate(request);
        if (!violations.isEmpty()) {
            throw ProblemMappers.invalid(violations);
        }
        return request;
    }

    private static UUID ruleId(String text) {
        try {
            return UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            throw PlatformException.notFound("rule `" + text + "`");
        }
    }

    private BatchResult created(Object view) {
        return new BatchResult(201, json.valueToTree(view));
    }

    private BatchResult ok(Object view) {
        return new BatchResult(200, json.valueToTree(view));
    }

    private static BatchResult deleted() {
        return new BatchResult(204, null);
    }
}
